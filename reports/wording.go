package reports

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"payline/domain"
)

func stamp(t time.Time) string { return t.UTC().Format("Jan 2, 2006 15:04 UTC") }

// shortDay writes a date as "Mar 4" (see dateAs).
func shortDay(s string) string { return dateAs(s, "Jan 2") }

// titleCase capitalises words of an enum value: bi-weekly is Bi-weekly.
func titleCase(s string) string {
	s = strings.ReplaceAll(s, "_", " ")
	if s == "" {
		return "—"
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// formatPhone writes ten digits as (201) 555-0100.
func formatPhone(s string) string {
	if len(s) != 10 {
		return s
	}
	return fmt.Sprintf("(%s) %s-%s", s[:3], s[3:6], s[6:])
}

// birthYear is a date of birth's year, "—" without one, "unknown" when
// it does not parse.
func birthYear(dob string) string {
	t, err := domain.Date(dob).Parse()
	switch {
	case dob == "":
		return "—"
	case err != nil:
		return "unknown"
	}
	return t.Format("2006")
}

// fieldWords say the report's fields as an underwriter reads them.
var fieldWords = map[string]string{
	"employee":                   "the employee",
	"employee.name.first_name":   "the employee's first, middle and last name (split from the full name)",
	"employee.name.middle_name":  "",
	"employee.name.last_name":    "",
	"employment_duration_months": "months employed",
	"employer_address":           "employer address",
	"start_date":                 "start date",
	"employment_status":          "employment status",
	"employment_type":            "employment type",
	"title":                      "job title",
	"most_recent_pay_date":       "last pay date",
	"income.pay_frequency":       "pay frequency",
	"income.compensation_unit":   "rate of pay",
	"income.compensation_amount": "",
	"income.annual_incomes":      "annual income",
	"income.paystubs":            "paystubs",
}

// fieldsInWords writes completeness paths (employments[1].title) as
// words ("job title at Birch Logistics"), one mention each.
func fieldsInWords(r domain.VerificationReport, paths []string) string {
	var out []string
	for _, p := range paths {
		w := fieldInWords(r, p)
		if w != "" && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return strings.Join(out, "; ")
}

func fieldInWords(r domain.VerificationReport, path string) string {
	var i int
	var field string
	if _, err := fmt.Sscanf(path, "employments[%d].", &i); err == nil {
		_, field, _ = strings.Cut(path, "].")
		if words, ok := yearFieldInWords(r, i, field); ok {
			return words
		}
		words, known := fieldWords[field]
		if !known {
			words = strings.ReplaceAll(strings.ReplaceAll(field, ".", " "), "_", " ")
		}
		if words == "" {
			return ""
		}
		if i >= 0 && i < len(r.Employments) {
			return words + " at " + r.Employments[i].EmployerName
		}
		return words
	}
	if words, known := fieldWords[path]; known {
		return words
	}
	return strings.ReplaceAll(strings.ReplaceAll(path, ".", " "), "_", " ")
}

// yearFieldInWords writes a year's field (income.annual_incomes[1].
// net_pay_ytd) as the year and what it lacks: a year read from a W-2
// alone lacks its net pay, taxes, deductions and reimbursements together,
// said once.
func yearFieldInWords(r domain.VerificationReport, i int, field string) (string, bool) {
	var j int
	if _, err := fmt.Sscanf(field, "income.annual_incomes[%d].", &j); err != nil {
		return "", false
	}
	if i < 0 || i >= len(r.Employments) || r.Employments[i].Income == nil || j < 0 || j >= len(r.Employments[i].Income.AnnualIncomes) {
		return strings.ReplaceAll(strings.ReplaceAll(field, ".", " "), "_", " "), true
	}
	e := r.Employments[i]
	year := e.Income.AnnualIncomes[j].Year
	return fmt.Sprintf("%s net pay, taxes, deductions and reimbursements at %s (a W-2 gives none of them)", year, e.EmployerName), true
}

// accountInWords names an account by its employer, not its id.
func accountInWords(r domain.VerificationReport, accountID string) string {
	for _, e := range r.Employments {
		if e.AccountID == accountID {
			return "the account at " + e.EmployerName
		}
	}
	return "one of the end user's accounts"
}

// formatEIN writes nine digits as 12-3456789.
func formatEIN(s string) string {
	if len(s) == 9 {
		return s[:2] + "-" + s[2:]
	}
	return s
}

// plural is "1 paystub", "26 paystubs".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// purposeWords say a permissible purpose on paper.
var purposeWords = map[string]string{
	"credit_application": "Credit application", "account_review": "Account review", "employment": "Employment",
	"tenant_screening": "Tenant screening", "insurance": "Insurance", "government_benefits": "Government benefits",
	"consumer_request": "At the consumer's request",
}

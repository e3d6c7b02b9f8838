package documents

import (
	"sort"
	"strings"
)

// field is a figure or name a paystub labels.
type field int

const (
	fieldNone field = iota
	fieldGross
	fieldNet
	fieldTaxes
	fieldDeductions
	fieldPayDate
	fieldPeriodStart
	fieldPeriodEnd
	fieldPeriod
	fieldEmployer
	fieldEmployee
	fieldEIN
)

// labels are the ways payroll providers, public employers and small
// business tools write each field, normalized (see normalize). A
// "YTD" before or after a money label asks for the year-to-date figure.
var labels = map[field][]string{
	fieldGross: {"gross pay", "total gross", "total gross pay", "gross earnings", "total earnings", "gross wages",
		"gross", "gross amount", "total gross earnings", "gross income", "total pay", "earnings total"},
	fieldNet: {"net pay", "net check", "take home", "take home pay", "net amount", "net", "net earnings",
		"net wages", "net pay amount", "total net pay", "net deposit", "amount deposited"},
	fieldTaxes: {"total taxes", "taxes", "total tax", "employee taxes", "total employee taxes", "taxes withheld",
		"total withholdings", "total withholding", "tax withholdings", "total taxes withheld", "statutory deductions total"},
	fieldDeductions: {"total deductions", "deductions", "total other deductions", "total voluntary deductions",
		"other deductions", "deduction total", "total pre tax and post tax deductions"},
	fieldPayDate: {"pay date", "check date", "advice date", "payment date", "date paid", "paid on", "pay day",
		"deposit date", "date of payment", "paydate", "check dt", "pay dt"},
	fieldPeriodStart: {"period beginning", "period start", "pay period start", "pay period begin", "period begin",
		"period starting", "start date", "period from", "pay period beginning", "begin date", "from date", "pay begin date"},
	fieldPeriodEnd: {"period ending", "period end", "pay period end", "pay period ending", "end date", "period to",
		"period ended", "through date", "to date", "pay end date"},
	fieldPeriod: {"pay period", "period", "earnings period", "pay period dates", "period covered", "work period",
		"pay period range", "dates of service"},
	fieldEmployer: {"company", "employer", "employer name", "company name", "paid by", "organization", "agency"},
	fieldEmployee: {"employee", "employee name", "pay to", "pay to the order of", "paid to", "payee"},
	fieldEIN:      {"ein", "fein", "federal ein", "employer id", "employer identification number", "employer ein", "fed id"},
}

// labelList is every label, longest first, so "net pay" wins over "net".
var labelList = func() []labelEntry {
	var out []labelEntry
	for f, ls := range labels {
		for _, l := range ls {
			out = append(out, labelEntry{l, f})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i].text) != len(out[j].text) {
			return len(out[i].text) > len(out[j].text)
		}
		return out[i].text < out[j].text
	})
	return out
}()

type labelEntry struct {
	text  string
	field field
}

// matchLabel says which field a phrase labels, whether it asks for the
// year-to-date figure, and how many of the phrase's normalized words the
// label takes. A label must start the phrase.
func matchLabel(text string) (f field, ytd bool, words int) {
	n := normalize(text)
	for _, p := range []string{"ytd ", "current ", "this period "} {
		if strings.HasPrefix(n, p) {
			ytd = p == "ytd "
			n = strings.TrimPrefix(n, p)
			words++
			break
		}
	}
	for _, l := range labelList {
		if n == l.text || strings.HasPrefix(n, l.text+" ") {
			rest := strings.TrimPrefix(n[len(l.text):], " ")
			words += strings.Count(l.text, " ") + 1
			if strings.HasPrefix(rest, "ytd") {
				ytd = true
				words++
				rest = strings.TrimPrefix(strings.TrimPrefix(rest, "ytd"), " ")
			}
			if rest != "" && !valueLike(rest) && !labelsBeforeColon(text, l.text) {
				// "Net Pay Distribution", "Employee ID": a longer
				// label of something else.
				return fieldNone, false, 0
			}
			return l.field, ytd, words
		}
	}
	return fieldNone, false, 0
}

// valueLike says whether what follows a label looks like its value
// (digits, a month name, a currency sign, a name after a colon), rather
// than more words of a longer label.
func valueLike(rest string) bool {
	if rest == "" {
		return false
	}
	c := rest[0]
	if c >= '0' && c <= '9' || c == '$' || c == '(' || c == '-' {
		return true
	}
	_, isMonth := month(strings.Fields(rest)[0])
	return isMonth
}

// column kinds of a table's header.
type columnKind int

const (
	columnNone columnKind = iota
	columnCurrent
	columnYTD
	columnHours
	columnRate
)

var columnHeaders = map[string]columnKind{
	"current": columnCurrent, "this period": columnCurrent, "current period": columnCurrent, "amount": columnCurrent,
	"current amount": columnCurrent, "curr": columnCurrent, "period amount": columnCurrent, "current amt": columnCurrent,
	"this pay": columnCurrent, "this check": columnCurrent, "current pay": columnCurrent, "cur": columnCurrent,
	"ytd": columnYTD, "ytd amount": columnYTD, "ytd total": columnYTD, "ytd amt": columnYTD, "ytd totals": columnYTD,
	"hours": columnHours, "hrs": columnHours, "units": columnHours, "hours units": columnHours, "qty": columnHours,
	"rate": columnRate, "pay rate": columnRate, "hourly rate": columnRate,
}

// sectionKind of a table of pay lines.
type sectionKind int

const (
	sectionNone sectionKind = iota
	sectionEarnings
	sectionTaxes
	sectionDeductions
	// sectionTaxesAndDeductions: one table of both, each row a tax or a
	// deduction by its name (taxOrDeduction).
	sectionTaxesAndDeductions
)

var sectionHeaders = map[string]sectionKind{
	"earnings": sectionEarnings, "earnings description": sectionEarnings, "earning": sectionEarnings,
	"pay type": sectionEarnings, "earnings type": sectionEarnings, "hours and earnings": sectionEarnings,
	"taxes": sectionTaxes, "tax": sectionTaxes, "taxes withheld": sectionTaxes, "withholdings": sectionTaxes,
	"statutory deductions": sectionTaxes, "employee taxes": sectionTaxes, "tax deductions": sectionTaxes,
	"withholding": sectionTaxes, "taxes description": sectionTaxes,
	"deductions": sectionDeductions, "pre tax deductions": sectionDeductions, "post tax deductions": sectionDeductions,
	"voluntary deductions": sectionDeductions, "other deductions": sectionDeductions, "benefits": sectionDeductions,
	"deductions description": sectionDeductions, "benefits and deductions": sectionDeductions,
	"taxes and deductions": sectionTaxesAndDeductions, "deductions and taxes": sectionTaxesAndDeductions,
	"withholdings and deductions": sectionTaxesAndDeductions, "taxes deductions": sectionTaxesAndDeductions,
}

// taxOrDeduction says which a row of a combined taxes and deductions
// table is: a deduction when its name is a known deduction ("Medical"
// before "Medicare", whose "medi" would take it), a tax when its name
// is a known tax or says tax, else a deduction.
func taxOrDeduction(name string) sectionKind {
	if deductionCategory(name) != "other" {
		return sectionDeductions
	}
	if taxCategory(name) != "other" || strings.Contains(normalize(name), "tax") {
		return sectionTaxes
	}
	return sectionDeductions
}

// titles are a paystub's own headings, never its employer's name.
var titles = []string{"earnings statement", "pay stub", "paystub", "statement of earnings", "pay statement",
	"payroll advice", "direct deposit advice", "earnings statement and advice", "pay advice", "statement of earnings and deductions",
	"remittance advice", "employee pay stub", "payslip", "pay slip", "non negotiable", "this is not a check", "void", "paycheck stub",
	"earnings and deductions", "earnings statement summary"}

// earningCategory, taxCategory and deductionCategory give a pay line the
// category Payline's paystubs use for it.
func earningCategory(name string, hasHours bool) string {
	n := normalize(name)
	switch {
	case strings.Contains(n, "overtime") || strings.HasPrefix(n, "ot ") || n == "ot":
		return "overtime"
	case strings.Contains(n, "bonus"):
		return "bonus"
	case strings.Contains(n, "commission"):
		return "commission"
	case strings.Contains(n, "tip"):
		return "tips"
	case strings.Contains(n, "salary"):
		return "salary"
	case strings.Contains(n, "pto") || strings.Contains(n, "vacation") || strings.Contains(n, "holiday") || strings.Contains(n, "sick"):
		return "pto"
	case strings.Contains(n, "regular") || strings.Contains(n, "hourly") || hasHours:
		return "hourly"
	}
	return "other"
}

func taxCategory(name string) string {
	n := normalize(name)
	switch {
	case strings.Contains(n, "social security") || strings.Contains(n, "oasdi") || strings.Contains(n, "fica ss") ||
		strings.Contains(n, "soc sec") || n == "ss" || strings.HasPrefix(n, "ss "):
		return "social_security"
	case strings.Contains(n, "medicare") || strings.Contains(n, "fica med") || strings.Contains(n, "medi"):
		return "medicare"
	case strings.Contains(n, "federal") || strings.Contains(n, "fitw") || strings.Contains(n, "fed ") ||
		strings.HasPrefix(n, "fit") || strings.Contains(n, "fed withholding"):
		return "federal_income"
	case strings.Contains(n, "local") || strings.Contains(n, "city") || strings.Contains(n, "county"):
		return "local_income"
	case strings.Contains(n, "state") || strings.Contains(n, "sit") || strings.Contains(n, "income tax"):
		return "state_income"
	}
	return "other"
}

func deductionCategory(name string) string {
	n := normalize(name)
	switch {
	case strings.Contains(n, "401") || strings.Contains(n, "403") || strings.Contains(n, "457") || strings.Contains(n, "retire") ||
		strings.Contains(n, "pension") || strings.Contains(n, "ira"):
		return "retirement"
	case strings.Contains(n, "dental"):
		return "dental_insurance"
	case strings.Contains(n, "vision"):
		return "vision_insurance"
	case strings.Contains(n, "medical") || strings.Contains(n, "health") || strings.Contains(n, "hsa"):
		return "medical_insurance"
	case strings.Contains(n, "life"):
		return "life_insurance"
	case strings.Contains(n, "garnish") || strings.Contains(n, "child support"):
		return "garnishment"
	}
	return "other"
}

// labelsBeforeColon: "Employee Name: Jane Doe" labels what follows the
// colon, whatever it looks like.
func labelsBeforeColon(text, label string) bool {
	head, _, ok := strings.Cut(text, ":")
	h := normalize(head)
	return ok && (h == label || h == "ytd "+label || h == label+" ytd")
}

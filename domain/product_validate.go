package domain

import (
	"fmt"
	"regexp"
	"strconv"
	"time"
)

// Validation of data products read from any source (the sandbox, a
// protocol connector, an upstream): each type's Validate names every
// missing or malformed field, in the spec's words. A product that fails
// is not stored: its job ends in error with CodeInvalidConnectorData.
// Problems carry a bad value's text only where it is not a person's data
// (a date format, a currency code, a category), never a name or number.

// checker collects the problems of one item.
type checker struct {
	item   int
	prefix string
	out    []FieldProblem
}

func (c *checker) missing(field string) {
	c.out = append(c.out, FieldProblem{Item: c.item, Field: c.prefix + field, Problem: "is missing"})
}

func (c *checker) bad(field, got, format string, args ...any) {
	c.out = append(c.out, FieldProblem{Item: c.item, Field: c.prefix + field, Problem: fmt.Sprintf(format, args...), Got: got})
}

func (c *checker) required(field, v string) {
	if v == "" {
		c.missing(field)
	}
}

// date checks a required YYYY-MM-DD date.
func (c *checker) date(field string, v Date) {
	if v == "" {
		c.missing(field)
		return
	}
	c.optionalDate(field, &v)
}

func (c *checker) optionalDate(field string, v *Date) {
	if v == nil || *v == "" {
		return
	}
	if !v.Valid() {
		c.bad(field, v.String(), "is not a date (YYYY-MM-DD)")
		return
	}
	if v.Time().Year() < 1900 {
		c.bad(field, v.String(), "is before 1900")
	}
}

var currencyCode = regexp.MustCompile(`^[A-Z]{3}$`)

func (c *checker) currency(field, v string) {
	switch {
	case v == "":
		c.missing(field)
	case !currencyCode.MatchString(v):
		c.bad(field, v, "is not an ISO 4217 currency code (like USD)")
	}
}

func (c *checker) nonNegative(field string, m Money) {
	if m.Amount < 0 {
		c.bad(field, strconv.FormatInt(m.Amount, 10), "is negative")
	}
}

func (c *checker) oneOf(field, v string, allowed ...string) {
	if v == "" {
		c.missing(field)
		return
	}
	for _, a := range allowed {
		if v == a {
			return
		}
	}
	c.bad(field, v, "is not one of %v", allowed)
}

func (c *checker) address(field string, a Address) {
	if a.Raw == "" && a.Line1 == "" {
		c.missing(field + ".line1")
	}
	if a.Raw == "" && a.City == "" {
		c.missing(field + ".city")
	}
}

// Validate checks an identity: a full name and an address at least.
func (i Identity) Validate() []FieldProblem {
	c := checker{item: -1}
	c.required("full_name", i.FullName)
	c.optionalDate("date_of_birth", &i.DateOfBirth)
	if i.LastFourSSN != "" && !regexp.MustCompile(`^[0-9]{4}$`).MatchString(i.LastFourSSN) {
		c.bad("last_four_ssn", "", "is not four digits")
	}
	c.address("address", i.Address)
	return c.out
}

// EmploymentStatuses are the employment statuses Payline stores.
// (the vendor's schema's enumeration).
var EmploymentStatuses = []string{"employed", "terminated", "furloughed"}

// Validate checks an employment.
func (e Employment) Validate() []FieldProblem {
	c := checker{item: -1}
	c.oneOf("status", e.Status, EmploymentStatuses...)
	c.required("employer_name", e.EmployerName)
	c.optionalDate("start_date", &e.StartDate)
	c.optionalDate("termination_date", e.TerminationDate)
	if e.Status == "terminated" && e.TerminationDate == nil {
		c.missing("termination_date")
	}
	return c.out
}

// CompensationUnits and PayFrequencies are the values income may take,
// as the vendor's schema enumerates them.
var (
	CompensationUnits = []string{"hourly", "daily", "weekly", "bi-weekly", "semi-weekly", "monthly", "semi-monthly", "annually", "variable", "per_mile"}
	PayFrequencies    = []string{"daily", "weekly", "bi-weekly", "monthly", "semi-monthly", "variable"}
)

// Validate checks income: a rate, its unit, its currency and how often
// it is paid.
func (i Income) Validate() []FieldProblem {
	c := checker{item: -1}
	c.oneOf("compensation_unit", i.CompensationUnit, CompensationUnits...)
	c.currency("currency", i.Currency)
	c.oneOf("pay_frequency", i.PayFrequency, PayFrequencies...)
	c.nonNegative("compensation_amount", i.CompensationAmount)
	return c.out
}

// validate checks one allocation line, item n of the list.
func (a DepositAllocation) validate(n int) []FieldProblem {
	c := checker{item: n}
	c.oneOf("allocation_type", a.AllocationType, AllocationAmount, AllocationPercentage, AllocationRemainder)
	switch {
	case a.AllocationType == AllocationAmount && a.Amount == nil:
		c.missing("amount")
	case a.AllocationType == AllocationPercentage && a.Percentage == nil:
		c.missing("percentage")
	}
	if a.Amount != nil {
		c.nonNegative("amount", *a.Amount)
	}
	if p := a.Percentage; p != nil && (*p < 0 || *p > 100) {
		c.bad("percentage", strconv.FormatFloat(*p, 'f', -1, 64), "is not from 0 to 100")
	}
	c.currency("currency", a.Currency)
	c.required("masked_account_number", a.MaskedAccountNumber)
	switch {
	case a.RoutingNumber == "":
		c.missing("routing_number")
	case !ValidRoutingNumber(a.RoutingNumber):
		c.bad("routing_number", "", "is not nine digits with a valid ABA checksum")
	}
	return c.out
}

// payLines checks a list of pay lines under field.
func (c *checker) payLines(field string, lines []PayLine, needed bool) {
	if lines == nil {
		if needed {
			c.missing(field)
		}
		return
	}
	for i, l := range lines {
		at := fmt.Sprintf("%s[%d].", field, i)
		if l.Name == "" && l.Category == "" {
			c.missing(at + "name")
		}
		if h := l.Hours; h != nil && *h < 0 {
			c.bad(at+"hours", strconv.FormatFloat(*h, 'f', -1, 64), "is negative")
		}
		if l.Rate != nil {
			c.nonNegative(at+"rate", *l.Rate)
		}
	}
}

// validate checks paystub n of a list: its dates, currency, amounts and
// earnings; its id, account and store time are Payline's to set.
func (p Paystub) validate(n int) []FieldProblem {
	c := checker{item: n}
	c.required("id", p.ID)
	c.date("pay_date", p.PayDate)
	c.date("pay_period_start", p.PayPeriodStart)
	c.date("pay_period_end", p.PayPeriodEnd)
	if p.PayPeriodStart != "" && p.PayPeriodEnd != "" && p.PayPeriodStart > p.PayPeriodEnd {
		c.bad("pay_period_end", p.PayPeriodEnd.String(), "is before pay_period_start (%s)", p.PayPeriodStart)
	}
	c.currency("currency", p.Currency)
	for _, m := range []struct {
		field string
		v     Money
	}{{"gross_pay_amount", p.GrossPayAmount}, {"gross_pay_ytd", p.GrossPayYTD}, {"net_pay_ytd", p.NetPayYTD},
		{"total_taxes", p.TotalTaxes}, {"total_deductions", p.TotalDeductions}, {"total_reimbursements", p.TotalReimbursements}} {
		c.nonNegative(m.field, m.v)
	}
	if p.GrossPayYTD.Amount < p.GrossPayAmount.Amount {
		c.bad("gross_pay_ytd", strconv.FormatInt(p.GrossPayYTD.Amount, 10), "is less than gross_pay_amount (%d)", p.GrossPayAmount.Amount)
	}
	c.payLines("earnings", p.Earnings, true)
	c.payLines("taxes", p.Taxes, false)
	c.payLines("deductions", p.Deductions, false)
	return c.out
}

var taxYear = regexp.MustCompile(`^(19|20)[0-9]{2}$`)

// validate checks W-2 n of a list.
func (w W2) validate(n int) []FieldProblem {
	c := checker{item: n, prefix: "parsed_data."}
	if !taxYear.MatchString(w.TaxYear) {
		if w.TaxYear == "" {
			c.missing("tax_year")
		} else {
			c.bad("tax_year", w.TaxYear, "is not a year")
		}
	}
	c.required("employer_name", w.EmployerName)
	for _, m := range []struct {
		field string
		v     Money
	}{{"total_wages", w.TotalWages}, {"state_wages", w.StateWages}, {"social_security_wages", w.SocialSecurityWages},
		{"medicare_wages", w.MedicareWages}, {"federal_taxes", w.FederalTaxes}, {"state_taxes", w.StateTaxes},
		{"social_security_taxes", w.SocialSecurityTaxes}, {"medicare_taxes", w.MedicareTaxes}} {
		c.nonNegative(m.field, m.v)
	}
	return c.out
}

// validate checks shift n of a list.
func (s DatedShift) validate(n int) []FieldProblem {
	c := checker{item: n}
	c.required("id", s.ID)
	c.date("start_date", s.StartDate)
	c.date("end_date", s.EndDate)
	c.currency("currency", s.Currency)
	for i, t := range s.Timestamps {
		for _, f := range []struct{ name, v string }{{"from", t.From}, {"to", t.To}} {
			if _, err := ParseTimestamp(f.v); err != nil {
				c.bad(fmt.Sprintf("timestamps[%d].%s", i, f.name), f.v, "is not an RFC 3339 time")
			}
		}
	}
	c.payLines("earnings", s.Earnings, false)
	return c.out
}

// Validate checks the product a read fetched, every item of a list; none
// when all is well. A product that is absent (an object product read as
// null) is a problem too: the source said it succeeded.
func (f Fetched) Validate(product string) []FieldProblem {
	object := func(present bool, v interface{ Validate() []FieldProblem }) []FieldProblem {
		if !present {
			return []FieldProblem{{Item: -1, Field: product, Problem: "is missing"}}
		}
		return v.Validate()
	}
	var out []FieldProblem
	switch product {
	case ProductIdentity:
		return object(f.Identity != nil, f.Identity)
	case ProductEmployment:
		return object(f.Employment != nil, f.Employment)
	case ProductIncome:
		return object(f.Income != nil, f.Income)
	case ProductAllocations:
		for i, a := range f.Allocations {
			out = append(out, a.validate(i)...)
		}
	case ProductPaystubs:
		for i, p := range f.Paystubs {
			out = append(out, p.validate(i)...)
		}
	case ProductTaxForms:
		for i, w := range f.W2s {
			out = append(out, w.W2.validate(i)...)
		}
	case ProductShifts:
		for i, s := range f.Shifts {
			out = append(out, s.validate(i)...)
		}
	}
	return out
}

// ProblemFields are the fields problems name, each once, in order: what
// a job's event and log say (never the values).
func ProblemFields(ps []FieldProblem) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range ps {
		if !seen[p.Field] {
			seen[p.Field] = true
			out = append(out, p.Field)
		}
	}
	return out
}

// ownedBy sets what Payline, not the source, decides about a product
// read for an account: its paystubs belong to the account and were
// stored now (a source's account_id and created_at are not trusted).
func (f *Fetched) ownedBy(accountID string, now time.Time) {
	for i := range f.Paystubs {
		f.Paystubs[i].AccountID = accountID
		if f.Paystubs[i].CreatedAt.IsZero() {
			f.Paystubs[i].CreatedAt = now
		}
	}
}

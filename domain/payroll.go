package domain

import (
	"fmt"
	"strconv"
	"time"
)

// Address is the spec's address object.
type Address struct {
	Raw        string  `json:"raw"`
	Line1      string  `json:"line1"`
	Line2      *string `json:"line2"`
	City       string  `json:"city"`
	State      string  `json:"state"`
	PostalCode string  `json:"postal_code"`
	Country    string  `json:"country"`
}

// PhoneNumber is a typed phone number.
type PhoneNumber struct {
	Value string `json:"value"`
	Type  string `json:"type"`
}

// Identity is what a payroll account knows about the person.
type Identity struct {
	FullName     string        `json:"full_name"`
	DateOfBirth  Date          `json:"date_of_birth"`
	LastFourSSN  string        `json:"last_four_ssn"`
	Emails       []string      `json:"emails"`
	Address      Address       `json:"address"`
	PhoneNumbers []PhoneNumber `json:"phone_numbers"`
}

// Employment is the person's job at the account's employer.
type Employment struct {
	Status              string      `json:"status"`
	StartDate           Date        `json:"start_date"`
	TerminationDate     *Date       `json:"termination_date"`
	EmployerName        string      `json:"employer_name"`
	EmployerAddress     Address     `json:"employer_address"`
	EmployerPhoneNumber PhoneNumber `json:"employer_phone_number"`
	Title               string      `json:"title"`
}

// Income is the person's pay rate.
type Income struct {
	CompensationAmount Money  `json:"compensation_amount"`
	CompensationUnit   string `json:"compensation_unit"`
	Currency           string `json:"currency"`
	PayFrequency       string `json:"pay_frequency"`
}

// PayLine is one earning, tax or deduction line of a paystub (or a
// shift's earning), in the currency of the stub it belongs to.
type PayLine struct {
	Name     string   `json:"name"`
	Category string   `json:"category"`
	Amount   Money    `json:"amount"`
	Hours    *float64 `json:"hours"`
	Rate     *Money   `json:"rate"`
}

// Paystub is one pay statement. Its amounts are in its currency; the
// lines add up to the totals, and the YTD figures accumulate per
// calendar year. Dates are the spec's YYYY-MM-DD, checked by Validate
// before a stub is stored.
type Paystub struct {
	ID                  string    `json:"id"`
	AccountID           string    `json:"account_id"`
	PayDate             Date      `json:"pay_date"`
	PayPeriodStart      Date      `json:"pay_period_start"`
	PayPeriodEnd        Date      `json:"pay_period_end"`
	GrossPayAmount      Money     `json:"gross_pay_amount"`
	GrossPayYTD         Money     `json:"gross_pay_ytd"`
	NetPayAmount        Money     `json:"net_pay_amount"`
	NetPayYTD           Money     `json:"net_pay_ytd"`
	CheckAmount         Money     `json:"check_amount"`
	TotalTaxes          Money     `json:"total_taxes"`
	TotalDeductions     Money     `json:"total_deductions"`
	TotalReimbursements Money     `json:"total_reimbursements"`
	Currency            string    `json:"currency"`
	EmployerName        string    `json:"employer_name"`
	ExternalPaystubID   string    `json:"external_paystub_id"`
	Earnings            []PayLine `json:"earnings"`
	// Taxes and Deductions itemise the totals; W-2s are built from them.
	Taxes      []PayLine `json:"taxes"`
	Deductions []PayLine `json:"deductions"`
	CreatedAt  time.Time `json:"created_at"`
}

// PayDateTime is the stub's pay date as a time (midnight UTC); stored
// stubs have passed Validate, so it parses.
func (p Paystub) PayDateTime() time.Time { return p.PayDate.Time() }

// W2 is a year's wage and tax statement, parsed: the one W-2 type every
// layer reads (a tax form's parsed_data, a W-2 document's, a report's).
type W2 struct {
	DocumentType        string     `json:"document_type"`
	Applicant           W2Employee `json:"applicant"`
	EmployerName        string     `json:"employer_name"`
	EmployerEIN         string     `json:"employer_ein,omitempty"` // read from an uploaded W-2; the sandbox's have none
	TotalWages          Money      `json:"total_wages"`
	StateWages          Money      `json:"state_wages"`
	SocialSecurityWages Money      `json:"social_security_wages"`
	MedicareWages       Money      `json:"medicare_wages"`
	FederalTaxes        Money      `json:"federal_taxes"`
	StateTaxes          Money      `json:"state_taxes"`
	SocialSecurityTaxes Money      `json:"social_security_taxes"`
	MedicareTaxes       Money      `json:"medicare_taxes"`
	TaxYear             string     `json:"tax_year"`
	// Boxes are every box read from an uploaded W-2 (nil for a platform's):
	// its spec fields above are then the boxes' figures, null in JSON
	// where a box was not read.
	Boxes *W2Boxes `json:"boxes,omitempty"`
}

// W2Employee is the applicant block of a W-2.
type W2Employee struct {
	Name    string  `json:"name"`
	SSN     string  `json:"ssn"`
	Address Address `json:"address"`
}

// W2From sums a calendar year's paystubs the way a W-2 does: box 1 and
// state wages are gross less pre-tax deductions; Social Security and
// Medicare wages are gross; each tax box is the year's withholding.
func W2From(year int, stubs []Paystub, who Identity, employer string) W2 {
	w := W2{DocumentType: "w2", EmployerName: employer, TaxYear: strconv.Itoa(year),
		Applicant:  W2Employee{Name: who.FullName, SSN: "XXX-XX-" + who.LastFourSSN, Address: who.Address},
		TotalWages: USD(0), SocialSecurityWages: USD(0), MedicareWages: USD(0),
		FederalTaxes: USD(0), StateTaxes: USD(0), SocialSecurityTaxes: USD(0), MedicareTaxes: USD(0)}
	for _, s := range stubs {
		if s.PayDateTime().Year() != year {
			continue
		}
		w.SocialSecurityWages.Amount += s.GrossPayAmount.Amount
		w.MedicareWages.Amount += s.GrossPayAmount.Amount
		w.TotalWages.Amount += s.GrossPayAmount.Amount - s.TotalDeductions.Amount
		for _, t := range s.Taxes {
			switch t.Category {
			case "federal_income":
				w.FederalTaxes.Amount += t.Amount.Amount
			case "state_income":
				w.StateTaxes.Amount += t.Amount.Amount
			case "social_security":
				w.SocialSecurityTaxes.Amount += t.Amount.Amount
			case "medicare":
				w.MedicareTaxes.Amount += t.Amount.Amount
			}
		}
	}
	w.StateWages = w.TotalWages
	return w
}

// Date is a calendar date as the spec writes it, YYYY-MM-DD: no time,
// no zone. Its text orders as the dates do, so dates compare as they
// are. Products are stored only with dates that parse (Validate), so a
// stored Date's Time never falls back to the zero time.
type Date string

// ParseDate reads a YYYY-MM-DD date.
func ParseDate(s string) (Date, error) {
	if _, err := Date(s).Parse(); err != nil {
		return "", fmt.Errorf("%q is not a date (YYYY-MM-DD)", s)
	}
	return Date(s), nil
}

// Parse is the date at midnight UTC, or the error of text that is not a
// YYYY-MM-DD date: the one place a date's text is read.
func (d Date) Parse() (time.Time, error) { return time.Parse(time.DateOnly, string(d)) }

// ParseTimestamp reads an RFC 3339 date-time (fractions of a second
// allowed): the one place a timestamp's text is read.
func ParseTimestamp(s string) (time.Time, error) { return time.Parse(time.RFC3339Nano, s) }

// DateOf is the calendar date of t in its own zone.
func DateOf(t time.Time) Date { return Date(t.Format(time.DateOnly)) }

// Time is the date at midnight UTC; the zero time for a date that does
// not parse (which Validate keeps out of the store).
func (d Date) Time() time.Time {
	t, _ := d.Parse()
	return t
}

// Valid says whether the date parses.
func (d Date) Valid() bool {
	_, err := d.Parse()
	return err == nil
}

// String is the date as YYYY-MM-DD.
func (d Date) String() string { return string(d) }

package domain

import (
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
	DateOfBirth  string        `json:"date_of_birth"`
	LastFourSSN  string        `json:"last_four_ssn"`
	Emails       []string      `json:"emails"`
	Address      Address       `json:"address"`
	PhoneNumbers []PhoneNumber `json:"phone_numbers"`
}

// Employment is the person's job at the account's employer.
type Employment struct {
	Status              string      `json:"status"`
	StartDate           string      `json:"start_date"`
	TerminationDate     *string     `json:"termination_date"`
	EmployerName        string      `json:"employer_name"`
	EmployerAddress     Address     `json:"employer_address"`
	EmployerPhoneNumber PhoneNumber `json:"employer_phone_number"`
	Title               string      `json:"title"`
}

// Income is the person's pay rate.
type Income struct {
	CompensationAmount int64  `json:"compensation_amount"`
	CompensationUnit   string `json:"compensation_unit"`
	Currency           string `json:"currency"`
	PayFrequency       string `json:"pay_frequency"`
}

// PayLine is one earning, tax or deduction line of a paystub, in cents.
type PayLine struct {
	Name     string   `json:"name"`
	Category string   `json:"category"`
	Amount   int64    `json:"amount"`
	Hours    *float64 `json:"hours"`
	Rate     *int64   `json:"rate"`
}

// Paystub is one pay statement. Every amount is in cents; the lines add
// up to the totals, and the YTD figures accumulate per calendar year.
type Paystub struct {
	ID                  string    `json:"id"`
	AccountID           string    `json:"account_id"`
	PayDate             string    `json:"pay_date"`
	PayPeriodStart      string    `json:"pay_period_start"`
	PayPeriodEnd        string    `json:"pay_period_end"`
	GrossPayAmount      int64     `json:"gross_pay_amount"`
	GrossPayYTD         int64     `json:"gross_pay_ytd"`
	NetPayAmount        int64     `json:"net_pay_amount"`
	NetPayYTD           int64     `json:"net_pay_ytd"`
	CheckAmount         int64     `json:"check_amount"`
	TotalTaxes          int64     `json:"total_taxes"`
	TotalDeductions     int64     `json:"total_deductions"`
	TotalReimbursements int64     `json:"total_reimbursements"`
	Currency            string    `json:"currency"`
	EmployerName        string    `json:"employer_name"`
	ExternalPaystubID   string    `json:"external_paystub_id"`
	Earnings            []PayLine `json:"earnings"`
	// Taxes and Deductions itemise the totals; W-2s are built from them.
	Taxes      []PayLine `json:"taxes"`
	Deductions []PayLine `json:"deductions"`
	CreatedAt  time.Time `json:"created_at"`
}

// PublicPaystub is a paystub with the spec's fields, as REST, GraphQL and
// reports show it; the itemised taxes and deductions stay internal (they
// feed W-2s and reports' totals).
type PublicPaystub struct {
	ID                  string    `json:"id"`
	AccountID           string    `json:"account_id"`
	PayDate             string    `json:"pay_date"`
	PayPeriodStart      string    `json:"pay_period_start"`
	PayPeriodEnd        string    `json:"pay_period_end"`
	GrossPayAmount      int64     `json:"gross_pay_amount"`
	GrossPayYTD         int64     `json:"gross_pay_ytd"`
	NetPayAmount        int64     `json:"net_pay_amount"`
	NetPayYTD           int64     `json:"net_pay_ytd"`
	CheckAmount         int64     `json:"check_amount"`
	TotalTaxes          int64     `json:"total_taxes"`
	TotalDeductions     int64     `json:"total_deductions"`
	TotalReimbursements int64     `json:"total_reimbursements"`
	Currency            string    `json:"currency"`
	EmployerName        string    `json:"employer_name"`
	ExternalPaystubID   string    `json:"external_paystub_id"`
	Earnings            []PayLine `json:"earnings"`
	CreatedAt           Timestamp `json:"created_at"`
}

// Public is the stub as the API shows it.
func (p Paystub) Public() PublicPaystub {
	return PublicPaystub{ID: p.ID, AccountID: p.AccountID, PayDate: p.PayDate, PayPeriodStart: p.PayPeriodStart,
		PayPeriodEnd: p.PayPeriodEnd, GrossPayAmount: p.GrossPayAmount, GrossPayYTD: p.GrossPayYTD,
		NetPayAmount: p.NetPayAmount, NetPayYTD: p.NetPayYTD, CheckAmount: p.CheckAmount, TotalTaxes: p.TotalTaxes,
		TotalDeductions: p.TotalDeductions, TotalReimbursements: p.TotalReimbursements, Currency: p.Currency,
		EmployerName: p.EmployerName, ExternalPaystubID: p.ExternalPaystubID, Earnings: p.Earnings, CreatedAt: Timestamp(p.CreatedAt)}
}

// PayDateTime parses the stub's pay date.
func (p Paystub) PayDateTime() time.Time {
	t, _ := time.Parse(time.DateOnly, p.PayDate)
	return t
}

// W2 is a year's wage and tax statement, parsed.
type W2 struct {
	DocumentType        string     `json:"document_type"`
	Applicant           W2Employee `json:"applicant"`
	EmployerName        string     `json:"employer_name"`
	TotalWages          int64      `json:"total_wages"`
	StateWages          int64      `json:"state_wages"`
	SocialSecurityWages int64      `json:"social_security_wages"`
	MedicareWages       int64      `json:"medicare_wages"`
	FederalTaxes        int64      `json:"federal_taxes"`
	StateTaxes          int64      `json:"state_taxes"`
	SocialSecurityTaxes int64      `json:"social_security_taxes"`
	MedicareTaxes       int64      `json:"medicare_taxes"`
	TaxYear             string     `json:"tax_year"`
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
		Applicant: W2Employee{Name: who.FullName, SSN: "XXX-XX-" + who.LastFourSSN, Address: who.Address}}
	for _, s := range stubs {
		if s.PayDateTime().Year() != year {
			continue
		}
		w.SocialSecurityWages += s.GrossPayAmount
		w.MedicareWages += s.GrossPayAmount
		w.TotalWages += s.GrossPayAmount - s.TotalDeductions
		for _, t := range s.Taxes {
			switch t.Category {
			case "federal_income":
				w.FederalTaxes += t.Amount
			case "state_income":
				w.StateTaxes += t.Amount
			case "social_security":
				w.SocialSecurityTaxes += t.Amount
			case "medicare":
				w.MedicareTaxes += t.Amount
			}
		}
	}
	w.StateWages = w.TotalWages
	return w
}

package domain

import (
	"encoding/json"
	"time"
)

// The product codec: the spec's JSON for every data product. The store,
// the connector protocol, the upstream and REST all speak this one shape
// (amounts as integer minor units beside the object's currency), so one
// codec reads and writes it; the domain's types hold Money. Stored JSON
// is unchanged by the codec (testdata/people.golden.json in domain/sandbox
// pins it).

// payLineJSON is a pay line as the spec writes it.
type payLineJSON struct {
	Name     string   `json:"name"`
	Category string   `json:"category"`
	Amount   int64    `json:"amount"`
	Hours    *float64 `json:"hours"`
	Rate     *int64   `json:"rate"`
}

// MarshalJSON implements json.Marshaler.
func (l PayLine) MarshalJSON() ([]byte, error) {
	return json.Marshal(payLineJSON{Name: l.Name, Category: l.Category, Amount: l.Amount.Amount, Hours: l.Hours, Rate: amountOf(l.Rate)})
}

// UnmarshalJSON implements json.Unmarshaler. The line's currency is its
// stub's (or shift's), which sets it: see inCurrency.
func (l *PayLine) UnmarshalJSON(b []byte) error {
	var w payLineJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*l = PayLine{Name: w.Name, Category: w.Category, Amount: Money{Amount: w.Amount}, Hours: w.Hours, Rate: moneyOf(w.Rate, "")}
	return nil
}

// linesJSON are pay lines as the spec writes them (plain structs, so a
// stub's encoding runs no marshaler per line).
func linesJSON(lines []PayLine) []payLineJSON {
	if lines == nil {
		return nil
	}
	out := make([]payLineJSON, len(lines))
	for i, l := range lines {
		out[i] = payLineJSON{Name: l.Name, Category: l.Category, Amount: l.Amount.Amount, Hours: l.Hours, Rate: amountOf(l.Rate)}
	}
	return out
}

// linesOf reads pay lines in a currency.
func linesOf(lines []payLineJSON, currency string) []PayLine {
	if lines == nil {
		return nil
	}
	out := make([]PayLine, len(lines))
	for i, l := range lines {
		out[i] = PayLine{Name: l.Name, Category: l.Category, Amount: Money{Amount: l.Amount, Currency: currency}, Hours: l.Hours,
			Rate: moneyOf(l.Rate, currency)}
	}
	return out
}

// inCurrency sets the currency of lines read without one.
func inCurrency(lines []PayLine, currency string) {
	for i := range lines {
		lines[i].Amount.Currency = currency
		if lines[i].Rate != nil {
			lines[i].Rate.Currency = currency
		}
	}
}

func amountOf(m *Money) *int64 {
	if m == nil {
		return nil
	}
	return &m.Amount
}

func moneyOf(amount *int64, currency string) *Money {
	if amount == nil {
		return nil
	}
	return &Money{Amount: *amount, Currency: currency}
}

// paystubHead is what every view of a paystub shows, in the spec's order.
type paystubHead struct {
	ID                  string        `json:"id"`
	AccountID           string        `json:"account_id"`
	PayDate             Date          `json:"pay_date"`
	PayPeriodStart      Date          `json:"pay_period_start"`
	PayPeriodEnd        Date          `json:"pay_period_end"`
	GrossPayAmount      int64         `json:"gross_pay_amount"`
	GrossPayYTD         int64         `json:"gross_pay_ytd"`
	NetPayAmount        int64         `json:"net_pay_amount"`
	NetPayYTD           int64         `json:"net_pay_ytd"`
	CheckAmount         int64         `json:"check_amount"`
	TotalTaxes          int64         `json:"total_taxes"`
	TotalDeductions     int64         `json:"total_deductions"`
	TotalReimbursements int64         `json:"total_reimbursements"`
	Currency            string        `json:"currency"`
	EmployerName        string        `json:"employer_name"`
	ExternalPaystubID   string        `json:"external_paystub_id"`
	Earnings            []payLineJSON `json:"earnings"`
}

// paystubJSON is a stub as stored and as connectors send it: every line.
type paystubJSON struct {
	paystubHead
	Taxes      []payLineJSON `json:"taxes"`
	Deductions []payLineJSON `json:"deductions"`
	CreatedAt  time.Time     `json:"created_at"`
}

// lineItemJSON is a tax or deduction line as the API shows it.
type lineItemJSON struct {
	Name     string `json:"name"`
	Category string `json:"category"`
	Amount   int64  `json:"amount"`
}

// paystubShownJSON is a stub as the API shows it: the API's time format,
// and (REST only) the itemised taxes and deductions and time-off
// balances, as the vendor's schema has them.
type paystubShownJSON struct {
	paystubHead
	CreatedAt  Timestamp       `json:"created_at"`
	Taxes      *[]lineItemJSON `json:"taxes,omitempty"`
	Deductions *[]lineItemJSON `json:"deductions,omitempty"`
	TimeOff    *[]struct{}     `json:"time_off,omitempty"`
}

func (p Paystub) head() paystubHead {
	return paystubHead{ID: p.ID, AccountID: p.AccountID, PayDate: p.PayDate, PayPeriodStart: p.PayPeriodStart,
		PayPeriodEnd: p.PayPeriodEnd, GrossPayAmount: p.GrossPayAmount.Amount, GrossPayYTD: p.GrossPayYTD.Amount,
		NetPayAmount: p.NetPayAmount.Amount, NetPayYTD: p.NetPayYTD.Amount, CheckAmount: p.CheckAmount.Amount,
		TotalTaxes: p.TotalTaxes.Amount, TotalDeductions: p.TotalDeductions.Amount, TotalReimbursements: p.TotalReimbursements.Amount,
		Currency: p.Currency, EmployerName: p.EmployerName, ExternalPaystubID: p.ExternalPaystubID, Earnings: linesJSON(p.Earnings)}
}

// EncodePaystub is a stub's JSON as stored. The store and the protocol
// call it directly: through json.Marshal of a Paystub, the output of its
// MarshalJSON is scanned again.
func EncodePaystub(p Paystub) ([]byte, error) { return json.Marshal(p.wire()) }

// wire is the stub as stored.
func (p Paystub) wire() paystubJSON {
	return paystubJSON{paystubHead: p.head(), Taxes: linesJSON(p.Taxes), Deductions: linesJSON(p.Deductions), CreatedAt: p.CreatedAt}
}

// DecodePaystub reads what EncodePaystub wrote (and what connectors send).
func DecodePaystub(b []byte) (Paystub, error) {
	var w paystubJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return Paystub{}, err
	}
	return w.paystub(), nil
}

// MarshalJSON implements json.Marshaler: the stub as stored.
func (p Paystub) MarshalJSON() ([]byte, error) { return EncodePaystub(p) }

// UnmarshalJSON implements json.Unmarshaler.
func (p *Paystub) UnmarshalJSON(b []byte) error {
	var err error
	*p, err = DecodePaystub(b)
	return err
}

// paystub is the stub the JSON describes, its amounts in its currency.
func (w paystubJSON) paystub() Paystub {
	c := w.Currency
	money := func(amount int64) Money { return Money{Amount: amount, Currency: c} }
	return Paystub{ID: w.ID, AccountID: w.AccountID, PayDate: w.PayDate, PayPeriodStart: w.PayPeriodStart,
		PayPeriodEnd: w.PayPeriodEnd, GrossPayAmount: money(w.GrossPayAmount), GrossPayYTD: money(w.GrossPayYTD),
		NetPayAmount: money(w.NetPayAmount), NetPayYTD: money(w.NetPayYTD), CheckAmount: money(w.CheckAmount),
		TotalTaxes: money(w.TotalTaxes), TotalDeductions: money(w.TotalDeductions), TotalReimbursements: money(w.TotalReimbursements),
		Currency: c, EmployerName: w.EmployerName, ExternalPaystubID: w.ExternalPaystubID,
		Earnings: linesOf(w.Earnings, c), Taxes: linesOf(w.Taxes, c), Deductions: linesOf(w.Deductions, c), CreatedAt: w.CreatedAt}
}

// APIPaystub is a paystub as REST shows it: the spec's fields with the
// itemised taxes and deductions (name, category, amount; they add up to
// the totals) and time-off balances (none read yet).
type APIPaystub struct{ Paystub }

// MarshalJSON implements json.Marshaler.
func (p APIPaystub) MarshalJSON() ([]byte, error) { return json.Marshal(p.Paystub.APIView()) }

// APIView is the stub as REST writes it (APIPaystub's JSON), as a value
// json encodes without a marshaler of its own: REST's lists use it.
func (p Paystub) APIView() any {
	items := func(lines []PayLine) *[]lineItemJSON {
		out := make([]lineItemJSON, len(lines))
		for i, l := range lines {
			out[i] = lineItemJSON{Name: l.Name, Category: l.Category, Amount: l.Amount.Amount}
		}
		return &out
	}
	return paystubShownJSON{paystubHead: p.head(), CreatedAt: Timestamp(p.CreatedAt),
		Taxes: items(p.Taxes), Deductions: items(p.Deductions), TimeOff: &[]struct{}{}}
}

// ReportPaystub is a paystub as a verification report shows it: the
// spec's fields, without the itemised lines the report's totals sum, and
// its earnings in the written VOE's columns (summing to the gross pay)
// with the regular and overtime hours, so a reader can check hours times
// rate against each column.
type ReportPaystub struct{ Paystub }

// reportPaystubJSON is a report's paystub as written.
type reportPaystubJSON struct {
	paystubShownJSON
	EarningsByType EarningsByType `json:"earnings_by_type"`
	RegularHours   *float64       `json:"regular_hours"`
	OvertimeHours  *float64       `json:"overtime_hours"`
}

// MarshalJSON implements json.Marshaler.
func (p ReportPaystub) MarshalJSON() ([]byte, error) {
	e := EarningsOf(p.Paystub)
	return json.Marshal(reportPaystubJSON{paystubShownJSON: paystubShownJSON{paystubHead: p.head(), CreatedAt: Timestamp(p.CreatedAt)},
		EarningsByType: e.ByType, RegularHours: e.RegularHours, OvertimeHours: e.OvertimeHours})
}

// UnmarshalJSON reads what MarshalJSON wrote (a stored report).
func (p *ReportPaystub) UnmarshalJSON(b []byte) error {
	var w paystubShownJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	stored, err := json.Marshal(paystubJSON{paystubHead: w.paystubHead, CreatedAt: time.Time(w.CreatedAt)})
	if err != nil {
		return err
	}
	return p.Paystub.UnmarshalJSON(stored)
}

// incomeJSON is income as the spec writes it.
type incomeJSON struct {
	CompensationAmount int64  `json:"compensation_amount"`
	CompensationUnit   string `json:"compensation_unit"`
	Currency           string `json:"currency"`
	PayFrequency       string `json:"pay_frequency"`
}

// MarshalJSON implements json.Marshaler.
func (i Income) MarshalJSON() ([]byte, error) {
	return json.Marshal(incomeJSON{CompensationAmount: i.CompensationAmount.Amount, CompensationUnit: i.CompensationUnit,
		Currency: i.Currency, PayFrequency: i.PayFrequency})
}

// UnmarshalJSON implements json.Unmarshaler.
func (i *Income) UnmarshalJSON(b []byte) error {
	var w incomeJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*i = Income{CompensationAmount: Money{Amount: w.CompensationAmount, Currency: w.Currency},
		CompensationUnit: w.CompensationUnit, Currency: w.Currency, PayFrequency: w.PayFrequency}
	return nil
}

// allocationJSON is an allocation line as the spec writes it.
type allocationJSON struct {
	AccountName         string   `json:"account_name"`
	AccountType         string   `json:"account_type"`
	AllocationType      string   `json:"allocation_type"`
	Amount              *int64   `json:"amount"`
	Percentage          *float64 `json:"percentage"`
	BankName            *string  `json:"bank_name"`
	Currency            string   `json:"currency"`
	MaskedAccountNumber string   `json:"masked_account_number"`
	Priority            int      `json:"priority"`
	RoutingNumber       string   `json:"routing_number"`
}

// MarshalJSON implements json.Marshaler.
func (a DepositAllocation) MarshalJSON() ([]byte, error) {
	return json.Marshal(allocationJSON{AccountName: a.AccountName, AccountType: a.AccountType, AllocationType: a.AllocationType,
		Amount: amountOf(a.Amount), Percentage: a.Percentage, BankName: a.BankName, Currency: a.Currency,
		MaskedAccountNumber: a.MaskedAccountNumber, Priority: a.Priority, RoutingNumber: a.RoutingNumber})
}

// UnmarshalJSON implements json.Unmarshaler.
func (a *DepositAllocation) UnmarshalJSON(b []byte) error {
	var w allocationJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*a = DepositAllocation{AccountName: w.AccountName, AccountType: w.AccountType, AllocationType: w.AllocationType,
		Amount: moneyOf(w.Amount, w.Currency), Percentage: w.Percentage, BankName: w.BankName, Currency: w.Currency,
		MaskedAccountNumber: w.MaskedAccountNumber, Priority: w.Priority, RoutingNumber: w.RoutingNumber}
	return nil
}

// w2JSON is a W-2's parsed data as the spec writes it (dollars in cents;
// a W-2 is in US dollars). An uploaded W-2's figures not read are null,
// and its boxes are all there.
type w2JSON struct {
	DocumentType        string     `json:"document_type"`
	Applicant           W2Employee `json:"applicant"`
	EmployerName        string     `json:"employer_name"`
	EmployerEIN         string     `json:"employer_ein,omitempty"`
	TotalWages          *int64     `json:"total_wages"`
	StateWages          *int64     `json:"state_wages"`
	SocialSecurityWages *int64     `json:"social_security_wages"`
	MedicareWages       *int64     `json:"medicare_wages"`
	FederalTaxes        *int64     `json:"federal_taxes"`
	StateTaxes          *int64     `json:"state_taxes"`
	SocialSecurityTaxes *int64     `json:"social_security_taxes"`
	MedicareTaxes       *int64     `json:"medicare_taxes"`
	TaxYear             string     `json:"tax_year"`
	Boxes               *W2Boxes   `json:"boxes,omitempty"`
}

// MarshalJSON implements json.Marshaler.
func (w W2) MarshalJSON() ([]byte, error) {
	j := w2JSON{DocumentType: w.DocumentType, Applicant: w.Applicant, EmployerName: w.EmployerName, EmployerEIN: w.EmployerEIN,
		TotalWages: &w.TotalWages.Amount, StateWages: &w.StateWages.Amount, SocialSecurityWages: &w.SocialSecurityWages.Amount,
		MedicareWages: &w.MedicareWages.Amount, FederalTaxes: &w.FederalTaxes.Amount, StateTaxes: &w.StateTaxes.Amount,
		SocialSecurityTaxes: &w.SocialSecurityTaxes.Amount, MedicareTaxes: &w.MedicareTaxes.Amount, TaxYear: w.TaxYear, Boxes: w.Boxes}
	if b := w.Boxes; b != nil {
		j.TotalWages, j.FederalTaxes = b.Box1, b.Box2
		j.SocialSecurityWages, j.SocialSecurityTaxes = b.Box3, b.Box4
		j.MedicareWages, j.MedicareTaxes = b.Box5, b.Box6
		j.StateWages, j.StateTaxes = stateSum(b.States, false), stateSum(b.States, true)
	}
	return json.Marshal(j)
}

// UnmarshalJSON implements json.Unmarshaler.
func (w *W2) UnmarshalJSON(b []byte) error {
	var j w2JSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	v := func(p *int64) Money { return USD(deref(p)) }
	*w = W2{DocumentType: j.DocumentType, Applicant: j.Applicant, EmployerName: j.EmployerName, EmployerEIN: j.EmployerEIN,
		TotalWages: v(j.TotalWages), StateWages: v(j.StateWages), SocialSecurityWages: v(j.SocialSecurityWages),
		MedicareWages: v(j.MedicareWages), FederalTaxes: v(j.FederalTaxes), StateTaxes: v(j.StateTaxes),
		SocialSecurityTaxes: v(j.SocialSecurityTaxes), MedicareTaxes: v(j.MedicareTaxes), TaxYear: j.TaxYear, Boxes: j.Boxes}
	return nil
}

// PaystubsJSON is stubs as the store and the protocol write them: a
// value json encodes without a marshaler per stub.
func PaystubsJSON(ps []Paystub) any {
	out := make([]paystubJSON, len(ps))
	for i, p := range ps {
		out[i] = p.wire()
	}
	return out
}

// DecodePaystubs reads a JSON list of stubs in one pass.
func DecodePaystubs(b []byte) ([]Paystub, error) {
	var ws []paystubJSON
	if err := json.Unmarshal(b, &ws); err != nil {
		return nil, err
	}
	if ws == nil {
		return nil, nil
	}
	out := make([]Paystub, len(ws))
	for i, w := range ws {
		out[i] = w.paystub()
	}
	return out, nil
}

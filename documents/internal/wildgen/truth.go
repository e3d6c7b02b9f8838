package main

import "strings"

// Truth is the JSON beside each document (testdata/documents/blind/TRUTH.md).
type Truth struct {
	Name              string   `json:"name"`
	Layout            string   `json:"layout"`
	MadeBy            string   `json:"made_by"`
	Medium            string   `json:"medium"`
	Kind              string   `json:"kind"`
	Honest            bool     `json:"honest"`
	EncryptedPassword *string  `json:"encrypted_password"`
	Series            *string  `json:"series"`
	Forgery           *Forgery `json:"forgery"`
	Paystubs          []TStub  `json:"paystubs"`
	W2                *TW2     `json:"w2"`
}

type Forgery struct {
	Method   string                       `json:"method"`
	Evidence string                       `json:"evidence"`
	Changed  map[string]map[string]string `json:"changed"`
	Note     string                       `json:"note"`
}

// TEarn keeps hours and rate (null when not printed) on earnings lines only.
type TEarn struct {
	Name   string  `json:"name"`
	Hours  *string `json:"hours"`
	Rate   *string `json:"rate"`
	Amount string  `json:"amount"`
	YTD    *string `json:"ytd"`
}
type TTax struct {
	Name   string  `json:"name"`
	Amount string  `json:"amount"`
	YTD    *string `json:"ytd"`
}
type TDed struct {
	Name   string  `json:"name"`
	Amount string  `json:"amount"`
	YTD    *string `json:"ytd"`
	PreTax bool    `json:"pre_tax"`
}

type TStub struct {
	Page            int      `json:"page"`
	EmployerName    *string  `json:"employer_name"`
	EmployerEIN     *string  `json:"employer_ein"`
	EmployeeName    *string  `json:"employee_name"`
	PayDate         *string  `json:"pay_date"`
	PeriodStart     *string  `json:"period_start"`
	PeriodEnd       *string  `json:"period_end"`
	GrossPay        *string  `json:"gross_pay"`
	NetPay          *string  `json:"net_pay"`
	GrossPayYTD     *string  `json:"gross_pay_ytd"`
	NetPayYTD       *string  `json:"net_pay_ytd"`
	TotalTaxes      string   `json:"total_taxes"`
	TotalDeductions string   `json:"total_deductions"`
	Reimbursements  string   `json:"reimbursements"`
	Earnings        []TEarn  `json:"earnings"`
	Taxes           []TTax   `json:"taxes"`
	Deductions      []TDed   `json:"deductions"`
	Printed         []string `json:"printed"`
}

type TW2 struct {
	TaxYear         string    `json:"tax_year"`
	Copies          int       `json:"copies"`
	EmployeeSSN     *string   `json:"employee_ssn"`
	EmployerEIN     *string   `json:"employer_ein"`
	EmployerName    *string   `json:"employer_name"`
	EmployerAddress *string   `json:"employer_address"`
	ControlNumber   *string   `json:"control_number"`
	EmployeeName    *string   `json:"employee_name"`
	EmployeeAddress *string   `json:"employee_address"`
	Box1            *string   `json:"box1"`
	Box2            *string   `json:"box2"`
	Box3            *string   `json:"box3"`
	Box4            *string   `json:"box4"`
	Box5            *string   `json:"box5"`
	Box6            *string   `json:"box6"`
	Box7            *string   `json:"box7"`
	Box8            *string   `json:"box8"`
	Box10           *string   `json:"box10"`
	Box11           *string   `json:"box11"`
	Box12           []W2Code  `json:"box12"`
	Box13           W2Box13   `json:"box13"`
	Box14           *string   `json:"box14"`
	States          []W2State `json:"states"`
}
type W2Code struct {
	Code   string `json:"code"`
	Amount string `json:"amount"`
}
type W2Box13 struct {
	Statutory      bool `json:"statutory"`
	RetirementPlan bool `json:"retirement_plan"`
	SickPay        bool `json:"sick_pay"`
}
type W2State struct {
	State           string  `json:"state"`
	EmployerStateID string  `json:"employer_state_id"`
	Box16           *string `json:"box16"`
	Box17           *string `json:"box17"`
	Box18           *string `json:"box18"`
	Box19           *string `json:"box19"`
	Box20           *string `json:"box20"`
}

func sp(s string) *string { return &s }

// View says how a layout prints a stub: which header fields, the names of
// its lines, the name of the employee and employer as printed, and how a
// rate is written.
type View struct {
	Printed   []string // of the twelve header fields
	Names     map[string]string
	Employee  string
	Employer  string
	Rate4     bool // rates with four decimals
	LineYTD   bool // lines carry a YTD figure
	NoEIN     bool
	EarnNoYTD bool // earnings lines have no YTD though others do
}

func (v View) name(key string) string {
	if n, ok := v.Names[key]; ok {
		return n
	}
	return defaultNames[key]
}

// hr is a line's hours and rate as the layout prints them: none for a
// line without hours, for a stopped line, or for a salary whose rate has
// more decimals than the layout prints.
func (v View) hr(l Line) (string, string, bool) {
	if !l.Active || l.Hours == 0 || (!v.Rate4 && l.Rate%100 != 0) {
		return "", "", false
	}
	if v.Rate4 {
		return hrs(l.Hours), rate4(l.Rate), true
	}
	return hrs(l.Hours), rate2(l.Rate), true
}

func (v View) printed(f string) bool {
	for _, p := range v.Printed {
		if p == f {
			return true
		}
	}
	return false
}

// visible lines: those with a current amount, and, where the layout
// prints a YTD column, those with only a YTD figure (a line stopped).
func (v View) lines(ls []Line) []Line {
	var out []Line
	for _, l := range ls {
		if l.Active || (v.LineYTD && l.YTD > 0) {
			out = append(out, l)
		}
	}
	return out
}

const allHeader = "employer_name employer_ein employee_name pay_date period_start period_end gross_pay net_pay gross_pay_ytd net_pay_ytd total_taxes total_deductions"

func printedExcept(except ...string) []string {
	var out []string
	for _, f := range strings.Fields(allHeader) {
		keep := true
		for _, e := range except {
			if e == f {
				keep = false
			}
		}
		if keep {
			out = append(out, f)
		}
	}
	return out
}

// truthStub is what a careful person reads from the stub drawn in view v.
func truthStub(s Stub, v View, page int) TStub {
	t := TStub{Page: page, Printed: v.Printed}
	opt := func(f, val string) *string {
		if v.printed(f) {
			return sp(val)
		}
		return nil
	}
	emp := v.Employer
	if emp == "" {
		emp = s.Job.Emp.Name
	}
	ee := v.Employee
	if ee == "" {
		ee = s.Job.P.Full()
	}
	t.EmployerName = opt("employer_name", emp)
	t.EmployerEIN = opt("employer_ein", s.Job.Emp.EIN)
	t.EmployeeName = opt("employee_name", ee)
	t.PayDate = opt("pay_date", ymd(s.PayDate))
	t.PeriodStart = opt("period_start", ymd(s.Start))
	t.PeriodEnd = opt("period_end", ymd(s.End))
	t.GrossPay = opt("gross_pay", plain(s.Gross))
	t.NetPay = opt("net_pay", plain(s.Net))
	t.GrossPayYTD = opt("gross_pay_ytd", plain(s.GrossYTD))
	t.NetPayYTD = opt("net_pay_ytd", plain(s.NetYTD))
	t.TotalTaxes = plain(s.TaxesTotal)
	t.TotalDeductions = plain(s.DedsTotal)
	t.Reimbursements = plain(s.ReimbTotal)
	ytd := func(l Line) *string {
		if v.LineYTD {
			return sp(plain(l.YTD))
		}
		return nil
	}
	t.Earnings, t.Taxes, t.Deductions = []TEarn{}, []TTax{}, []TDed{}
	for _, l := range v.lines(s.Earnings) {
		e := TEarn{Name: v.name(l.Key), Amount: plain(l.Amount), YTD: ytd(l)}
		if v.EarnNoYTD {
			e.YTD = nil
		}
		if h, r, ok := v.hr(l); ok {
			e.Hours, e.Rate = sp(strings.ReplaceAll(h, ",", "")), sp(strings.ReplaceAll(r, ",", ""))
		}
		t.Earnings = append(t.Earnings, e)
	}
	for _, l := range v.lines(s.Taxes) {
		t.Taxes = append(t.Taxes, TTax{Name: v.name(l.Key), Amount: plain(l.Amount), YTD: ytd(l)})
	}
	for _, l := range v.lines(s.Deds) {
		t.Deductions = append(t.Deductions, TDed{Name: v.name(l.Key), Amount: plain(l.Amount), YTD: ytd(l), PreTax: l.PreTax})
	}
	return t
}

package main

import (
	"fmt"
	"strconv"
	"strings"
)

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
	TotalTaxes      *string  `json:"total_taxes"`
	TotalDeductions *string  `json:"total_deductions"`
	Reimbursements  string   `json:"reimbursements"`
	Earnings        []TEarn  `json:"earnings"`
	Taxes           []TTax   `json:"taxes"`
	Deductions      []TDed   `json:"deductions"`
	Printed         []string `json:"printed"`
}

type TChange struct {
	Was   string `json:"was"`
	Shown string `json:"shown"`
}

type TForgery struct {
	Method   string             `json:"method"`
	Evidence string             `json:"evidence"`
	Changed  map[string]TChange `json:"changed"`
	Note     string             `json:"note"`
}

type TW2Code struct {
	Code   string `json:"code"`
	Amount string `json:"amount"`
}

type TW2State struct {
	State          string  `json:"state"`
	EmployerStatID *string `json:"employer_state_id"`
	Box16          *string `json:"box16"`
	Box17          *string `json:"box17"`
	Box18          *string `json:"box18"`
	Box19          *string `json:"box19"`
	Box20          *string `json:"box20"`
}

type TW2Box13 struct {
	Statutory      bool `json:"statutory"`
	RetirementPlan bool `json:"retirement_plan"`
	SickPay        bool `json:"sick_pay"`
}

type TW2 struct {
	TaxYear         string     `json:"tax_year"`
	Copies          int        `json:"copies"`
	EmployeeSSN     string     `json:"employee_ssn"`
	EmployerEIN     string     `json:"employer_ein"`
	EmployerName    string     `json:"employer_name"`
	EmployerAddress string     `json:"employer_address"`
	ControlNumber   *string    `json:"control_number"`
	EmployeeName    string     `json:"employee_name"`
	EmployeeAddress string     `json:"employee_address"`
	Box1            *string    `json:"box1"`
	Box2            *string    `json:"box2"`
	Box3            *string    `json:"box3"`
	Box4            *string    `json:"box4"`
	Box5            *string    `json:"box5"`
	Box6            *string    `json:"box6"`
	Box7            *string    `json:"box7"`
	Box8            *string    `json:"box8"`
	Box10           *string    `json:"box10"`
	Box11           *string    `json:"box11"`
	Box12           []TW2Code  `json:"box12"`
	Box13           TW2Box13   `json:"box13"`
	Box14           *string    `json:"box14"`
	States          []TW2State `json:"states"`
}

type Truth struct {
	Name              string    `json:"name"`
	Layout            string    `json:"layout"`
	MadeBy            string    `json:"made_by"`
	Medium            string    `json:"medium"`
	Kind              string    `json:"kind"`
	Honest            bool      `json:"honest"`
	EncryptedPassword *string   `json:"encrypted_password"`
	Series            *string   `json:"series"`
	Forgery           *TForgery `json:"forgery"`
	Paystubs          []TStub   `json:"paystubs"`
	W2                *TW2      `json:"w2"`
}

func sp(s string) *string { return &s }

func cp(c Cents) *string { return sp(c.plain()) }

// Show says what a layout prints of the header fields and lines.
type Show struct {
	EmployerName, EIN, EmployeeName bool
	PayDate, PeriodStart, PeriodEnd bool
	GrossYTD, NetYTD                bool
	TotalTaxes, TotalDed            bool
	LineYTD                         bool // every earnings/tax/deduction line prints its YTD
	NoGross                         bool // gross is not printed (it is the sum of the earnings lines)
	CurOnly                         bool // lines without a current figure are not printed
	EmployeeNameAs                  string
}

// View is a stub as a layout prints it: the simulated stub with the layout's labels.
type View struct {
	S        *Stub
	Show     Show
	Employer string
	EIN      string
	Employee string
	Rate4    bool // rates printed with four decimals
}

// truthOf builds the truth entry of a printed stub.
func truthOf(v *View, page int) TStub {
	s := v.S
	t := TStub{Page: page, Reimbursements: s.ReimbTot.plain()}
	var printed []string
	set := func(field string, shown bool, val *string, dst **string) {
		if shown {
			*dst = val
			printed = append(printed, field)
		}
	}
	set("employer_name", v.Show.EmployerName, sp(v.Employer), &t.EmployerName)
	set("employer_ein", v.Show.EIN, sp(v.EIN), &t.EmployerEIN)
	set("employee_name", v.Show.EmployeeName, sp(v.Employee), &t.EmployeeName)
	set("pay_date", v.Show.PayDate, sp(iso(s.Pay)), &t.PayDate)
	set("period_start", v.Show.PeriodStart, sp(iso(s.Start)), &t.PeriodStart)
	set("period_end", v.Show.PeriodEnd, sp(iso(s.End)), &t.PeriodEnd)
	set("gross_pay", !v.Show.NoGross, cp(s.Gross), &t.GrossPay)
	if t.GrossPay == nil {
		t.GrossPay = cp(s.Gross)
	}
	set("net_pay", true, cp(s.Net), &t.NetPay)
	set("gross_pay_ytd", v.Show.GrossYTD, cp(s.GrossYTD), &t.GrossPayYTD)
	set("net_pay_ytd", v.Show.NetYTD, cp(s.NetYTD), &t.NetPayYTD)
	set("total_taxes", v.Show.TotalTaxes, cp(s.TaxTot), &t.TotalTaxes)
	set("total_deductions", v.Show.TotalDed, cp(s.DedTot), &t.TotalDeductions)
	// sums of printed lines stand in for totals that are not printed
	if t.TotalTaxes == nil {
		t.TotalTaxes = cp(s.TaxTot)
	}
	if t.TotalDeductions == nil {
		t.TotalDeductions = cp(s.DedTot)
	}
	if t.GrossPayYTD == nil && v.Show.LineYTD {
		t.GrossPayYTD = cp(s.GrossYTD)
	}
	t.Printed = printed
	for _, l := range s.Earn {
		if v.Show.CurOnly && !l.Cur {
			continue
		}
		e := TEarn{Name: l.Name, Amount: l.Amount.plain()}
		if l.HasHours && l.Cur {
			e.Hours = sp(l.Hours.String())
		}
		if l.HasRate && l.Cur {
			e.Rate = sp(rateTruth(l.Rate, v))
		}
		if v.Show.LineYTD {
			e.YTD = cp(l.YTD)
		}
		t.Earnings = append(t.Earnings, e)
	}
	for _, l := range s.Tax {
		x := TTax{Name: l.Name, Amount: l.Amount.plain()}
		if v.Show.LineYTD {
			x.YTD = cp(l.YTD)
		}
		t.Taxes = append(t.Taxes, x)
	}
	for _, l := range s.Ded {
		if v.Show.CurOnly && !l.Cur {
			continue
		}
		x := TDed{Name: l.Name, Amount: l.Amount.plain(), PreTax: l.PreTax()}
		if v.Show.LineYTD {
			x.YTD = cp(l.YTD)
		}
		t.Deductions = append(t.Deductions, x)
	}
	if t.Earnings == nil {
		t.Earnings = []TEarn{}
	}
	if t.Taxes == nil {
		t.Taxes = []TTax{}
	}
	if t.Deductions == nil {
		t.Deductions = []TDed{}
	}
	return t
}

func rateTruth(r Rate, v *View) string {
	if v.Rate4 {
		return r.r4()
	}
	return r.r2()
}

// checkStub verifies that a truth entry adds up (honest stubs only).
func checkStub(name string, t TStub) error {
	p := func(s *string) Cents {
		if s == nil {
			return -1
		}
		return parseC(*s)
	}
	var ge, gy, tx, dd Cents
	ytdAll := true
	for _, e := range t.Earnings {
		ge += parseC(e.Amount)
		if e.YTD == nil {
			ytdAll = false
		} else {
			gy += parseC(*e.YTD)
		}
		if e.Hours != nil && e.Rate != nil {
			h := parseC(*e.Hours)
			r := parseRate(*e.Rate)
			if pay(Hours(h), r) != parseC(e.Amount) {
				return fmt.Errorf("%s: %s %s × %s ≠ %s", name, e.Name, *e.Hours, *e.Rate, e.Amount)
			}
		}
	}
	for _, x := range t.Taxes {
		tx += parseC(x.Amount)
	}
	for _, x := range t.Deductions {
		dd += parseC(x.Amount)
	}
	if ge != p(t.GrossPay) {
		return fmt.Errorf("%s: gross %s ≠ Σ earnings %s", name, *t.GrossPay, ge.plain())
	}
	if tx != p(t.TotalTaxes) || dd != p(t.TotalDeductions) {
		return fmt.Errorf("%s: totals", name)
	}
	if p(t.GrossPay)-tx-dd+parseC(t.Reimbursements) != p(t.NetPay) {
		return fmt.Errorf("%s: net %s ≠ gross − taxes − deductions + reimbursements", name, *t.NetPay)
	}
	if ytdAll && t.GrossPayYTD != nil && gy != p(t.GrossPayYTD) {
		return fmt.Errorf("%s: gross YTD %s ≠ Σ earnings YTD %s", name, *t.GrossPayYTD, gy.plain())
	}
	return nil
}

// checkSeries verifies that consecutive stubs' YTDs grow by exactly the period's figures.
func checkSeries(name string, a, b TStub) error {
	if a.GrossPayYTD != nil && b.GrossPayYTD != nil && *a.PayDate < *b.PayDate && (*a.PayDate)[:4] == (*b.PayDate)[:4] {
		if parseC(*a.GrossPayYTD)+parseC(*b.GrossPay) != parseC(*b.GrossPayYTD) {
			return fmt.Errorf("%s: gross YTD does not follow %s", name, *a.PayDate)
		}
		if a.NetPayYTD != nil && b.NetPayYTD != nil && parseC(*a.NetPayYTD)+parseC(*b.NetPay) != parseC(*b.NetPayYTD) {
			return fmt.Errorf("%s: net YTD does not follow", name)
		}
	}
	return nil
}

func parseC(s string) Cents {
	s = strings.ReplaceAll(s, ",", "")
	parts := strings.SplitN(s, ".", 2)
	w, _ := strconv.ParseInt(parts[0], 10, 64)
	var f int64
	if len(parts) == 2 {
		f, _ = strconv.ParseInt((parts[1] + "00")[:2], 10, 64)
	}
	return Cents(w*100 + f)
}

func parseRate(s string) Rate {
	parts := strings.SplitN(s, ".", 2)
	w, _ := strconv.ParseInt(parts[0], 10, 64)
	var f int64
	if len(parts) == 2 {
		f, _ = strconv.ParseInt((parts[1] + "0000")[:4], 10, 64)
	}
	return Rate(w*10000 + f)
}

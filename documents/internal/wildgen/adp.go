package main

import (
	"fmt"
	"strings"
)

// ADP-style earnings statement (fpdf, Helvetica): labels beside their
// values, four-decimal rates, deductions with a leading minus and an
// asterisk, a stopped deduction with only its YTD, Other Benefits in hours,
// Important Notes, and a deposit advice under a dashed line.
func adpView(s Stub) View {
	return View{
		Printed:  printedExcept("employer_ein", "net_pay_ytd", "total_taxes", "total_deductions"),
		Employee: strings.ToUpper(strings.Join(strings.Fields(s.Job.P.First+" "+s.Job.P.Middle+" "+s.Job.P.Last), " ")),
		Names: map[string]string{"salary": "Regular", "fed": "Federal Income Tax", "ss": "Social Security Tax", "med": "Medicare Tax",
			"sit": s.Job.Emp.State + " State Income Tax", "sdi": "CA SDI Tax", "401k": "401K", "medical": "Medical", "dental": "Dental",
			"vision": "Vision", "loan": "401K Loan", "roth": "Roth 401K"},
		Rate4: true, LineYTD: true,
	}
}

func adpRender(s Stub, v View) []byte {
	j := s.Job
	p := newP("P", "ADP Earnings Statement Service 3.4", s.PayDate)
	df := "01/02/2006"
	// company code grid
	p.font("Helvetica", "", 6.5)
	heads := []string{"CO.", "FILE", "DEPT.", "CLOCK", "NUMBER"}
	vals := []string{j.Emp.Code, j.P.ID[:5], fmt.Sprintf("%06d", 100+int(j.seed%900)), "", fmt.Sprintf("%07d", s.AdviceNo%10000000)}
	for i, h := range heads {
		p.L(36+float64(i)*44, 40, h)
	}
	p.font("Courier", "", 8)
	for i, v := range vals {
		p.L(36+float64(i)*44, 50, v)
	}
	p.font("Helvetica", "", 6.5)
	p.L(36, 62, "Company Code")
	p.L(100, 62, "Loc/Dept")
	p.L(150, 62, "Number")
	p.L(200, 62, "Page")
	p.font("Helvetica", "", 8)
	p.L(36, 71, j.Emp.Code+"/"+strings.ToUpper(j.Emp.Code)+" 28814")
	p.L(100, 71, "01/")
	p.L(150, 71, fmt.Sprintf("%07d", s.AdviceNo%10000000))
	p.L(200, 71, "1 of 1")
	p.font("Helvetica", "B", 9)
	p.L(36, 90, j.Emp.Name)
	p.font("Helvetica", "", 8)
	p.L(36, 100, j.Emp.Street)
	p.L(36, 110, j.Emp.CityLine())

	p.font("Helvetica", "B", 17)
	p.R(576, 48, "Earnings Statement")
	p.font("Helvetica", "", 8)
	for i, r := range [][2]string{{"Period Beginning:", s.Start.Format(df)}, {"Period Ending:", s.End.Format(df)}, {"Pay Date:", s.PayDate.Format(df)}} {
		p.L(420, 66+float64(i)*10, r[0])
		p.L(500, 66+float64(i)*10, r[1])
	}
	p.font("Helvetica", "", 7.5)
	p.L(36, 138, "Taxable Marital Status:  Single")
	p.L(36, 148, "Exemptions/Allowances:")
	p.L(56, 158, "Federal:   Std W/H Table")
	p.L(56, 168, "State:       1")
	p.font("Helvetica", "B", 10)
	p.L(372, 132, v.Employee)
	p.font("Helvetica", "", 9)
	p.L(372, 144, strings.ToUpper(j.P.Street))
	p.L(372, 156, strings.ToUpper(j.P.CityLine()))

	y := 196.0
	p.font("Helvetica", "B", 8.5)
	p.L(36, y, "Earnings")
	p.R(170, y, "rate")
	p.R(215, y, "hours")
	p.R(275, y, "this period")
	p.R(345, y, "year to date")
	p.hline(36, 350, y+3, 0.6)
	y += 13
	p.font("Helvetica", "", 8.5)
	for _, l := range v.lines(s.Earnings) {
		p.L(36, y, v.name(l.Key))
		if h, r, ok := v.hr(l); ok {
			p.R(170, y, r)
			p.R(215, y, h)
		}
		if l.Active {
			p.R(275, y, money(l.Amount))
		}
		p.R(345, y, money(l.YTD))
		y += 11
	}
	p.font("Helvetica", "B", 8.5)
	p.L(56, y+2, "Gross Pay")
	p.Rm("gross_pay", 275, y+2, "$"+money(s.Gross))
	p.Rm("gross_pay_ytd", 345, y+2, money(s.GrossYTD))
	y += 20
	section := func(title string, ls []Line) {
		p.font("Helvetica", "B", 8.5)
		p.L(36, y, title)
		p.R(275, y, "this period")
		p.R(345, y, "year to date")
		p.hline(36, 350, y+3, 0.4)
		y += 13
		p.font("Helvetica", "", 8.5)
		for _, l := range ls {
			p.L(56, y, v.name(l.Key))
			if l.Active {
				a := "-" + money(l.Amount)
				if l.Key == "401k" {
					a += "*"
				}
				p.R(275, y, a)
			}
			p.R(345, y, money(l.YTD))
			y += 11
		}
		y += 6
	}
	section("Statutory Deductions", v.lines(s.Taxes))
	section("Voluntary Deductions", v.lines(s.Deds))
	if rs := v.lines(s.Reimb); len(rs) > 0 {
		p.font("Helvetica", "B", 8.5)
		p.L(36, y, "Other")
		y += 13
		p.font("Helvetica", "", 8.5)
		for _, l := range rs {
			p.L(56, y, v.name(l.Key))
			if l.Active {
				p.R(275, y, money(l.Amount))
			}
			p.R(345, y, money(l.YTD))
			y += 11
		}
		y += 6
	}
	p.font("Helvetica", "B", 9.5)
	p.L(56, y+2, "Net Pay")
	p.Rm("net_pay", 275, y+2, "$"+money(s.Net))
	y += 18
	p.font("Helvetica", "", 8.5)
	p.L(56, y, "Checking 1")
	p.R(275, y, "-"+money(s.Net))
	p.L(56, y+11, "Net Check")
	p.R(275, y+11, "$0.00")
	y += 30
	p.font("Helvetica", "", 6.5)
	p.L(36, y, "* Excluded from federal taxable wages")
	p.L(36, y+9, fmt.Sprintf("Your federal taxable wages this period are $%s", money(s.FedTaxable)))

	// right column
	ry := 196.0
	p.font("Helvetica", "B", 8.5)
	p.L(384, ry, "Other Benefits and")
	p.L(384, ry+10, "Information")
	p.R(500, ry+10, "this period")
	p.R(576, ry+10, "total to date")
	p.hline(384, 576, ry+13, 0.4)
	ry += 24
	p.font("Helvetica", "", 8.5)
	p.L(384, ry, "Totl Hrs Worked")
	p.R(500, ry, hrs(s.HoursTotal))
	p.R(576, ry, hrs(s.HoursYTD))
	ry += 11
	for _, m := range s.Memo {
		if m.Key == "match" && m.Active {
			p.L(384, ry, "401K Match")
			p.R(500, ry, money(m.Amount))
			p.R(576, ry, money(m.YTD))
			ry += 11
		}
	}
	p.L(384, ry, "Vacation Avail")
	p.R(576, ry, hrs(s.Leave[0].End))
	p.L(384, ry+11, "Sick Avail")
	p.R(576, ry+11, hrs(s.Leave[1].End))
	ry += 34
	p.box(384, ry, 192, 70, 0.6)
	p.font("Helvetica", "B", 8.5)
	p.L(390, ry+12, "Important Notes")
	p.font("Helvetica", "", 7.5)
	p.L(390, ry+26, "BASIS OF PAY: "+map[string]string{"salary": "SALARIED", "hourly": "HOURLY"}[j.Kind])
	p.L(390, ry+38, "Direct deposit is made on the pay date.")
	p.L(390, ry+50, "Questions? Contact Payroll at "+j.Emp.Phone)

	// deposit advice
	p.SetDashPattern([]float64{3, 3}, 0)
	p.hline(36, 576, 560, 0.5)
	p.SetDashPattern(nil, 0)
	p.font("Helvetica", "B", 9)
	p.L(36, 590, j.Emp.Name)
	p.font("Helvetica", "", 8)
	p.L(36, 600, j.Emp.Street)
	p.L(36, 610, j.Emp.CityLine())
	p.L(400, 590, "Advice number:")
	p.L(480, 590, fmt.Sprintf("%011d", s.AdviceNo))
	p.L(400, 602, "Pay date:")
	p.L(480, 602, s.PayDate.Format(df))
	p.L(36, 640, "Deposited to the account of")
	p.L(260, 640, "account number")
	p.L(360, 640, "transit ABA")
	p.R(576, 640, "amount")
	p.font("Helvetica", "B", 8.5)
	p.L(36, 652, v.Employee)
	p.font("Helvetica", "", 8.5)
	p.L(260, 652, "xxxxxx"+j.P.SSN4)
	p.L(360, 652, "xxxx xxxx")
	p.R(576, 652, "$"+money(s.Net))
	p.font("Helvetica", "B", 11)
	p.C(306, 700, "NON-NEGOTIABLE")
	p.C(306, 716, "THIS IS NOT A CHECK")
	return p.bytes()
}

package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
)

// ---------- dense mid-market (Paylocity / Paycom / UKG / Dayforce style) ----------

func denseView(s Stub) View {
	st := s.Job.Emp.State
	return View{Printed: printedExcept(), LineYTD: true, Rate4: true,
		Names: map[string]string{"regular": "REG", "overtime": "OT", "salary": "SAL", "bonus": "BONUS", "fed": "FITW", "ss": "SS", "med": "MED",
			"sit": st + " SIT", "sdi": "CA SDI", "401k": "401(k) Pre-Tax", "medical": "Medical Sec125", "dental": "Dental Sec125",
			"vision": "Vision Sec125", "roth": "Roth 401(k)", "life": "Supp Life AT", "loan": "401(k) Loan 1", "expense": "Exp Reimb"}}
}

var denseCodes = map[string]string{"401k": "401K", "medical": "MED", "dental": "DEN", "vision": "VIS", "roth": "ROTH", "life": "SLIFE", "loan": "LN1"}

func trailing(c int64) string { return money(c) + "-" }

func denseRender(s Stub, v View) []byte {
	j := s.Job
	p := newP("P", "Paycenter Document Services", s.PayDate)
	df := "01/02/2006"
	p.font("Helvetica", "B", 10)
	p.L(30, 36, j.Emp.Name)
	p.font("Helvetica", "", 6.5)
	p.L(30, 45, j.Emp.OneLine()+"   Fed ID "+j.Emp.EIN)
	p.font("Helvetica", "B", 7)
	p.R(582, 36, fmt.Sprintf("Check Date %s   Voucher No. %06d", s.PayDate.Format(df), s.AdviceNo%1000000))
	p.font("Helvetica", "", 6.5)
	p.R(582, 45, fmt.Sprintf("Period Start %s   Period End %s   Check Date %s", s.Start.Format(df), s.End.Format(df), s.PayDate.Format(df)))
	p.hline(30, 582, 50, 0.8)
	p.font("Helvetica", "B", 6)
	for i, h := range []string{"FILE", "EMPLOYEE", "SSN", "DEPT", "RATE"} {
		p.L(30+float64([]int{0, 40, 190, 260, 330}[i]), 59, h)
	}
	p.font("Helvetica", "", 7)
	rt := "$" + rate4(j.Rate)
	p.L(30, 68, j.P.ID[:5])
	p.L(70, 68, j.P.Full())
	p.L(220, 68, j.P.SSN())
	p.L(290, 68, strings.ToUpper(j.Dept[:min(4, len(j.Dept))]))
	p.L(360, 68, rt)
	p.L(70, 76, j.P.Street+", "+j.P.CityLine())
	p.hline(30, 582, 81, 0.5)
	colX := []float64{30, 218, 406}
	cw := 176.0
	colHead := func(i int, title string, heads []string, at []float64) {
		x := colX[i]
		p.fill(x, 85, cw, 10, 220, 220, 220)
		p.font("Helvetica", "B", 6.5)
		p.L(x+2, 92.5, title)
		p.font("Helvetica", "B", 5.5)
		for k, h := range heads {
			p.R(x+at[k], 102, h)
		}
	}
	// earnings
	colHead(0, "EARNINGS", []string{"Rate", "Hrs/Units", "Current", "YTD"}, []float64{66, 98, 138, 176})
	y := 112.0
	p.font("Helvetica", "", 6.5)
	var hsum int64
	for _, l := range v.lines(s.Earnings) {
		p.L(colX[0]+2, y, v.name(l.Key))
		if h, r, ok := v.hr(l); ok {
			p.R(colX[0]+66, y, r)
			p.R(colX[0]+98, y, h)
			hsum += l.Hours
		}
		if l.Active {
			p.R(colX[0]+138, y, money(l.Amount))
		}
		p.R(colX[0]+176, y, money(l.YTD))
		y += 8.5
	}
	ey := y
	// taxes
	colHead(1, "TAXES", []string{"Current", "YTD"}, []float64{130, 176})
	y = 112
	p.font("Helvetica", "", 6.5)
	for _, l := range v.lines(s.Taxes) {
		p.L(colX[1]+2, y, v.name(l.Key))
		if l.Active {
			p.R(colX[1]+130, y, trailing(l.Amount))
		}
		p.R(colX[1]+176, y, trailing(l.YTD))
		y += 8.5
	}
	ty := y
	colHead(2, "DEDUCTIONS", []string{"Code", "Current", "YTD"}, []float64{24, 130, 176})
	y = 112
	p.font("Helvetica", "", 6.5)
	for _, l := range v.lines(s.Deds) {
		p.L(colX[2]+2, y, denseCodes[l.Key])
		p.L(colX[2]+30, y, v.name(l.Key))
		if l.Active {
			p.R(colX[2]+130, y, trailing(l.Amount))
		}
		p.R(colX[2]+176, y, trailing(l.YTD))
		y += 8.5
	}
	dy := y
	foot := max(ey, ty, dy) + 2
	// totals rows without a label
	p.font("Helvetica", "B", 6.5)
	p.hline(colX[0]+100, colX[0]+cw, foot-6, 0.4)
	p.Rm("gross_pay", colX[0]+138, foot+2, money(s.Gross))
	p.Rm("gross_pay_ytd", colX[0]+176, foot+2, money(s.GrossYTD))
	p.R(colX[0]+98, foot+2, hrs(hsum))
	p.hline(colX[1]+90, colX[1]+cw, foot-6, 0.4)
	p.R(colX[1]+130, foot+2, trailing(s.TaxesTotal))
	p.R(colX[1]+176, foot+2, trailing(s.TaxesYTD))
	p.hline(colX[2]+90, colX[2]+cw, foot-6, 0.4)
	p.R(colX[2]+130, foot+2, trailing(s.DedsTotal))
	p.R(colX[2]+176, foot+2, trailing(s.DedsYTD))
	y = foot + 18
	// net pay and deposits
	p.fill(colX[0], y, cw, 10, 220, 220, 220)
	p.font("Helvetica", "B", 6.5)
	p.L(colX[0]+2, y+7.5, "NET PAY")
	p.R(colX[0]+138, y+7.5, "Current")
	p.R(colX[0]+176, y+7.5, "YTD")
	p.font("Helvetica", "B", 8)
	p.L(colX[0]+2, y+20, "Net Pay")
	p.Rm("net_pay", colX[0]+138, y+20, money(s.Net))
	p.R(colX[0]+176, y+20, money(s.NetYTD))
	if rs := v.lines(s.Reimb); len(rs) > 0 {
		p.font("Helvetica", "", 6.5)
		p.L(colX[0]+2, y+30, "incl. non-taxable reimb.")
		p.R(colX[0]+138, y+30, money(s.ReimbTotal))
		p.R(colX[0]+176, y+30, money(s.ReimbYTD))
	}
	p.fill(colX[1], y, cw, 10, 220, 220, 220)
	p.font("Helvetica", "B", 6.5)
	p.L(colX[1]+2, y+7.5, "DIRECT DEPOSITS")
	p.R(colX[1]+176, y+7.5, "Amount")
	p.font("Helvetica", "", 6.5)
	save := s.Net / 5
	p.L(colX[1]+2, y+19, "Checking  xxxx"+j.P.SSN4)
	p.R(colX[1]+176, y+19, money(s.Net-save))
	p.L(colX[1]+2, y+27.5, "Savings  xxxx"+fmt.Sprintf("%04d", (int(j.seed)*7)%10000))
	p.R(colX[1]+176, y+27.5, money(save))
	p.fill(colX[2], y, cw, 10, 220, 220, 220)
	p.font("Helvetica", "B", 6.5)
	p.L(colX[2]+2, y+7.5, "LEAVE (HOURS)")
	for k, h := range []string{"Beg", "Earned", "Used", "Avail"} {
		p.R(colX[2]+70+float64(k)*35, y+7.5, h)
	}
	p.font("Helvetica", "", 6.5)
	for i, l := range s.Leave {
		yy := y + 19 + float64(i)*8.5
		p.L(colX[2]+2, yy, l.Name)
		for k, v := range []int64{l.Begin, l.Earned, l.Used, l.End} {
			p.R(colX[2]+70+float64(k)*35, yy, hrs(v))
		}
	}
	p.font("Helvetica", "", 5.5)
	p.L(30, y+52, "Taxable wages: Federal "+money(s.FedTaxable)+"  YTD "+money(s.FedTaxableYTD)+"     Deductions marked Sec125 reduce federal, state and FICA wages.")
	return p.bytes()
}

// ---------- QuickBooks voucher check ----------

func quickbooksView(s Stub) View {
	st := s.Job.Emp.State
	return View{Printed: printedExcept("employer_ein", "total_deductions"), LineYTD: true,
		Names: map[string]string{"regular": "Hourly Rate", "overtime": "Overtime Hourly Rate", "fed": "Federal Withholding", "ss": "Social Security Employee",
			"med": "Medicare Employee", "sit": st + " - Withholding", "sdi": "CA - Disability Employee", "401k": "401(k) Employee", "medical": "Health Ins (pre-tax)",
			"dental": "Dental (pre-tax)", "expense": "Mileage Reimb."}}
}

var ones = []string{"", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven", "Twelve", "Thirteen",
	"Fourteen", "Fifteen", "Sixteen", "Seventeen", "Eighteen", "Nineteen"}
var tens = []string{"", "", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety"}

func words3(n int64) string {
	var w []string
	if n >= 100 {
		w = append(w, ones[n/100], "Hundred")
		n %= 100
	}
	if n >= 20 {
		t := tens[n/10]
		if n%10 > 0 {
			t += "-" + strings.ToLower(ones[n%10])
		}
		w = append(w, t)
	} else if n > 0 {
		w = append(w, ones[n])
	}
	return strings.Join(w, " ")
}

// inWords: 1628.54 is "One thousand six hundred twenty-eight and 54/100".
func inWords(c int64) string {
	d := c / 100
	s := ""
	if d >= 1000 {
		s = words3(d/1000) + " Thousand "
	}
	s += words3(d % 1000)
	s = strings.TrimSpace(s)
	s = strings.ToUpper(s[:1]) + strings.ToLower(s[1:])
	return fmt.Sprintf("%s and %02d/100", s, c%100)
}

func paren(c int64) string { return "(" + money(c) + ")" }

func quickbooksRender(s Stub, v View) []byte {
	j := s.Job
	p := newP("P", "QuickBooks PDF Converter", s.PayDate)
	df := "01/02/2006"
	// the check
	p.font("Helvetica", "B", 10)
	p.L(40, 44, j.Emp.Name)
	p.font("Helvetica", "", 8)
	p.L(40, 54, j.Emp.Street)
	p.L(40, 63, j.Emp.CityLine())
	p.font("Helvetica", "B", 8)
	p.C(306, 44, "Great Lakes Community Bank")
	p.font("Helvetica", "", 7)
	p.C(306, 53, "74-112/719")
	p.font("Helvetica", "B", 10)
	p.R(572, 44, fmt.Sprint(s.CheckNo))
	p.font("Helvetica", "", 9)
	p.L(440, 80, "Date")
	p.L(470, 80, s.PayDate.Format(df))
	p.font("Helvetica", "", 7)
	p.L(40, 106, "PAY TO THE")
	p.L(40, 114, "ORDER OF")
	p.font("Helvetica", "", 10)
	p.L(90, 112, j.P.Full())
	p.hline(88, 470, 116, 0.5)
	p.font("Helvetica", "B", 10)
	p.R(572, 112, "**"+money(s.Net))
	p.font("Helvetica", "", 9)
	p.L(40, 140, inWords(s.Net)+strings.Repeat("*", 30))
	p.hline(38, 500, 144, 0.5)
	p.L(506, 140, "DOLLARS")
	p.font("Helvetica", "", 8)
	p.L(60, 168, j.P.Full())
	p.L(60, 177, j.P.Street)
	p.L(60, 186, j.P.CityLine())
	p.L(40, 212, "MEMO")
	p.L(72, 212, "Pay Period: "+s.Start.Format(df)+" - "+s.End.Format(df))
	p.hline(380, 572, 210, 0.5)
	p.font("Helvetica", "", 6)
	p.L(440, 218, "AUTHORIZED SIGNATURE")
	p.font("Courier", "", 11)
	p.L(150, 244, fmt.Sprintf("C%06dC A071921126A 4471%06dC", s.CheckNo, int(j.seed)%1000000))
	// two copies of the stub
	for copyN, top := range []float64{264, 528} {
		p.SetDashPattern([]float64{2, 2}, 0)
		p.hline(20, 592, top-6, 0.4)
		p.SetDashPattern(nil, 0)
		y := top + 12
		p.font("Helvetica", "B", 9)
		p.L(40, y, j.Emp.Name)
		p.font("Helvetica", "", 7)
		p.L(40, y+9, j.Emp.OneLine())
		p.font("Helvetica", "B", 8)
		p.R(572, y, "Employee Pay Stub")
		p.font("Helvetica", "", 7.5)
		p.R(572, y+10, fmt.Sprintf("Check number: %d   Pay Period: %s - %s   Pay Date: %s", s.CheckNo, s.Start.Format(df), s.End.Format(df), s.PayDate.Format(df)))
		y += 24
		p.font("Helvetica", "B", 6.5)
		for i, h := range []string{"EMPLOYEE", "SSN", "STATUS (FED/STATE)", "ALLOWANCES/EXTRA"} {
			p.L(40+float64([]int{0, 200, 290, 400}[i]), y, h)
		}
		p.hline(40, 572, y+2, 0.4)
		p.font("Helvetica", "", 7.5)
		p.L(40, y+11, j.P.Full())
		p.font("Helvetica", "", 6.5)
		p.L(40, y+19, j.P.Street+", "+j.P.CityLine())
		p.font("Helvetica", "", 7.5)
		p.L(200, y+11, j.P.SSN())
		p.L(290, y+11, "Single/Single")
		p.L(400, y+11, "Fed-0/0/0  "+j.Emp.State+"-1/0")
		y += 30
		// earnings | taxes side by side
		p.font("Helvetica", "B", 6.5)
		p.L(40, y, "EARNINGS AND HOURS")
		p.R(170, y, "QTY")
		p.R(210, y, "RATE")
		p.R(250, y, "CURRENT")
		p.R(300, y, "YTD AMOUNT")
		p.L(320, y, "TAXES")
		p.R(520, y, "CURRENT")
		p.R(572, y, "YTD AMOUNT")
		p.hline(40, 300, y+2, 0.4)
		p.hline(320, 572, y+2, 0.4)
		p.font("Helvetica", "", 7.5)
		ly := y + 11
		for _, l := range v.lines(s.Earnings) {
			p.L(40, ly, v.name(l.Key))
			if h, r, ok := v.hr(l); ok {
				p.R(170, ly, h)
				p.R(210, ly, r)
			}
			p.R(255, ly, money(l.Amount))
			p.R(300, ly, money(l.YTD))
			ly += 9.5
		}
		p.font("Helvetica", "B", 7.5)
		p.L(40, ly, "Gross Pay")
		p.R(255, ly, money(s.Gross))
		p.R(300, ly, money(s.GrossYTD))
		ry := y + 11
		p.font("Helvetica", "", 7.5)
		for _, l := range v.lines(s.Taxes) {
			p.L(320, ry, v.name(l.Key))
			p.R(520, ry, paren(l.Amount))
			p.R(572, ry, paren(l.YTD))
			ry += 9.5
		}
		p.font("Helvetica", "B", 7.5)
		p.L(320, ry, "Total Taxes")
		p.R(520, ry, paren(s.TaxesTotal))
		p.R(572, ry, paren(s.TaxesYTD))
		y = max(ly, ry) + 16
		p.font("Helvetica", "B", 6.5)
		p.L(40, y, "DEDUCTIONS FROM GROSS")
		p.R(255, y, "CURRENT")
		p.R(300, y, "YTD AMOUNT")
		p.L(320, y, "ADJUSTMENTS TO NET PAY")
		p.R(520, y, "CURRENT")
		p.R(572, y, "YTD AMOUNT")
		p.hline(40, 300, y+2, 0.4)
		p.hline(320, 572, y+2, 0.4)
		p.font("Helvetica", "", 7.5)
		ly, ry = y+11, y+11
		for _, l := range v.lines(s.Deds) {
			p.L(40, ly, v.name(l.Key))
			p.R(255, ly, paren(l.Amount))
			p.R(300, ly, paren(l.YTD))
			ly += 9.5
		}
		for _, l := range s.Reimb {
			p.L(320, ry, v.name(l.Key))
			p.R(520, ry, cur(l, money))
			p.R(572, ry, money(l.YTD))
			ry += 9.5
		}
		y = max(ly, ry) + 8
		p.font("Helvetica", "B", 8.5)
		p.L(320, y, "Net Pay")
		key := "net_pay"
		if copyN == 1 {
			key = "net_pay_2"
		}
		p.Rm(key, 520, y, money(s.Net))
		p.R(572, y, money(s.NetYTD))
		p.font("Helvetica", "", 6.5)
		p.L(40, y, fmt.Sprintf("Vacation: %s hrs avail   Sick: %s hrs avail", hrs(s.Leave[0].End), hrs(s.Leave[1].End)))
	}
	return p.bytes()
}

// ---------- landscape ----------

func landscapeView(s Stub) View {
	return View{Printed: printedExcept(), LineYTD: true,
		Names: map[string]string{"fed": "Federal W/H", "ss": "FICA - Soc Sec", "med": "FICA - Medicare", "sit": s.Job.Emp.State + " State W/H", "sdi": "CA SDI",
			"401k": "401(k)", "medical": "Health", "dental": "Dental", "roth": "Roth", "loan": "Loan"}}
}

func landscapeRender(s Stub, v View) []byte {
	j := s.Job
	p := newP("L", "Crystal Reports", s.PayDate)
	df := "01/02/2006"
	p.font("Times", "B", 16)
	p.L(36, 44, j.Emp.Name)
	p.font("Times", "", 10)
	p.L(36, 58, j.Emp.OneLine()+"    EIN "+j.Emp.EIN)
	p.font("Times", "B", 13)
	p.R(756, 44, "STATEMENT OF EARNINGS")
	p.hline(36, 756, 66, 1)
	// employee column
	p.font("Times", "", 10)
	y := 86.0
	for _, r := range [][2]string{{"Employee:", j.P.Full()}, {"Employee No:", j.P.ID}, {"Department:", j.Dept},
		{"Period Begin Date:", s.Start.Format(df)}, {"Period End Date:", s.End.Format(df)}, {"Pay Date:", s.PayDate.Format(df)}, {"Pay Frequency:", titleCase(j.Freq)}} {
		p.font("Times", "B", 10)
		p.L(36, y, r[0])
		p.font("Times", "", 10)
		p.L(130, y, r[1])
		y += 14
	}
	// earnings column
	x := 270.0
	p.font("Times", "B", 10)
	p.L(x, 86, "Earnings")
	p.R(x+120, 86, "Hours")
	p.R(x+165, 86, "Rate")
	p.R(x+220, 86, "Current")
	p.R(x+280, 86, "YTD")
	p.hline(x, x+280, 90, 0.5)
	p.font("Times", "", 10)
	y = 104
	for _, l := range v.lines(s.Earnings) {
		p.L(x, y, v.name(l.Key))
		if h, r, ok := v.hr(l); ok {
			p.R(x+120, y, h)
			p.R(x+165, y, r)
		}
		p.R(x+220, y, "$"+money(l.Amount))
		p.R(x+280, y, "$"+money(l.YTD))
		y += 14
	}
	p.hline(x, x+280, y-9, 0.5)
	p.font("Times", "B", 10)
	p.L(x, y+2, "Gross Pay")
	p.Rm("gross_pay", x+220, y+2, "$"+money(s.Gross))
	p.Rm("gross_pay_ytd", x+280, y+2, "$"+money(s.GrossYTD))
	// taxes beside deductions
	x = 570
	sect := func(title string, ls []Line, y float64, total string, tc, ty int64) float64 {
		p.font("Times", "B", 10)
		p.L(x, y, title)
		p.R(x+130, y, "Current")
		p.R(x+186, y, "YTD")
		p.hline(x, x+186, y+4, 0.5)
		p.font("Times", "", 10)
		y += 18
		for _, l := range ls {
			p.L(x, y, v.name(l.Key))
			p.R(x+130, y, money(l.Amount))
			p.R(x+186, y, money(l.YTD))
			y += 14
		}
		p.font("Times", "B", 10)
		p.L(x, y, total)
		p.R(x+130, y, money(tc))
		p.R(x+186, y, money(ty))
		return y + 24
	}
	y = sect("Taxes", v.lines(s.Taxes), 86, "Total Taxes", s.TaxesTotal, s.TaxesYTD)
	sect("Deductions", v.lines(s.Deds), y, "Total Deductions", s.DedsTotal, s.DedsYTD)
	// net band
	p.fill(36, 470, 720, 46, 235, 235, 235)
	p.font("Times", "B", 11)
	p.L(50, 490, "NET PAY THIS PERIOD")
	p.font("Times", "B", 15)
	p.Rm("net_pay", 330, 491, "$"+money(s.Net))
	p.font("Times", "B", 11)
	p.L(420, 490, "NET PAY YEAR TO DATE")
	p.font("Times", "", 13)
	p.R(740, 491, "$"+money(s.NetYTD))
	p.font("Times", "I", 9)
	p.L(50, 508, fmt.Sprintf("Deposited to checking account ending %s.  Vacation balance %s hours.", j.P.SSN4, hrs(s.Leave[0].End)))
	return p.bytes()
}

// ---------- words run together (a PDF printer that places each word) ----------

func runView(s Stub) View {
	return View{Printed: printedExcept("employer_ein", "total_deductions"), LineYTD: true,
		Names: map[string]string{"fed": "Federal Tax", "ss": "Social Security", "med": "Medicare", "sit": "State Tax", "401k": "401K", "medical": "Medical", "dental": "Dental"}}
}

// W draws words one by one at explicit positions with no space characters,
// the gap a tenth of the font size: what a person sees has narrow spaces,
// what a text extractor reads runs together.
func (p P) W(x, y float64, s string) float64 {
	size, _ := p.GetFontSize()
	for i, w := range strings.Fields(s) {
		if i > 0 {
			x += size * 0.1
		}
		p.Text(x, y, p.tr(w))
		x += p.GetStringWidth(p.tr(w))
	}
	return x
}

func (p P) WR(x, y float64, s string) {
	size, _ := p.GetFontSize()
	w := 0.0
	for i, f := range strings.Fields(s) {
		if i > 0 {
			w += size * 0.1
		}
		w += p.GetStringWidth(p.tr(f))
	}
	p.W(x-w, y, s)
}

func runRender(s Stub, v View) []byte {
	j := s.Job
	p := newP("P", "Microsoft: Print To PDF", s.PayDate)
	df := "01/02/2006"
	p.font("Arial", "B", 13)
	p.W(40, 50, strings.ToUpper(j.Emp.Name))
	p.font("Arial", "", 9)
	p.W(40, 63, j.Emp.OneLine())
	p.font("Arial", "B", 11)
	p.WR(572, 50, "PAY STATEMENT")
	p.font("Arial", "", 9)
	for i, r := range [][2]string{{"Period Beginning:", s.Start.Format(df)}, {"Period Ending:", s.End.Format(df)}, {"Pay Date:", s.PayDate.Format(df)}} {
		p.W(400, 70+float64(i)*12, r[0])
		p.WR(572, 70+float64(i)*12, r[1])
	}
	p.font("Arial", "B", 9)
	p.W(40, 100, "EMPLOYEE NAME:")
	p.font("Arial", "", 9)
	p.W(130, 100, j.P.Full())
	p.W(130, 112, j.P.Street+" "+j.P.CityLine())
	y := 146.0
	p.font("Arial", "B", 9)
	p.W(40, y, "EARNINGS")
	p.WR(300, y, "HOURS")
	p.WR(360, y, "RATE")
	p.WR(460, y, "THIS PERIOD")
	p.WR(572, y, "YEAR TO DATE")
	p.hline(40, 572, y+4, 0.5)
	y += 16
	p.font("Arial", "", 9)
	for _, l := range v.lines(s.Earnings) {
		p.W(40, y, v.name(l.Key))
		if h, r, ok := v.hr(l); ok {
			p.WR(300, y, h)
			p.WR(360, y, r)
		}
		p.WR(460, y, money(l.Amount))
		p.WR(572, y, money(l.YTD))
		y += 12
	}
	p.font("Arial", "B", 9)
	p.W(40, y, "GROSS PAY")
	p.WR(460, y, money(s.Gross))
	p.WR(572, y, money(s.GrossYTD))
	y += 24
	for _, sec := range []struct {
		t  string
		ls []Line
	}{{"TAXES", s.Taxes}, {"DEDUCTIONS", s.Deds}} {
		p.font("Arial", "B", 9)
		p.W(40, y, sec.t)
		p.hline(40, 572, y+4, 0.5)
		y += 16
		p.font("Arial", "", 9)
		for _, l := range v.lines(sec.ls) {
			p.W(40, y, v.name(l.Key))
			p.WR(460, y, "-"+money(l.Amount))
			p.WR(572, y, "-"+money(l.YTD))
			y += 12
		}
		if sec.t == "TAXES" {
			p.font("Arial", "B", 9)
			p.W(40, y, "TOTAL TAXES")
			p.WR(460, y, "-"+money(s.TaxesTotal))
			p.WR(572, y, "-"+money(s.TaxesYTD))
			y += 12
		}
		y += 12
	}
	p.hline(40, 572, y-6, 1)
	p.font("Arial", "B", 11)
	p.W(40, y+8, "NET PAY:")
	p.WR(460, y+8, money(s.Net))
	p.font("Arial", "", 9)
	p.W(40, y+24, "NET PAY YEAR TO DATE:")
	p.WR(572, y+24, money(s.NetYTD))
	p.font("Arial", "", 7.5)
	p.W(40, y+50, "This statement is for your records. Direct deposit to account ending "+j.P.SSN4+".")
	return p.bytes()
}

// ---------- handwritten pay book stub ----------

type paybookOpts struct {
	font   string // handwriting TTF
	dollar bool   // values written with a $
	ytd    bool   // the year-to-date row is filled in
	date   bool   // the check date box is filled in
}

func paybookView(o paybookOpts) func(Stub) View {
	return func(s Stub) View {
		pr := printedExcept("employer_ein", "total_taxes", "total_deductions", "gross_pay_ytd", "net_pay_ytd", "period_start", "pay_date")
		if o.ytd {
			pr = append(pr, "gross_pay_ytd", "net_pay_ytd")
		}
		if o.date {
			pr = append(pr, "pay_date")
		}
		return View{Printed: pr, LineYTD: o.ytd, EarnNoYTD: true, Names: map[string]string{"regular": "Hours", "fed": "Fed. W/H", "ss": "FICA", "med": "Medicare", "sit": "State",
			"medical": "Other"}}
	}
}

func paybookRender(o paybookOpts) func(Stub, View) []byte {
	return func(s Stub, v View) []byte {
		j := s.Job
		r := rand.New(rand.NewPCG(j.seed, uint64(s.N)))
		p := newPSlip("fpdf", s.PayDate)
		ttf, err := os.ReadFile(o.font)
		must(err)
		p.AddUTF8FontFromBytes("hand", "", ttf)
		// the preprinted form: a pale green stub of a pay record book
		p.fill(40, 40, 532, 300, 232, 244, 232)
		p.SetDrawColor(40, 110, 60)
		p.SetTextColor(40, 110, 60)
		p.box(40, 40, 532, 300, 1.2)
		p.font("Times", "B", 11)
		p.C(306, 58, "EMPLOYEE'S STATEMENT OF EARNINGS AND DEDUCTIONS")
		p.font("Helvetica", "", 6)
		p.C(306, 67, "DETACH AND RETAIN THIS STATEMENT FOR YOUR RECORDS          FORM PR-7 (PAYROLL RECORD)")
		lbl := func(x, y, w, h float64, t string) {
			p.box(x, y, w, h, 0.6)
			p.font("Helvetica", "B", 6)
			p.L(x+3, y+7, t)
		}
		lbl(50, 76, 250, 34, "COMPANY")
		lbl(300, 76, 140, 34, "DATE")
		lbl(440, 76, 122, 34, "CHECK NO.")
		lbl(50, 110, 250, 34, "EMPLOYEE")
		lbl(300, 110, 140, 34, "PERIOD ENDING")
		lbl(440, 110, 122, 34, "SOC. SEC. NO.")
		cols := []string{"HOURS", "RATE", "GROSS PAY", "FED. W/H", "FICA", "MEDICARE", "STATE", "OTHER", "NET PAY"}
		cw := 512.0 / float64(len(cols))
		for i, c := range cols {
			x := 50 + float64(i)*cw
			p.box(x, 156, cw, 16, 0.6)
			p.font("Helvetica", "B", 6)
			p.C(x+cw/2, 166, c)
			p.box(x, 172, cw, 34, 0.6)
			p.box(x, 224, cw, 34, 0.6)
		}
		p.font("Helvetica", "B", 6)
		p.L(50, 220, "YEAR TO DATE")
		p.L(50, 280, "REMARKS")
		p.box(50, 284, 512, 44, 0.6)
		// the hand
		p.SetTextColor(25, 45, 140)
		hand := func(x, y float64, size float64, t string) {
			x += r.Float64()*4 - 2
			y += r.Float64()*3 - 1.5
			p.TransformBegin()
			p.TransformRotate(r.Float64()*4-2, x, y)
			p.SetFont("hand", "", size+r.Float64()*1.5)
			p.Text(x, y, t)
			p.TransformEnd()
		}
		m := func(c int64) string {
			if o.dollar {
				return "$" + money(c)
			}
			return money(c)
		}
		hand(60, 103, 15, j.Emp.Name)
		if o.date {
			hand(312, 103, 15, s.PayDate.Format("1/2/06"))
		}
		hand(452, 103, 15, fmt.Sprint(s.CheckNo))
		hand(60, 137, 15, j.P.Full())
		hand(312, 137, 15, s.End.Format("1/2/2006"))
		hand(452, 137, 14, "xxx-xx-"+j.P.SSN4)
		reg := findLine(s.Earnings, "regular")
		state := lineAmt(s.Taxes, "sit")
		vals := []string{hrs(reg.Hours), money(reg.Rate / 100), m(s.Gross), m(lineAmt(s.Taxes, "fed")), m(lineAmt(s.Taxes, "ss")),
			m(lineAmt(s.Taxes, "med")), m(state), m(s.DedsTotal), m(s.Net)}
		for i, t := range vals {
			hand(50+float64(i)*cw+3, 196, 11.5, t)
		}
		if o.ytd {
			yv := []string{"", "", m(s.GrossYTD), m(findLine(s.Taxes, "fed").YTD), m(findLine(s.Taxes, "ss").YTD), m(findLine(s.Taxes, "med").YTD),
				m(findLine(s.Taxes, "sit").YTD), m(s.DedsYTD), m(s.NetYTD)}
			for i, t := range yv {
				if t != "" {
					hand(50+float64(i)*cw+2, 248, 9.5, t)
				}
			}
		}
		hand(60, 312, 13, "Other = health ins.")
		return p.bytes()
	}
}

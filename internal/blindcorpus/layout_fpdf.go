package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// A landscape stub drawn with fpdf: panels side by side, a summary band at the foot.
func layoutLandscape(s0 *Stub, r *rand.Rand) ([]byte, *View) {
	j := s0.Job
	tstyle := pick(r, "short", "adp")
	s := relabel(s0, func(cat string, l Line) string {
		if cat == "tax" {
			return taxName(tstyle, l)
		}
		return ""
	})
	ds := pick(r, "dmony", "iso", "mdy")
	nf := NumFmt{Commas: true}
	emp := j.P.Full()
	v := &View{S: s, Employer: j.Co.Name, Employee: emp, EIN: j.Co.EIN,
		Show: Show{EmployerName: true, EIN: true, EmployeeName: true, PayDate: true, PeriodStart: true, PeriodEnd: true,
			GrossYTD: true, NetYTD: true, TotalTaxes: true, TotalDed: true, LineYTD: true}}
	p := newP("L", s.Pay.Add(-time.Duration(between(r, 20, 60))*time.Hour), "Earnings Statement")
	fam := pick(r, "Helvetica", "Times", "Helvetica")
	p.AddPage()
	W := 792.0
	p.fillGray(230)
	p.Rect(30, 30, W-60, 44, "F")
	p.font(fam, "B", 15)
	p.T(40, 50, j.Co.Name)
	p.font(fam, "", 8.5)
	p.T(40, 64, fmt.Sprintf("%s, %s   FEIN %s", j.Co.Addr1, j.Co.CityLine(), j.Co.EIN))
	p.font(fam, "B", 13)
	p.R(W-40, 50, "EARNINGS STATEMENT")
	p.font(fam, "", 8.5)
	p.R(W-40, 64, fmt.Sprintf("Check Date %s    Period %s to %s", dfmt(s.Pay, ds), dfmt(s.Start, ds), dfmt(s.End, ds)))
	// left panel: employee
	y := 96.0
	p.font(fam, "B", 8)
	p.T(40, y, "EMPLOYEE")
	p.Line(40, y+3, 210, y+3)
	p.font(fam, "", 8.5)
	for _, l := range []string{emp, j.P.Addr1, j.P.CityLine(), "", "Employee No. " + j.EmpID, "Dept " + j.Dept, "SSN XXX-XX-" + j.P.SSN4,
		"Fed Status " + map[bool]string{true: "MFJ", false: "Single"}[j.P.Married], "Pay Frequency " + map[int]string{52: "Weekly", 26: "Biweekly", 24: "Semi-Monthly", 12: "Monthly"}[j.Freq]} {
		y += 11
		p.T(40, y, l)
	}
	if len(s.Leave) > 0 {
		y += 20
		p.font(fam, "B", 8)
		p.T(40, y, "TIME OFF (HRS)")
		p.R(160, y, "USED")
		p.R(210, y, "AVAIL")
		p.Line(40, y+3, 210, y+3)
		p.font(fam, "", 8.5)
		for _, lv := range s.Leave {
			y += 11
			p.T(40, y, lv.Name)
			p.R(160, y, lv.Used.String())
			p.R(210, y, lv.End.String())
		}
	}
	// middle: earnings
	table := func(x0, x1 float64, y float64, title string, heads []string, xs []float64, rows [][]string, total []string) float64 {
		p.font(fam, "B", 8)
		p.T(x0, y, title)
		for i, h := range heads {
			p.R(xs[i], y, h)
		}
		p.Line(x0, y+3, x1, y+3)
		p.font(fam, "", 8.5)
		for _, row := range rows {
			y += 11
			p.T(x0, y, row[0])
			for i, c := range row[1:] {
				p.R(xs[i], y, c)
			}
		}
		if total != nil {
			y += 13
			p.Line(x0, y-9, x1, y-9)
			p.font(fam, "B", 8.5)
			p.T(x0, y, total[0])
			for i, c := range total[1:] {
				if c != "" {
					p.R(xs[i], y, c)
				}
			}
		}
		return y
	}
	var rows [][]string
	for _, l := range s.Earn {
		hrs, rate := "", ""
		if l.Cur && l.HasHours {
			hrs = l.Hours.String()
		}
		if l.Cur && l.HasRate {
			rate = l.Rate.r2()
		}
		rows = append(rows, []string{l.Name, hrs, rate, curOr(l, nf.pos(l.Amount), ""), nf.pos(l.YTD)})
	}
	table(230, 490, 96, "EARNINGS", []string{"HOURS", "RATE", "CURRENT", "YTD"}, []float64{330, 380, 435, 490}, rows,
		[]string{"Gross Pay", s.HoursTot.String(), "", nf.pos(s.Gross), nf.pos(s.GrossYTD)})
	// right: taxes and deductions
	rows = nil
	for _, l := range s.Tax {
		rows = append(rows, []string{l.Name, nf.pos(l.Amount), nf.pos(l.YTD)})
	}
	y = table(510, W-40, 96, "TAXES", []string{"CURRENT", "YTD"}, []float64{690, W - 40}, rows, []string{"Total Taxes", nf.pos(s.TaxTot), nf.pos(s.TaxYTD)})
	rows = nil
	for _, l := range s.Ded {
		n := l.Name
		if l.PreTax() {
			n += " (pre-tax)"
		}
		rows = append(rows, []string{n, curOr(l, nf.pos(l.Amount), ""), nf.pos(l.YTD)})
	}
	table(510, W-40, y+22, "DEDUCTIONS", []string{"CURRENT", "YTD"}, []float64{690, W - 40}, rows, []string{"Total Deductions", nf.pos(s.DedTot), nf.pos(s.DedYTD)})
	// summary band
	by := 470.0
	p.drawGray(0)
	p.SetLineWidth(1)
	p.Rect(30, by, W-60, 50, "D")
	cols := []string{"GROSS PAY", "TAXES", "DEDUCTIONS", "NET PAY"}
	cur := []Cents{s.Gross, s.TaxTot, s.DedTot, s.Net}
	ytd := []Cents{s.GrossYTD, s.TaxYTD, s.DedYTD, s.NetYTD}
	p.font(fam, "", 7.5)
	p.T(40, by+28, "CURRENT")
	p.T(40, by+42, "YEAR TO DATE")
	for i, c := range cols {
		x := 250 + float64(i)*130
		p.font(fam, "B", 8)
		p.R(x, by+14, c)
		p.font(fam, "", 9)
		p.R(x, by+42, nf.pos(ytd[i]))
		if i == 3 {
			p.font(fam, "B", 11)
		}
		p.R(x, by+28, nf.pos(cur[i]))
	}
	p.font(fam, "", 7.5)
	dep := s.Deposits
	yy := by + 66
	for _, d := range dep {
		p.T(40, yy, fmt.Sprintf("Direct deposit  %s %s %s   %s", d.Bank, d.Type, d.Acct, nf.pos(d.Amount)))
		yy += 10
	}
	p.R(W-40, by+66, "NON-NEGOTIABLE - THIS IS NOT A CHECK")
	return p.bytes(), v
}

// words draws text word by word at explicit positions with no space characters, the way some
// PDF printer drivers emit text; gap is the space between words in ems.
func (p *P) words(x, y float64, s string, gap float64) float64 {
	fs, _ := p.GetFontSize()
	sp := fs * gap
	ws := strings.Fields(s)
	for i, w := range ws {
		if i > 0 {
			x += sp
		}
		p.T(x, y, w)
		x += p.GetStringWidth(p.enc(w))
	}
	return x
}

func pdfEsc(s string) string {
	return strings.NewReplacer("\\", "\\\\", "(", "\\(", ")", "\\)").Replace(s)
}

func (p *P) wordsR(x, y float64, s string, gap float64) {
	fs, _ := p.GetFontSize()
	sp := fs * gap
	w := 0.0
	for i, f := range strings.Fields(s) {
		if i > 0 {
			w += sp
		}
		w += p.GetStringWidth(p.enc(f))
	}
	p.words(x-w, y, s, gap)
}

// A stub printed through a PDF printer driver that places every word separately with no
// space characters (text extraction runs the words together).
func layoutRunOn(s0 *Stub, r *rand.Rand, tight bool) ([]byte, *View) {
	j := s0.Job
	s := relabel(s0, func(cat string, l Line) string {
		if cat == "tax" {
			return taxName("long", l)
		}
		return ""
	})
	ds := pick(r, "mdy", "mdY")
	nf := NumFmt{Commas: true, Neg: "lead"}
	emp := j.P.Full()
	v := &View{S: s, Employer: j.Co.Name, Employee: emp,
		Show: Show{EmployerName: true, EmployeeName: true, PayDate: true, PeriodStart: true, PeriodEnd: true,
			GrossYTD: true, NetYTD: true, TotalTaxes: true, TotalDed: true, LineYTD: true}}
	p := newP("P", s.Pay.Add(-time.Duration(between(r, 2, 30))*time.Hour), "PAYSTUB")
	p.SetCreator("Microsoft Print To PDF", true)
	fam := pick(r, "Helvetica", "Times", "Courier")
	if tight {
		fam = pick(r, "Helvetica", "Times", "Helvetica")
	}
	gap := fbetween(r, 0.24, 0.3)
	if tight {
		gap = 0.085
	}
	p.AddPage()
	sz := 9.0
	if fam == "Courier" {
		sz = 8.5
	}
	W := 612.0
	p.font(fam, "B", 13)
	p.words(40, 50, j.Co.Name, gap)
	p.font(fam, "", sz)
	p.words(40, 63, j.Co.Addr1, gap)
	p.words(40, 74, j.Co.CityLine(), gap)
	p.font(fam, "B", 12)
	p.wordsR(W-40, 50, "PAYROLL STATEMENT", gap)
	p.font(fam, "", sz)
	lab := []string{"Period Beginning:", "Period Ending:", "Pay Date:", "Check No:"}
	val := []string{dfmt(s.Start, ds), dfmt(s.End, ds), dfmt(s.Pay, ds), fmt.Sprint(s.CheckNo)}
	for i := range lab {
		y := 64 + float64(i)*11
		p.wordsR(W-120, y, lab[i], gap)
		p.wordsR(W-40, y, val[i], gap)
	}
	p.font(fam, "B", sz+1)
	p.words(40, 120, "Employee:", gap)
	p.font(fam, "", sz+1)
	p.words(100, 120, emp, gap)
	p.font(fam, "", sz)
	p.words(100, 132, j.P.Addr1+", "+j.P.CityLine(), gap)
	p.words(360, 120, "Employee ID: "+j.EmpID, gap)
	p.words(360, 132, "Filing Status: "+map[bool]string{true: "Married", false: "Single"}[j.P.Married], gap)
	y := 160.0
	section := func(title string, heads []string, xs []float64, rows [][]string) {
		p.font(fam, "B", sz)
		p.words(40, y, title, gap)
		for i, h := range heads {
			p.wordsR(xs[i], y, h, gap)
		}
		p.Line(40, y+3, W-40, y+3)
		p.font(fam, "", sz)
		for _, row := range rows {
			y += 12
			bold := strings.HasPrefix(row[0], "!")
			if bold {
				p.font(fam, "B", sz)
				row[0] = row[0][1:]
			}
			p.words(40, y, row[0], gap)
			for i, c := range row[1:] {
				p.wordsR(xs[i], y, c, gap)
			}
			if bold {
				p.font(fam, "", sz)
			}
		}
		y += 22
	}
	var rows [][]string
	for _, l := range s.Earn {
		hrs, rate := "", ""
		if l.Cur && l.HasHours {
			hrs = l.Hours.String()
		}
		if l.Cur && l.HasRate {
			rate = l.Rate.r2()
		}
		rows = append(rows, []string{l.Name, hrs, rate, curOr(l, nf.pos(l.Amount), "0.00"), nf.pos(l.YTD)})
	}
	rows = append(rows, []string{"!Gross Pay", "", "", nf.pos(s.Gross), nf.pos(s.GrossYTD)})
	section("Earnings", []string{"Hours", "Rate", "Current", "Year To Date"}, []float64{300, 370, 460, W - 40}, rows)
	rows = nil
	for _, l := range s.Tax {
		rows = append(rows, []string{l.Name, nf.neg(l.Amount), nf.pos(l.YTD)})
	}
	rows = append(rows, []string{"!Total Taxes", nf.neg(s.TaxTot), nf.pos(s.TaxYTD)})
	section("Taxes", []string{"Current", "Year To Date"}, []float64{460, W - 40}, rows)
	rows = nil
	for _, l := range s.Ded {
		rows = append(rows, []string{l.Name, curOr(l, nf.neg(l.Amount), "0.00"), nf.pos(l.YTD)})
	}
	rows = append(rows, []string{"!Total Deductions", nf.neg(s.DedTot), nf.pos(s.DedYTD)})
	section("Deductions", []string{"Current", "Year To Date"}, []float64{460, W - 40}, rows)
	p.SetLineWidth(1.2)
	p.Rect(300, y-4, W-340, 40, "D")
	p.font(fam, "B", 12)
	p.words(310, y+14, "NET PAY:", gap)
	p.wordsR(W-50, y+14, NumFmt{Commas: true, Dollar: true}.pos(s.Net), gap)
	p.font(fam, "", sz)
	p.words(310, y+28, "Net Pay Year To Date:", gap)
	p.wordsR(W-50, y+28, nf.pos(s.NetYTD), gap)
	return p.bytes(), v
}

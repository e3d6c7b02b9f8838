package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

func sentenceWords(c Cents) string {
	w := amountWords(c)
	return w[:1] + strings.ToLower(w[1:])
}

// QuickBooks-style voucher check: the check on top, two copies of one stub below.
func layoutQuickBooks(s0 *Stub, r *rand.Rand) ([]byte, *View) {
	j := s0.Job
	s := relabel(s0, func(cat string, l Line) string {
		if cat == "tax" {
			switch {
			case l.Code == "FIT":
				return "Federal Withholding"
			case l.Code == "SS":
				return "Social Security Employee"
			case l.Code == "MED":
				return "Medicare Employee"
			case strings.HasPrefix(l.Code, "SIT_"):
				return l.Code[4:] + " - Withholding"
			default:
				if n := taxName("short", l); n != "" {
					return strings.Replace(n, " ", " - ", 1) + " Employee"
				}
			}
		}
		if cat == "earn" {
			switch l.Code {
			case "REG":
				return pick(r, "Hourly Rate", "Hourly wage", "Regular Pay")
			case "OT":
				return "Overtime Rate"
			case "HOL":
				return "Holiday Pay"
			case "VAC":
				return "Vacation Pay"
			case "SICK":
				return "Sick Pay"
			}
		}
		return ""
	})
	ds := pick(r, "mdy", "mdy", "mdY")
	nf := NumFmt{Commas: true, Neg: "lead"}
	emp := j.P.Plain()
	v := &View{S: s, Employer: j.Co.Name, Employee: emp,
		Show: Show{EmployerName: true, EmployeeName: true, PayDate: true, PeriodStart: true, PeriodEnd: true,
			NetYTD: true, LineYTD: true, NoGross: true}}
	p := newP("P", s.Pay.Add(time.Duration(between(r, 9, 16))*time.Hour), "Paycheck")
	body := pick(r, "Helvetica", "Arial", "Times")
	if body == "Arial" {
		body = "Helvetica"
	}
	p.AddPage()
	// the check
	p.font(body, "B", 11)
	p.T(36, 44, j.Co.Name)
	p.font(body, "", 9)
	p.T(36, 56, j.Co.Addr1)
	p.T(36, 67, j.Co.CityLine())
	p.font(body, "B", 9)
	p.C(330, 44, j.Co.Bank)
	p.font(body, "", 7.5)
	p.C(330, 54, j.Co.City+", "+j.Co.State)
	p.font("Helvetica", "B", 12)
	p.R(576, 44, fmt.Sprint(s.CheckNo))
	p.font(body, "", 9)
	p.T(440, 96, "DATE")
	p.font("Courier", "", 10)
	p.T(480, 96, dfmt(s.Pay, ds))
	p.font(body, "", 7)
	p.T(36, 126, "PAY TO THE")
	p.T(36, 134, "ORDER OF")
	p.font("Courier", "", 10)
	p.T(90, 133, emp)
	p.Line(86, 136, 470, 136)
	p.Rect(482, 120, 94, 20, "D")
	p.T(490, 134, "**"+NumFmt{Commas: true}.pos(s.Net))
	words := sentenceWords(s.Net)
	p.T(36, 162, words+strings.Repeat("*", max(0, 62-len(words))))
	p.Line(36, 165, 520, 165)
	p.font(body, "", 8)
	p.T(526, 163, "DOLLARS")
	p.font("Courier", "", 9)
	p.T(60, 184, emp)
	p.T(60, 195, j.P.Addr1)
	p.T(60, 206, j.P.CityLine())
	p.font(body, "", 7)
	p.T(36, 236, "MEMO")
	p.Line(60, 238, 260, 238)
	p.Line(360, 232, 576, 232)
	p.T(430, 240, "AUTHORIZED SIGNATURE")
	p.font("Courier", "", 11)
	p.T(150, 258, fmt.Sprintf("\"%06d\" :%09d: %010d\"", s.CheckNo, between(r, 11000000, 329999999), between(r, 1000000000, 2099999999)))

	stub := func(y0 float64) {
		p.drawGray(0)
		p.SetDashPattern([]float64{3, 2}, 0)
		p.Line(18, y0, 594, y0)
		p.SetDashPattern([]float64{}, 0)
		p.font(body, "B", 9)
		p.T(36, y0+20, j.Co.Name)
		p.R(576, y0+20, "Employee Pay Stub")
		p.font(body, "", 8)
		p.T(36, y0+33, fmt.Sprintf("Check number: %d     Pay Period: %s - %s     Pay Date: %s", s.CheckNo, dfmt(s.Start, ds), dfmt(s.End, ds), dfmt(s.Pay, ds)))
		hy := y0 + 48
		p.font(body, "B", 6.5)
		p.T(36, hy, "EMPLOYEE")
		p.T(300, hy, "SSN")
		p.T(360, hy, "STATUS (FED/STATE)")
		p.T(470, hy, "ALLOWANCES/EXTRA")
		p.Line(36, hy+2, 576, hy+2)
		p.font(body, "", 7.5)
		p.T(36, hy+12, fmt.Sprintf("%s, %s, %s", emp, j.P.Addr1, j.P.CityLine()))
		p.T(300, hy+12, "***-**-"+j.P.SSN4)
		st := map[bool]string{true: "Married", false: "Single"}[j.P.Married]
		p.T(360, hy+12, st+"/"+st)
		p.T(470, hy+12, fmt.Sprintf("Fed-0/0/%s-%d/0", j.States[0].State, between(r, 0, 2)))
		// left: earnings and deductions
		y := hy + 30
		head := func(x float64, cols []string, xs []float64) {
			p.font(body, "B", 6.5)
			p.T(x, y, cols[0])
			for i, c := range cols[1:] {
				p.R(xs[i], y, c)
			}
			p.Line(x, y+2, xs[len(xs)-1], y+2)
			y += 11
			p.font(body, "", 7.5)
		}
		xsE := []float64{168, 204, 248, 306}
		head(36, []string{"EARNINGS AND HOURS", "QTY", "RATE", "CURRENT", "YTD AMOUNT"}, xsE)
		for _, l := range s.Earn {
			p.T(36, y, l.Name)
			if l.Cur {
				if l.HasHours {
					p.R(xsE[0], y, l.Hours.String())
				}
				if l.HasRate {
					p.R(xsE[1], y, l.Rate.r2())
				}
				p.R(xsE[2], y, nf.pos(l.Amount))
			}
			p.R(xsE[3], y, nf.pos(l.YTD))
			y += 9.5
		}
		if len(s.Ded) > 0 {
			y += 5
			head(36, []string{"DEDUCTIONS FROM GROSS PAY", "", "", "CURRENT", "YTD AMOUNT"}, xsE)
			for _, l := range s.Ded {
				p.T(36, y, l.Name)
				if l.Cur {
					p.R(xsE[2], y, nf.neg(l.Amount))
				}
				p.R(xsE[3], y, nf.neg(l.YTD))
				y += 9.5
			}
		}
		ly := y
		// right: taxes, adjustments, net
		y = hy + 30
		xsT := []float64{510, 576}
		head(330, []string{"TAXES", "CURRENT", "YTD AMOUNT"}, xsT)
		for _, l := range s.Tax {
			p.T(330, y, l.Name)
			p.R(xsT[0], y, nf.neg(l.Amount))
			p.R(xsT[1], y, nf.neg(l.YTD))
			y += 9.5
		}
		if len(s.Reimb) > 0 {
			y += 5
			head(330, []string{"ADJUSTMENTS TO NET PAY", "CURRENT", "YTD AMOUNT"}, xsT)
			for _, l := range s.Reimb {
				p.T(330, y, l.Name)
				p.R(xsT[0], y, curOr(l, nf.pos(l.Amount), ""))
				p.R(xsT[1], y, nf.pos(l.YTD))
				y += 9.5
			}
		}
		y = max(y, ly) + 8
		p.font(body, "B", 8.5)
		p.T(330, y, "Net Pay")
		p.R(xsT[0], y, nf.pos(s.Net))
		p.R(xsT[1], y, nf.pos(s.NetYTD))
		if len(s.Leave) > 0 {
			p.font(body, "", 7)
			x := 36.0
			for _, lv := range s.Leave {
				p.T(x, y, fmt.Sprintf("%s Available: %s", lv.Name, lv.End))
				x += 120
			}
		}
	}
	stub(264)
	stub(528)
	return p.bytes(), v
}

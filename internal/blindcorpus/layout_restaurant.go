package main

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// tippedEarnings: several short shifts at the tipped minimum wage; reported cash tips and
// credit card tips are wages; the cash tips are taken back as a deduction.
func tippedEarnings(c *Ctx) []EarnIn {
	n := between(c.R, 3, 6)
	var h Hours
	var cash, cc Cents
	for i := 0; i < n; i++ {
		h += Hours(between(c.R, 14, 28) * 25)
		cash += Cents(between(c.R, 800, 7500))
		cc += Cents(between(c.R, 4000, 16000))
	}
	out := []EarnIn{{Code: "REG", Name: "Tipped Hourly", Hours: h, Rate: c.Job.Rate, HasHours: true, HasRate: true, Amount: pay(h, c.Job.Rate)}}
	out = append(out, EarnIn{Code: "CASHTIP", Name: "Cash Tips", Amount: cash, Tips: true, Offset: "CASHREC", OffsetName: "Cash Tips Received"})
	out = append(out, EarnIn{Code: "CCTIP", Name: "Credit Card Tips", Amount: cc, Tips: true})
	return out
}

// splitShifts spreads a stub's hours and tips over shifts for the shift detail table.
func splitShifts(s *Stub, r *rand.Rand) [][5]string {
	var h Hours
	var cash, cc Cents
	for _, l := range s.Earn {
		switch l.Code {
		case "REG":
			h = l.Hours
		case "CASHTIP":
			cash = l.Amount
		case "CCTIP":
			cc = l.Amount
		}
	}
	n := between(r, 3, 6)
	if Hours(n)*350 > h {
		n = max(1, int(h/350))
	}
	var out [][5]string
	days := r.Perm(7)[:n]
	for i := range days {
		for k := i + 1; k < len(days); k++ {
			if days[k] < days[i] {
				days[i], days[k] = days[k], days[i]
			}
		}
	}
	var sh, scash, scc Cents
	for i, d := range days {
		var hh Hours
		var c1, c2 Cents
		if i == n-1 {
			hh, c1, c2 = h-Hours(sh), cash-scash, cc-scc
		} else {
			hh = Hours(int(h) / n / 25 * 25)
			c1 = cash / Cents(n)
			c2 = cc / Cents(n)
			c1 += Cents(between(r, -300, 300))
			c2 += Cents(between(r, -700, 700))
		}
		sh += Cents(hh)
		scash += c1
		scc += c2
		day := s.Start.AddDate(0, 0, d)
		in := between(r, 10, 17)
		mins := int(hh) * 60 / 100
		t0 := time.Date(2000, 1, 1, in, pick(r, 0, 30, 45), 0, 0, time.UTC)
		t1 := t0.Add(time.Duration(mins) * time.Minute)
		out = append(out, [5]string{day.Format("Mon 01/02"), t0.Format("3:04p") + " - " + t1.Format("3:04p"), hh.String(), NumFmt{Commas: true}.pos(c1), NumFmt{Commas: true}.pos(c2)})
	}
	return out
}

// A restaurant stub: shifts, tipped wage, cash and credit card tips, the cash taken back.
func layoutRestaurant(s0 *Stub, r *rand.Rand) (string, *View) {
	j := s0.Job
	tstyle := pick(r, "short", "long")
	s := relabel(s0, func(cat string, l Line) string {
		if cat == "tax" {
			return taxName(tstyle, l)
		}
		if cat == "earn" && l.Code == "REG" {
			return pick(r, "Server Hourly", "Tipped Hourly", "Server")
		}
		if cat == "earn" && l.Code == "CCTIP" {
			return pick(r, "Credit Card Tips", "Charged Tips", "CC Tips")
		}
		return ""
	})
	font := pick(r, "'DejaVu Sans'", "'Liberation Sans'", "'Lato'", "'URW Gothic'")
	size := pick(r, 8.5, 9.0)
	ds := pick(r, "mdy", "mdyy", "iso")
	nf := NumFmt{Commas: true, Neg: pick(r, "paren", "lead", "")}
	emp := j.P.Full()
	v := &View{S: s, Employer: j.Co.Name, Employee: emp,
		Show: Show{EmployerName: true, EmployeeName: true, PayDate: true, PeriodStart: true, PeriodEnd: true,
			GrossYTD: true, NetYTD: true, TotalTaxes: true, TotalDed: true, LineYTD: true}}
	var h H
	h.f(`<div class="hd"><div><div class="co">%s</div>%s<br>%s &middot; %s</div><div class="ttl">EARNINGS STATEMENT<div class="sub">Pay Date %s<br>Pay Period %s to %s</div></div></div>`,
		esc(j.Co.Name), esc(j.Co.Addr1), esc(j.Co.CityLine()), j.Co.Phone, dfmt(s.Pay, ds), dfmt(s.Start, ds), dfmt(s.End, ds))
	h.f(`<div class="emp"><b>%s</b> &nbsp; Emp #%s &nbsp; Job: %s &nbsp; %s</div>`, esc(emp), j.EmpID, pick(r, "Server", "Bartender", "Server/Bartender"), esc(j.P.Addr1+", "+j.P.CityLine()))
	var rows [][]string
	var th Hours
	for _, sh := range splitShifts(s, r) {
		rows = append(rows, []string{sh[0], sh[1], sh[2], sh[3], sh[4]})
		var x Hours
		fmt.Sscanf(sh[2], "%d", &x)
	}
	_ = th
	h.f(`<h4>Shift Detail</h4>`)
	h.s(tbl("t", []string{"Date", "Clock In - Out", "Hours", "Cash Tips Declared", "Credit Card Tips"}, "llrrr", rows))
	rows = nil
	for _, l := range s.Earn {
		hrs, rate := "", ""
		if l.Cur && l.HasHours {
			hrs = l.Hours.String()
		}
		if l.Cur && l.HasRate {
			rate = l.Rate.r2()
		}
		rows = append(rows, []string{esc(l.Name), hrs, rate, curOr(l, nf.pos(l.Amount), "0.00"), nf.pos(l.YTD)})
	}
	rows = append(rows, []string{"!Gross Pay", s.HoursTot.String(), "", nf.pos(s.Gross), nf.pos(s.GrossYTD)})
	h.f(`<div class="two"><div><h4>Earnings</h4>`)
	h.s(tbl("t", []string{"Description", "Hours", "Rate", "Current", "YTD"}, "lrrrr", rows))
	var tipH Hours
	for _, l := range s.Earn {
		if l.Code == "REG" {
			tipH = l.Hours
		}
	}
	h.f(`<div class="memo">Tip Credit (memo, not paid): %s hrs &times; 5.12 = %s<br>Minimum wage met by tips this period.</div>`, tipH, NumFmt{Commas: true}.pos(pay(tipH, 51200)))
	h.f(`</div><div><h4>Taxes</h4>`)
	rows = nil
	for _, l := range s.Tax {
		rows = append(rows, []string{esc(l.Name), nf.neg(l.Amount), nf.neg(l.YTD)})
	}
	rows = append(rows, []string{"!Total Taxes", nf.neg(s.TaxTot), nf.neg(s.TaxYTD)})
	h.s(tbl("t", []string{"Tax", "Current", "YTD"}, "lrr", rows))
	h.f(`<h4>Deductions</h4>`)
	rows = nil
	for _, l := range s.Ded {
		rows = append(rows, []string{esc(l.Name), curOr(l, nf.neg(l.Amount), "0.00"), nf.neg(l.YTD)})
	}
	rows = append(rows, []string{"!Total Deductions", nf.neg(s.DedTot), nf.neg(s.DedYTD)})
	h.s(tbl("t", []string{"Deduction", "Current", "YTD"}, "lrr", rows))
	h.f(`</div></div>`)
	h.f(`<table class="net"><tr><td>Gross Pay<br><b>%s</b></td><td>Taxes<br><b>%s</b></td><td>Deductions<br><b>%s</b></td><td class="np">NET PAY<br><b>%s</b></td></tr>`,
		nf.pos(s.Gross), nf.pos(s.TaxTot), nf.pos(s.DedTot), NumFmt{Commas: true, Dollar: true}.pos(s.Net))
	h.f(`<tr class="y"><td>YTD %s</td><td>YTD %s</td><td>YTD %s</td><td>YTD %s</td></tr></table>`, nf.pos(s.GrossYTD), nf.pos(s.TaxYTD), nf.pos(s.DedYTD), nf.pos(s.NetYTD))
	h.f(`<p class="fine">Cash tips you reported are included in gross pay for tax purposes and deducted because you already received them. Paid by direct deposit to account ending %s.</p>`, j.Acct1[len(j.Acct1)-4:])
	css := fmt.Sprintf(`body { font-family: %s; font-size: %.1fpt; }
.hd { display: flex; justify-content: space-between; border-bottom: 3px double #000; padding-bottom: 6px; }
.co { font-size: 1.5em; font-weight: bold; } .ttl { text-align: right; font-weight: bold; font-size: 1.2em; } .sub { font-weight: normal; font-size: 0.8em; }
.emp { margin: 8px 0; }
h4 { margin: 10px 0 3px 0; font-size: 1.05em; border-bottom: 1px solid #000; }
.t { width: 100%%; } .t th { font-weight: bold; text-align: left; padding: 1px 4px; } .t th.r { text-align: right; } .t td { padding: 1px 4px; }
.t tr.tot td { font-weight: bold; border-top: 1px solid #000; }
.two { display: flex; gap: 18px; } .two > div { flex: 1; }
.memo { margin-top: 6px; font-size: 0.85em; font-style: italic; }
.net { width: 100%%; margin-top: 16px; border: 1.5px solid #000; } .net td { padding: 4px 8px; width: 25%%; } .net td.np { background: #eee; }
.net tr.y td { font-size: 0.85em; padding-top: 0; }
.fine { font-size: 0.8em; margin-top: 10px; }
`, font, size)
	return page("Earnings Statement", "letter", "0.5in", css, h.String()), v
}

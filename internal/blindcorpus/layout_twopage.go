package main

import (
	"fmt"
	"math/rand/v2"
)

// nurseEarnings: many earnings lines (differentials, charge, on call), so the stub runs to two pages.
func nurseEarnings(c *Ctx) []EarnIn {
	j := c.Job
	r := c.R
	out := standardEarnings(c)
	add := func(code, name string, h Hours, rate Rate) {
		out = append(out, EarnIn{Code: code, Name: name, Hours: h, Rate: rate, HasHours: true, HasRate: true, Amount: pay(h, rate)})
	}
	add("NIGHT", "Shift Diff - Night", Hours(between(r, 8, 48)*100), 45000)
	if r.IntN(3) != 0 {
		add("WKND", "Shift Diff - Weekend", Hours(between(r, 8, 24)*100), 30000)
	}
	if r.IntN(2) == 0 {
		add("CHARGE", "Charge Nurse Premium", Hours(between(r, 12, 36)*100), 20000)
	}
	if r.IntN(2) == 0 {
		add("ONCALL", "On Call", Hours(between(r, 8, 24)*100), 50000)
		if r.IntN(2) == 0 {
			add("CALLBK", "Call Back 1.5", Hours(between(r, 2, 8)*100), j.Rate*3/2)
		}
	}
	if r.IntN(5) == 0 {
		add("PRECEPT", "Preceptor Pay", Hours(between(r, 12, 36)*100), 15000)
	}
	if r.IntN(8) == 0 {
		out = append(out, EarnIn{Code: "EDU", Name: "Education Reimb (Taxable)", Amount: 50000})
	}
	return out
}

func layoutTwoPage(s0 *Stub, r *rand.Rand) (string, *View) {
	j := s0.Job
	tstyle := pick(r, "adp", "long")
	s := relabel(s0, func(cat string, l Line) string {
		if cat == "tax" {
			return taxName(tstyle, l)
		}
		return ""
	})
	font := pick(r, "'Liberation Sans'", "'Nimbus Sans'", "'DejaVu Sans'", "'Lato'")
	size := pick(r, 9.5, 10.0)
	ds := pick(r, "mdy", "mon", "mdY")
	nf := NumFmt{Commas: true, Neg: pick(r, "lead", "")}
	emp := j.P.Full()
	v := &View{S: s, Employer: j.Co.Name, Employee: emp, Rate4: true,
		Show: Show{EmployerName: true, EmployeeName: true, PayDate: true, PeriodStart: true, PeriodEnd: true,
			GrossYTD: true, NetYTD: true, TotalTaxes: true, TotalDed: true, LineYTD: true}}
	var h H
	head := func(pg int) {
		h.f(`<div class="hd"><div><div class="co">%s</div>%s<br>%s</div><div class="r"><div class="ttl">Statement of Earnings and Deductions</div>Page %d of 2</div></div>`,
			esc(j.Co.Name), esc(j.Co.Addr1), esc(j.Co.CityLine()), pg)
		h.f(`<table class="info"><tr><td>Employee</td><td><b>%s</b></td><td>Pay Date</td><td>%s</td></tr><tr><td>Employee ID</td><td>%s</td><td>Period</td><td>%s to %s</td></tr></table>`,
			esc(emp), dfmt(s.Pay, ds), j.EmpID, dfmt(s.Start, ds), dfmt(s.End, ds))
	}
	head(1)
	h.f(`<div class="addr">%s<br>%s<br>%s</div>`, esc(emp), esc(j.P.Addr1), esc(j.P.CityLine()))
	var rows [][]string
	for _, l := range s.Earn {
		hrs, rate := "", ""
		if l.Cur && l.HasHours {
			hrs = l.Hours.String()
		}
		if l.Cur && l.HasRate {
			rate = l.Rate.r4()
		}
		rows = append(rows, []string{esc(l.Name), hrs, rate, curOr(l, nf.pos(l.Amount), ""), l.YTDHours.fmt(true), nf.pos(l.YTD)})
	}
	rows = append(rows, []string{"!Gross Pay", "", "", nf.pos(s.Gross), "", nf.pos(s.GrossYTD)})
	h.f(`<h3>Earnings</h3>`)
	h.s(tbl("t", []string{"Description", "Hours", "Rate", "Current", "YTD Hours", "YTD Amount"}, "lrrrrr", rows))
	h.f(`<div class="cont">Continued on page 2 &mdash; taxes, deductions and net pay</div>`)
	h.f(`<div class="pb"></div>`)
	head(2)
	rows = nil
	for _, l := range s.Tax {
		rows = append(rows, []string{esc(l.Name), nf.neg(l.Amount), nf.pos(l.YTD)})
	}
	rows = append(rows, []string{"!Total Taxes", nf.neg(s.TaxTot), nf.pos(s.TaxYTD)})
	h.f(`<h3>Taxes</h3>`)
	h.s(tbl("t", []string{"Description", "Current", "YTD"}, "lrr", rows))
	rows = nil
	for _, l := range s.Ded {
		pt := "After-tax"
		if l.PreTax() {
			pt = "Before-tax"
		}
		rows = append(rows, []string{esc(l.Name), pt, curOr(l, nf.neg(l.Amount), ""), nf.pos(l.YTD)})
	}
	rows = append(rows, []string{"!Total Deductions", "", nf.neg(s.DedTot), nf.pos(s.DedYTD)})
	h.f(`<h3>Deductions</h3>`)
	h.s(tbl("t", []string{"Description", "Type", "Current", "YTD"}, "llrr", rows))
	h.f(`<h3>Summary</h3><table class="sum"><tr><th></th><th>Gross Pay</th><th>Taxes</th><th>Deductions</th><th>Net Pay</th></tr>`)
	h.f(`<tr><td>Current</td><td>%s</td><td>%s</td><td>%s</td><td><b>%s</b></td></tr>`, nf.pos(s.Gross), nf.pos(s.TaxTot), nf.pos(s.DedTot), nf.pos(s.Net))
	h.f(`<tr><td>Year to Date</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr></table>`, nf.pos(s.GrossYTD), nf.pos(s.TaxYTD), nf.pos(s.DedYTD), nf.pos(s.NetYTD))
	if len(s.Leave) > 0 {
		rows = nil
		for _, lv := range s.Leave {
			rows = append(rows, []string{lv.Name, lv.Begin.String(), lv.Earned.String(), lv.Used.String(), lv.End.String()})
		}
		h.f(`<h3>Paid Time Off (hours)</h3>`)
		h.s(tbl("t", []string{"Plan", "Beginning", "Accrued", "Used", "Ending"}, "lrrrr", rows))
	}
	for _, d := range s.Deposits {
		h.f(`<p>Direct deposit: %s %s %s &nbsp; %s</p>`, d.Bank, d.Type, d.Acct, nf.pos(d.Amount))
	}
	css := fmt.Sprintf(`body { font-family: %s; font-size: %.1fpt; }
.hd { display: flex; justify-content: space-between; border-bottom: 2px solid #333; padding-bottom: 6px; }
.co { font-size: 1.5em; font-weight: bold; } .ttl { font-size: 1.2em; font-weight: bold; }
.info { margin: 8px 0; } .info td { padding: 1px 14px 1px 0; }
.addr { margin: 14px 0 22px 0.5in; line-height: 1.35; }
h3 { margin: 16px 0 4px 0; font-size: 1.1em; background: #eee; padding: 3px 5px; }
.t { width: 100%%; } .t th { text-align: left; border-bottom: 1px solid #333; padding: 3px 5px; } .t th.r { text-align: right; }
.t td { padding: 4px 5px; border-bottom: 1px solid #ddd; } .t tr.tot td { font-weight: bold; border-top: 1.5px solid #333; }
.cont { margin-top: 30px; font-style: italic; text-align: right; }
.pb { page-break-after: always; }
.sum { width: 100%%; } .sum th, .sum td { text-align: right; padding: 4px 6px; } .sum td:first-child { text-align: left; }
.sum th { border-bottom: 1px solid #333; }
`, font, size)
	return page("Statement of Earnings", "letter", "0.6in", css, h.String()), v
}

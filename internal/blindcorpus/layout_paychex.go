package main

import (
	"fmt"
	"math/rand/v2"
)

// Paychex-style stub: a header band as a table, earnings with YTD hours, a summary box at the foot.
func layoutPaychex(s0 *Stub, r *rand.Rand) (string, *View) {
	j := s0.Job
	s := relabel(s0, func(cat string, l Line) string {
		if cat == "tax" {
			return taxName("short", l)
		}
		return ""
	})
	font := pick(r, "'Liberation Sans'", "'DejaVu Sans'", "'Nimbus Sans'", "'Lato'")
	size := pick(r, 8.0, 8.5, 7.5)
	ds := pick(r, "mdy", "mdY", "mdyy")
	nf := NumFmt{Commas: true}
	showEIN := r.IntN(2) == 0
	emp := j.P.Full()
	v := &View{S: s, Employer: j.Co.Name, Employee: emp, EIN: j.Co.EIN,
		Show: Show{EmployerName: true, EIN: showEIN, EmployeeName: true, PayDate: true, PeriodStart: true, PeriodEnd: true,
			GrossYTD: true, NetYTD: true, TotalTaxes: true, TotalDed: true, LineYTD: true}}
	var h H
	h.f(`<div class="top"><div class="co"><div class="coname">%s</div>%s<br>%s`, esc(j.Co.Name), esc(j.Co.Addr1), esc(j.Co.CityLine()))
	if showEIN {
		h.f(`<br>FEIN: %s`, j.Co.EIN)
	}
	h.f(`</div><div class="ttl">%s</div></div>`, pick(r, "Earnings Statement", "EARNINGS STATEMENT", "Pay Statement"))
	h.f(`<table class="band"><tr><th>Employee Name</th><th>Employee ID</th><th>Check Date</th><th>Period Start</th><th>Period End</th><th>Check #</th></tr>`)
	h.f(`<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%d</td></tr></table>`, esc(emp), j.EmpID, dfmt(s.Pay, ds), dfmt(s.Start, ds), dfmt(s.End, ds), s.CheckNo)
	h.f(`<div class="addr">%s<br>%s<br>%s</div>`, esc(emp), esc(j.P.Addr1), esc(j.P.CityLine()))

	var rows [][]string
	for _, l := range s.Earn {
		rate, hrs := "", ""
		if l.Cur && l.HasRate {
			rate = l.Rate.r2()
		}
		if l.Cur && l.HasHours {
			hrs = l.Hours.String()
		}
		yh := ""
		if l.HasHours || l.YTDHours > 0 {
			yh = l.YTDHours.fmt(true)
		}
		rows = append(rows, []string{esc(l.Name), rate, hrs, curOr(l, nf.pos(l.Amount), "0.00"), yh, nf.pos(l.YTD)})
	}
	rows = append(rows, []string{"!Total Earnings", "", s.HoursTot.String(), nf.pos(s.Gross), s.HoursYTD.fmt(true), nf.pos(s.GrossYTD)})
	h.f(`<div class="sec">EARNINGS</div>`)
	h.s(tbl("t", []string{"Description", "Rate", "Hours", "Amount", "YTD Hours", "YTD Amount"}, "lrrrrr", rows))

	h.f(`<div class="two"><div class="half">`)
	rows = nil
	for _, l := range s.Tax {
		rows = append(rows, []string{esc(l.Name), nf.pos(l.Amount), nf.pos(l.YTD)})
	}
	rows = append(rows, []string{"!Total Withholdings", nf.pos(s.TaxTot), nf.pos(s.TaxYTD)})
	h.f(`<div class="sec">WITHHOLDINGS</div>`)
	h.s(tbl("t", []string{"Description", "Amount", "YTD"}, "lrr", rows))
	h.f(`</div><div class="half">`)
	rows = nil
	for _, l := range s.Ded {
		n := esc(l.Name)
		rows = append(rows, []string{n, curOr(l, nf.pos(l.Amount), "0.00"), nf.pos(l.YTD)})
	}
	rows = append(rows, []string{"!Total Deductions", nf.pos(s.DedTot), nf.pos(s.DedYTD)})
	h.f(`<div class="sec">DEDUCTIONS</div>`)
	h.s(tbl("t", []string{"Description", "Amount", "YTD"}, "lrr", rows))
	if len(s.Leave) > 0 {
		rows = nil
		for _, lv := range s.Leave {
			rows = append(rows, []string{lv.Name, lv.Used.String(), lv.End.String()})
		}
		h.f(`<div class="sec">TIME OFF (HOURS)</div>`)
		h.s(tbl("t", []string{"Plan", "Used", "Available"}, "lrr", rows))
	}
	h.f(`</div></div>`)

	h.f(`<table class="sum"><tr><th></th><th>Gross</th><th>Taxes</th><th>Deductions</th><th>Net Pay</th></tr>`)
	h.f(`<tr><td class="l">Current</td><td>%s</td><td>%s</td><td>%s</td><td class="b">%s</td></tr>`, nf.pos(s.Gross), nf.pos(s.TaxTot), nf.pos(s.DedTot), nf.pos(s.Net))
	h.f(`<tr><td class="l">YTD</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr></table>`, nf.pos(s.GrossYTD), nf.pos(s.TaxYTD), nf.pos(s.DedYTD), nf.pos(s.NetYTD))
	for _, d := range s.Deposits {
		h.f(`<div class="dd">Direct Deposit %s &nbsp; %s &nbsp;&nbsp; %s</div>`, d.Type, "xxxx"+d.Acct[len(d.Acct)-4:], NumFmt{Commas: true, Dollar: true}.pos(d.Amount))
	}
	h.f(`<div class="fine">%s</div>`, pick(r, "Payroll processed by your payroll service. Keep this statement for your records.", "Questions about your pay? Contact your payroll administrator.", ""))

	css := fmt.Sprintf(`body { font-family: %s; font-size: %.1fpt; color: #1a1a1a; }
.top { display: flex; justify-content: space-between; align-items: flex-start; margin-bottom: 10px; }
.coname { font-size: 1.35em; font-weight: bold; }
.ttl { font-size: 1.6em; font-weight: bold; color: #1f3f73; }
.band { width: 100%%; border: 1px solid #1f3f73; }
.band th { background: #1f3f73; color: white; font-weight: bold; text-align: left; padding: 3px 5px; font-size: 0.9em; }
.band td { padding: 3px 5px; }
.addr { margin: 12px 0 12px 0.4in; line-height: 1.3; }
.sec { font-weight: bold; background: #dfe6f1; padding: 2px 4px; margin-top: 10px; border-top: 1px solid #1f3f73; }
.t { width: 100%%; } .t th { border-bottom: 1px solid #777; padding: 2px 4px; font-weight: bold; }
.t th.l { text-align: left; } .t td { padding: 1px 4px; }
.t tr.tot td { border-top: 1px solid #777; font-weight: bold; }
.two { display: flex; justify-content: space-between; } .half { width: 48.5%%; }
.sum { width: 100%%; margin-top: 18px; border: 2px solid #1f3f73; }
.sum th { background: #dfe6f1; padding: 3px 6px; text-align: right; border-bottom: 1px solid #1f3f73; }
.sum td { padding: 3px 6px; text-align: right; font-size: 1.05em; } .sum td.l { text-align: left; font-weight: bold; }
.dd { margin-top: 8px; }
.fine { margin-top: 14px; font-size: 0.85em; color: #555; }
`, font, size)
	return page("Earnings Statement", "letter", "0.5in", css, h.String()), v
}

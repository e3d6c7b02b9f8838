package main

import (
	"fmt"
	"math/rand/v2"
)

// salariedImputed: monthly salary, a bonus now and then, group-term life imputed income
// (in the earnings and taken back, or printed as a memo), an RSU vest once.
func salariedImputed(gtlMemo bool, gtl Cents, bonusMonths map[int]Cents, rsuMonth int, rsu Cents) func(c *Ctx) []EarnIn {
	return func(c *Ctx) []EarnIn {
		j := c.Job
		per := Cents((int64(j.Salary) + 6) / 12)
		out := []EarnIn{{Code: "REG", Name: "Salary", Amount: per}}
		m := int(c.Pay.Month())
		if b, ok := bonusMonths[m]; ok {
			out = append(out, EarnIn{Code: "BONUS", Name: "Bonus", Amount: b, Supp: true})
		}
		if m == rsuMonth {
			out = append(out, EarnIn{Code: "RSU", Name: "RSU Vest", Amount: rsu, Supp: true, Offset: "RSUOFF", OffsetName: "RSU Offset"})
		}
		if gtlMemo {
			out = append(out, EarnIn{Code: "GTL", Name: "GTL Imputed Income", Amount: gtl, Memo: true})
		} else {
			out = append(out, EarnIn{Code: "GTL", Name: "Group Term Life", Amount: gtl, Offset: "GTLOFF", OffsetName: "GTL Offset"})
		}
		return out
	}
}

func layoutSalaried(s0 *Stub, r *rand.Rand) (string, *View) {
	j := s0.Job
	tstyle := pick(r, "long", "adp")
	s := relabel(s0, func(cat string, l Line) string {
		if cat == "tax" {
			return taxName(tstyle, l)
		}
		return ""
	})
	font := pick(r, "'C059'", "'P052'", "'URW Bookman'", "'Liberation Serif'", "'DejaVu Serif'")
	size := pick(r, 8.5, 9.0)
	ds := pick(r, "mdy", "month", "iso")
	nf := NumFmt{Commas: true, Neg: pick(r, "paren", "lead")}
	showEIN := r.IntN(2) == 0
	emp := j.P.Full()
	v := &View{S: s, Employer: j.Co.Name, Employee: emp, EIN: j.Co.EIN,
		Show: Show{EmployerName: true, EIN: showEIN, EmployeeName: true, PayDate: true, PeriodStart: true, PeriodEnd: true,
			GrossYTD: true, NetYTD: true, TotalTaxes: true, TotalDed: true, LineYTD: true}}
	var h H
	h.f(`<div class="hd"><div class="co">%s</div><div class="ca">%s, %s`, esc(j.Co.Name), esc(j.Co.Addr1), esc(j.Co.CityLine()))
	if showEIN {
		h.f(` &nbsp;|&nbsp; EIN %s`, j.Co.EIN)
	}
	h.f(`</div></div><div class="ttl">%s</div>`, pick(r, "Salary Statement", "Monthly Pay Statement", "Statement of Earnings"))
	h.f(`<table class="info"><tr><td>Employee</td><td><b>%s</b></td><td>Pay Date</td><td>%s</td></tr>`, esc(emp), dfmt(s.Pay, ds))
	h.f(`<tr><td>Personnel No.</td><td>%s</td><td>Pay Period</td><td>%s &ndash; %s</td></tr>`, j.EmpID, dfmt(s.Start, ds), dfmt(s.End, ds))
	h.f(`<tr><td>Position</td><td>%s</td><td>Annual Base Salary</td><td>%s</td></tr>`, esc(j.Title), NumFmt{Commas: true, Dollar: true}.pos(j.Salary))
	h.f(`<tr><td>Cost Center</td><td>%s-%d</td><td>Filing Status</td><td>%s</td></tr></table>`, j.Dept, between(r, 1000, 9999), map[bool]string{true: "Married filing jointly", false: "Single"}[j.P.Married])
	var rows [][]string
	for _, l := range s.Earn {
		name := esc(l.Name)
		if l.Code == "GTL" || l.Code == "RSU" {
			name += " &dagger;"
		}
		rows = append(rows, []string{name, curOr(l, nf.pos(l.Amount), nf.pos(0)), nf.pos(l.YTD)})
	}
	rows = append(rows, []string{"!Gross Earnings", nf.pos(s.Gross), nf.pos(s.GrossYTD)})
	h.f(`<div class="cols"><div><h3>Earnings</h3>`)
	h.s(tbl("t", []string{"Description", "Current", "Year to Date"}, "lrr", rows))
	if len(s.Memo) > 0 {
		rows = nil
		for _, l := range s.Memo {
			rows = append(rows, []string{esc(l.Name) + " (memo)", nf.pos(l.Amount), nf.pos(l.YTD)})
		}
		h.f(`<h3>Memo &mdash; taxable, not paid</h3>`)
		h.s(tbl("t", []string{"Description", "Current", "Year to Date"}, "lrr", rows))
	}
	h.f(`<p class="fn">&dagger; Imputed income: included in taxable wages, not paid in cash; offset below.</p>`)
	h.f(`<h3>Taxable Wages</h3>`)
	h.s(tbl("t", []string{"", "Current", "Year to Date"}, "lrr", [][]string{{"Federal", nf.pos(s.FedTaxable), nf.pos(s.FedTaxableYTD)}, {"Social Security / Medicare", nf.pos(s.FicaWages), nf.pos(s.FicaYTD)}}))
	h.f(`</div><div><h3>Taxes</h3>`)
	rows = nil
	for _, l := range s.Tax {
		rows = append(rows, []string{esc(l.Name), nf.neg(l.Amount), nf.neg(l.YTD)})
	}
	rows = append(rows, []string{"!Total Taxes", nf.neg(s.TaxTot), nf.neg(s.TaxYTD)})
	h.s(tbl("t", []string{"Description", "Current", "Year to Date"}, "lrr", rows))
	h.f(`<h3>Deductions</h3>`)
	rows = nil
	for _, l := range s.Ded {
		n := esc(l.Name)
		if l.PreTax() {
			n += " *"
		}
		rows = append(rows, []string{n, curOr(l, nf.neg(l.Amount), nf.neg(0)), nf.neg(l.YTD)})
	}
	rows = append(rows, []string{"!Total Deductions", nf.neg(s.DedTot), nf.neg(s.DedYTD)})
	h.s(tbl("t", []string{"Description", "Current", "Year to Date"}, "lrr", rows))
	h.f(`<p class="fn">* pre-tax</p>`)
	h.f(`<h3>Employer Contributions</h3>`)
	rows = nil
	for _, l := range s.Employer {
		if l.Code == "ER401K" || l.Code == "ERMED" {
			rows = append(rows, []string{esc(l.Name), nf.pos(l.Amount), nf.pos(l.YTD)})
		}
	}
	h.s(tbl("t", []string{"Description", "Current", "Year to Date"}, "lrr", rows))
	h.f(`</div></div>`)
	h.f(`<table class="sum"><tr><th></th><th>Gross Earnings</th><th>Taxes</th><th>Deductions</th><th>Net Pay</th></tr>`)
	h.f(`<tr><td>Current</td><td>%s</td><td>%s</td><td>%s</td><td><b>%s</b></td></tr>`, nf.pos(s.Gross), nf.pos(s.TaxTot), nf.pos(s.DedTot), NumFmt{Commas: true, Dollar: true}.pos(s.Net))
	h.f(`<tr><td>Year to Date</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr></table>`, nf.pos(s.GrossYTD), nf.pos(s.TaxYTD), nf.pos(s.DedYTD), nf.pos(s.NetYTD))
	for _, d := range s.Deposits {
		h.f(`<div class="dep">Deposited to %s %s account %s: %s</div>`, d.Bank, d.Type, d.Acct, NumFmt{Commas: true, Dollar: true}.pos(d.Amount))
	}
	css := fmt.Sprintf(`body { font-family: %s; font-size: %.1fpt; color: #222; }
.hd { border-bottom: 1px solid #444; padding-bottom: 4px; } .co { font-size: 1.6em; font-variant: small-caps; letter-spacing: 1px; } .ca { font-size: 0.9em; }
.ttl { font-size: 1.3em; margin: 10px 0 6px 0; }
.info { width: 100%%; margin-bottom: 8px; } .info td { padding: 1px 6px 1px 0; } .info td:nth-child(odd) { color: #666; width: 17%%; }
.cols { display: flex; gap: 22px; } .cols > div { flex: 1; }
h3 { font-size: 1.05em; margin: 10px 0 2px 0; font-variant: small-caps; border-bottom: 1px solid #999; }
.t { width: 100%%; } .t th { font-weight: normal; color: #666; text-align: left; padding: 1px 3px; } .t th.r { text-align: right; } .t td { padding: 1px 3px; }
.t tr.tot td { border-top: 1px solid #999; font-weight: bold; }
.fn { font-size: 0.8em; margin: 2px 0; color: #555; }
.sum { width: 100%%; margin-top: 14px; border-top: 2px solid #222; border-bottom: 2px solid #222; } .sum th { text-align: right; font-weight: normal; color: #555; padding: 3px; } .sum td { text-align: right; padding: 3px; }
.sum td:first-child { text-align: left; }
.dep { margin-top: 6px; font-size: 0.9em; }
`, font, size)
	return page("Pay Statement", "letter", "0.6in", css, h.String()), v
}

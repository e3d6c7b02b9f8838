package main

import (
	"fmt"
	"math/rand/v2"
)

// Gusto-style pay stub: clean, white space, summary row with pre-tax and post-tax deductions.
func layoutGusto(s0 *Stub, r *rand.Rand) (string, *View) {
	j := s0.Job
	s := relabel(s0, func(cat string, l Line) string {
		switch cat {
		case "tax":
			return taxName("gusto", l)
		case "er":
			switch l.Code {
			case "ERSS":
				return "Social Security"
			case "ERMED2":
				return "Medicare"
			case "FUTA":
				return "FUTA"
			case "SUTA":
				return j.States[0].State + " SUI"
			case "ER401K":
				return "401(k) Employer Match"
			case "ERMED":
				return "Medical Insurance"
			}
		}
		return ""
	})
	font := pick(r, "'Lato'", "'DejaVu Sans'", "'Liberation Sans'", "'URW Gothic'")
	size := pick(r, 8.0, 8.5, 9.0)
	ds := pick(r, "mon", "mon", "month")
	nf := NumFmt{Commas: true, Dollar: true}
	emp := j.P.Full()
	v := &View{S: s, Employer: j.Co.Name, Employee: emp,
		Show: Show{EmployerName: true, EmployeeName: true, PayDate: true, PeriodStart: true, PeriodEnd: true,
			GrossYTD: true, NetYTD: true, TotalTaxes: true, LineYTD: true}}
	var h H
	h.f(`<div class="head"><div class="cn">%s</div><div class="pp">Pay stub for period %s &ndash; %s</div><div class="pd">Pay Day: %s</div></div>`,
		esc(j.Co.Name), dfmt(s.Start, ds), dfmt(s.End, ds), dfmt(s.Pay, ds))
	h.f(`<div class="blocks"><div class="blk"><div class="lbl">Company</div><div class="nm">%s</div>%s<br>%s<br>%s</div>`, esc(j.Co.Name), esc(j.Co.Addr1), esc(j.Co.CityLine()), j.Co.Phone)
	h.f(`<div class="blk"><div class="lbl">Employee</div><div class="nm">%s</div>%s<br>%s<br>XXX-XX-%s</div></div>`, esc(emp), esc(j.P.Addr1), esc(j.P.CityLine()), j.P.SSN4)

	h.f(`<table class="sum"><tr><th>Gross Earnings</th><th>Pre-Tax Deductions</th><th>Taxes</th><th>Post-Tax Deductions</th><th>Net Pay</th></tr>`)
	h.f(`<tr class="cur"><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td class="net">%s</td></tr>`, nf.pos(s.Gross), nf.pos(s.PreDed), nf.pos(s.TaxTot), nf.pos(s.PostDed), nf.pos(s.Net))
	h.f(`<tr class="ytd"><td>%s YTD</td><td>%s YTD</td><td>%s YTD</td><td>%s YTD</td><td>%s YTD</td></tr></table>`, nf.pos(s.GrossYTD), nf.pos(s.PreDedYTD), nf.pos(s.TaxYTD), nf.pos(s.PostDedYTD), nf.pos(s.NetYTD))

	var rows [][]string
	for _, l := range s.Earn {
		hrs, rate := "", ""
		if l.Cur && l.HasHours {
			hrs = l.Hours.String()
		}
		if l.Cur && l.HasRate {
			rate = "$" + l.Rate.r2()
		}
		rows = append(rows, []string{esc(l.Name), hrs, rate, curOr(l, nf.pos(l.Amount), "$0.00"), nf.pos(l.YTD)})
	}
	h.f(`<h3>Employee Gross Earnings</h3>`)
	h.s(tbl("t", []string{"Description", "Hours", "Rate", "Current", "Year-To-Date"}, "lrrrr", rows))
	rows = nil
	for _, l := range s.Tax {
		rows = append(rows, []string{esc(l.Name), nf.pos(l.Amount), nf.pos(l.YTD)})
	}
	h.f(`<h3>Employee Taxes Withheld</h3>`)
	h.s(tbl("t", []string{"Description", "Current", "Year-To-Date"}, "lrr", rows))
	if len(s.Ded) > 0 {
		rows = nil
		for _, l := range s.Ded {
			pt := "No"
			if l.PreTax() {
				pt = "Yes"
			}
			rows = append(rows, []string{esc(l.Name), pt, curOr(l, nf.pos(l.Amount), "$0.00"), nf.pos(l.YTD)})
		}
		h.f(`<h3>Employee Deductions</h3>`)
		h.s(tbl("t", []string{"Description", "Pre-Tax?", "Current", "Year-To-Date"}, "lcrr", rows))
	}
	rows = nil
	var txr [][]string
	for _, l := range s.Employer {
		switch l.Code {
		case "ER401K", "ERMED":
			rows = append(rows, []string{esc(l.Name), nf.pos(l.Amount), nf.pos(l.YTD)})
		default:
			txr = append(txr, []string{esc(l.Name), nf.pos(l.Amount), nf.pos(l.YTD)})
		}
	}
	if len(rows) > 0 {
		h.f(`<h3>Employer Contributions</h3>`)
		h.s(tbl("t", []string{"Description", "Current", "Year-To-Date"}, "lrr", rows))
	}
	h.f(`<h3>Employer Tax</h3>`)
	h.s(tbl("t", []string{"Company Tax", "Current", "Year-To-Date"}, "lrr", txr))
	if len(s.Deposits) > 0 {
		rows = nil
		for _, d := range s.Deposits {
			rows = append(rows, []string{"Direct Deposit", d.Bank + " " + d.Type + " ••••" + d.Acct[len(d.Acct)-4:], nf.pos(d.Amount)})
		}
		h.f(`<h3>Payment Details</h3>`)
		h.s(tbl("t", []string{"Payment Method", "Account", "Amount"}, "llr", rows))
	}
	css := fmt.Sprintf(`body { font-family: %s; font-size: %.1fpt; color: #333; }
.head { border-bottom: 2px solid #0a8080; padding-bottom: 8px; }
.cn { font-size: 1.9em; font-weight: bold; color: #222; }
.pp { font-size: 1.15em; margin-top: 4px; } .pd { font-size: 1.15em; margin-top: 2px; color: #0a6a6a; font-weight: bold; }
.blocks { display: flex; gap: 0.6in; margin: 12px 0; } .blk { width: 45%%; line-height: 1.4; }
.lbl { text-transform: uppercase; font-size: 0.8em; letter-spacing: 1px; color: #888; } .nm { font-weight: bold; font-size: 1.1em; }
.sum { width: 100%%; margin: 8px 0 14px 0; background: #f3f7f7; }
.sum th { font-weight: normal; color: #666; padding: 8px 6px 2px 6px; text-align: left; font-size: 0.9em; }
.sum td { padding: 2px 6px; } .sum .cur td { font-size: 1.3em; font-weight: bold; color: #222; }
.sum .ytd td { font-size: 0.85em; color: #777; padding-bottom: 8px; } .sum td.net { color: #0a6a6a; }
h3 { font-size: 1.1em; margin: 10px 0 3px 0; color: #222; }
.t { width: 100%%; } .t th { color: #777; font-weight: normal; border-bottom: 1px solid #ccc; padding: 3px 4px; }
.t th.l { text-align: left; } .t td { padding: 2px 4px; border-bottom: 1px solid #eee; }
`, font, size)
	return page("Pay stub", "letter", pick(r, "0.5in", "0.45in 0.6in"), css, h.String()), v
}

package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// PeopleSoft-style pay advice: upper-case headings, label grids, sections side by side.
func layoutPeopleSoft(s0 *Stub, r *rand.Rand) (string, *View) {
	j := s0.Job
	s := relabel(s0, func(cat string, l Line) string {
		switch cat {
		case "tax":
			return taxName("upper", l)
		case "earn":
			return strings.ToUpper(l.Name)
		case "ded":
			return strings.ToUpper(l.Name)
		case "er":
			switch l.Code {
			case "ER401K":
				return "401K MATCH"
			case "ERMED":
				return "MEDICAL"
			}
		}
		return ""
	})
	courier := r.IntN(3) == 0
	font := pick(r, "'Liberation Sans'", "'Nimbus Sans'", "Arial")
	size := pick(r, 7.0, 7.5, 8.0)
	if courier {
		font = pick(r, "'Liberation Mono'", "'Nimbus Mono PS'", "'Courier Prime'")
		size = 6.8
	}
	ds := pick(r, "dmon", "mdy")
	nf := NumFmt{Commas: true}
	emp := j.P.LastFirst()
	v := &View{S: s, Employer: j.Co.Name, Employee: emp, Rate4: true,
		Show: Show{EmployerName: true, EmployeeName: true, PayDate: true, PeriodStart: true, PeriodEnd: true,
			GrossYTD: true, NetYTD: true, TotalTaxes: true, TotalDed: true, LineYTD: true}}
	var h H
	title := pick(r, "Pay Advice", "Advice of Deposit")
	h.f(`<div class="top"><div><div class="co">%s</div>%s<br>%s</div><div class="ttl">%s</div></div>`, esc(j.Co.Name), esc(j.Co.Addr1), esc(j.Co.CityLine()), title)
	grp := pick(r, "SEM", "BWK", "MON", "SAL")
	h.f(`<div class="two"><div class="w55">`)
	h.f(`<table class="lg"><tr><th>Pay Group:</th><th>Pay Begin Date:</th><th>Pay End Date:</th><th>Advice #:</th><th>Advice Date:</th></tr>`)
	h.f(`<tr><td>%s-%s</td><td>%s</td><td>%s</td><td>%010d</td><td>%s</td></tr></table>`, grp, pick(r, "Semi-monthly", "Biweekly", "Monthly Salaried"), dfmt(s.Start, ds), dfmt(s.End, ds), s.AdviceNo, dfmt(s.Pay, ds))
	payRate := ""
	if j.Hourly {
		payRate = "$" + j.Rate.r2() + " Hourly"
	} else {
		payRate = NumFmt{Commas: true, Dollar: true}.pos(j.Salary) + " Annual"
	}
	h.f(`<table class="lg"><tr><th>Employee ID:</th><th>Department:</th><th>Location:</th><th>Job Title:</th><th>Pay Rate:</th></tr>`)
	h.f(`<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr></table>`, j.EmpID, esc(j.Dept), esc(j.Loc), esc(j.Title), payRate)
	h.f(`</div><div class="w40"><div class="nm">%s</div>%s<br>%s</div></div>`, esc(emp), esc(strings.ToUpper(j.P.Addr1)), esc(strings.ToUpper(j.P.CityLine())))
	st := "Single"
	if j.P.Married {
		st = "Married"
	}
	h.f(`<table class="g"><tr><th colspan="5">TAX DATA:</th></tr><tr><th></th><th>Marital Status</th><th>Allowances</th><th>Addl. Pct.</th><th>Addl. Amt.</th></tr>`)
	h.f(`<tr><td>Federal</td><td>%s</td><td>0</td><td></td><td></td></tr><tr><td>%s</td><td>%s</td><td>%d</td><td></td><td></td></tr></table>`, st, j.States[0].State, st, between(r, 0, 3))

	// hours and earnings | taxes
	h.f(`<div class="two"><div class="w62">`)
	h.f(`<table class="g"><tr><th colspan="6" class="sec">HOURS AND EARNINGS</th></tr>`)
	h.f(`<tr><th></th><th colspan="3" class="grp">----------- Current -----------</th><th colspan="2" class="grp">------- YTD -------</th></tr>`)
	h.f(`<tr><th>Description</th><th class="r">Rate</th><th class="r">Hours</th><th class="r">Earnings</th><th class="r">Hours</th><th class="r">Earnings</th></tr>`)
	for _, l := range s.Earn {
		rate, hrs := "", ""
		if l.Cur && l.HasRate {
			rate = l.Rate.r4()
		}
		if l.Cur && l.HasHours {
			hrs = l.Hours.String()
		}
		yh := ""
		if l.HasHours || l.YTDHours > 0 {
			yh = l.YTDHours.fmt(true)
		}
		h.f(`<tr><td>%s</td><td class="r">%s</td><td class="r">%s</td><td class="r">%s</td><td class="r">%s</td><td class="r">%s</td></tr>`, esc(l.Name), rate, hrs, curOr(l, nf.pos(l.Amount), ""), yh, nf.pos(l.YTD))
	}
	h.f(`<tr class="tot"><td>TOTAL:</td><td></td><td class="r">%s</td><td class="r">%s</td><td class="r">%s</td><td class="r">%s</td></tr></table>`, s.HoursTot, nf.pos(s.Gross), s.HoursYTD.fmt(true), nf.pos(s.GrossYTD))
	h.f(`</div><div class="w36">`)
	h.f(`<table class="g"><tr><th colspan="3" class="sec">TAXES</th></tr><tr><th>Description</th><th class="r">Current</th><th class="r">YTD</th></tr>`)
	for _, l := range s.Tax {
		h.f(`<tr><td>%s</td><td class="r">%s</td><td class="r">%s</td></tr>`, esc(l.Name), nf.pos(l.Amount), nf.pos(l.YTD))
	}
	h.f(`<tr class="tot"><td>TOTAL:</td><td class="r">%s</td><td class="r">%s</td></tr></table>`, nf.pos(s.TaxTot), nf.pos(s.TaxYTD))
	h.f(`</div></div>`)
	// deductions
	h.f(`<div class="three">`)
	sect := func(title string, pre bool) {
		h.f(`<div><table class="g"><tr><th colspan="3" class="sec">%s</th></tr><tr><th>Description</th><th class="r">Current</th><th class="r">YTD</th></tr>`, title)
		var c, y Cents
		for _, l := range s.Ded {
			if l.PreTax() == pre {
				h.f(`<tr><td>%s</td><td class="r">%s</td><td class="r">%s</td></tr>`, esc(l.Name), curOr(l, nf.pos(l.Amount), ""), nf.pos(l.YTD))
				c += l.Amount
				y += l.YTD
			}
		}
		h.f(`<tr class="tot"><td>TOTAL:</td><td class="r">%s</td><td class="r">%s</td></tr></table></div>`, nf.pos(c), nf.pos(y))
	}
	sect("BEFORE-TAX DEDUCTIONS", true)
	sect("AFTER-TAX DEDUCTIONS", false)
	h.f(`<div><table class="g"><tr><th colspan="3" class="sec">EMPLOYER PAID BENEFITS</th></tr><tr><th>Description</th><th class="r">Current</th><th class="r">YTD</th></tr>`)
	for _, l := range s.Employer {
		if l.Code == "ER401K" || l.Code == "ERMED" {
			h.f(`<tr><td>%s</td><td class="r">%s</td><td class="r">%s</td></tr>`, esc(l.Name), nf.pos(l.Amount), nf.pos(l.YTD))
		}
	}
	h.f(`<tr><td colspan="3" class="note">*TAXABLE</td></tr></table></div></div>`)
	// summary band
	h.f(`<table class="g band"><tr><th></th><th class="r">TOTAL GROSS</th><th class="r">FED TAXABLE GROSS</th><th class="r">TOTAL TAXES</th><th class="r">TOTAL DEDUCTIONS</th><th class="r">NET PAY</th></tr>`)
	h.f(`<tr><td>Current</td><td class="r">%s</td><td class="r">%s</td><td class="r">%s</td><td class="r">%s</td><td class="r b">%s</td></tr>`, nf.pos(s.Gross), nf.pos(s.FedTaxable), nf.pos(s.TaxTot), nf.pos(s.DedTot), nf.pos(s.Net))
	h.f(`<tr><td>YTD</td><td class="r">%s</td><td class="r">%s</td><td class="r">%s</td><td class="r">%s</td><td class="r">%s</td></tr></table>`, nf.pos(s.GrossYTD), nf.pos(s.FedTaxableYTD), nf.pos(s.TaxYTD), nf.pos(s.DedYTD), nf.pos(s.NetYTD))
	// leave and net pay distribution
	h.f(`<div class="two"><div class="w45">`)
	if len(s.Leave) > 0 {
		h.f(`<table class="g"><tr><th colspan="5" class="sec">LEAVE BALANCES (HOURS)</th></tr><tr><th>Plan</th><th class="r">Start</th><th class="r">Earned</th><th class="r">Taken</th><th class="r">End</th></tr>`)
		for _, lv := range s.Leave {
			h.f(`<tr><td>%s</td><td class="r">%s</td><td class="r">%s</td><td class="r">%s</td><td class="r">%s</td></tr>`, strings.ToUpper(lv.Name), lv.Begin, lv.Earned, lv.Used, lv.End)
		}
		h.f(`</table>`)
	}
	h.f(`</div><div class="w52"><table class="g"><tr><th colspan="4" class="sec">NET PAY DISTRIBUTION</th></tr><tr><th>Advice #</th><th>Account Type</th><th>Account Number</th><th class="r">Deposit Amount</th></tr>`)
	for _, d := range s.Deposits {
		h.f(`<tr><td>%010d</td><td>%s</td><td>%s</td><td class="r">%s</td></tr>`, s.AdviceNo, d.Type, d.Acct, nf.pos(d.Amount))
	}
	h.f(`<tr class="tot"><td>TOTAL:</td><td></td><td></td><td class="r">%s</td></tr></table></div></div>`, nf.pos(s.Net))
	h.f(`<div class="msg">MESSAGE: %s</div>`, pick(r, "ANNUAL BENEFITS ENROLLMENT IS OPEN. REVIEW YOUR ELECTIONS IN SELF SERVICE.", "VERIFY YOUR HOME ADDRESS FOR YEAR-END TAX FORMS.", "THANK YOU FOR YOUR SERVICE."))
	css := fmt.Sprintf(`body { font-family: %s; font-size: %.1fpt; color: #000; }
.top { display: flex; justify-content: space-between; margin-bottom: 8px; }
.co { font-weight: bold; font-size: 1.25em; } .ttl { font-size: 1.7em; font-weight: bold; }
.two { display: flex; justify-content: space-between; gap: 6px; margin-top: 5px; }
.w55 { width: 58%%; } .w40 { width: 38%%; padding-top: 6px; } .w62 { width: 62%%; } .w36 { width: 37%%; } .w45 { width: 45%%; } .w52 { width: 53%%; }
.three { display: flex; gap: 6px; margin-top: 5px; } .three > div { flex: 1; }
.nm { font-weight: bold; }
.lg { width: 100%%; margin-bottom: 4px; } .lg th { text-align: left; font-weight: bold; padding-right: 6px; white-space: nowrap; } .lg td { padding-right: 6px; }
.g { width: 100%%; border: 1px solid #000; margin-top: 4px; }
.g th { text-align: left; font-weight: bold; padding: 1px 3px; } .g th.r { text-align: right; }
.g th.sec { text-align: center; border-bottom: 1px solid #000; background: #e8e8e8; }
.g th.grp { text-align: center; font-weight: normal; }
.g td { padding: 1px 3px; } .g tr.tot td { border-top: 1px solid #000; font-weight: bold; }
.band { margin-top: 8px; } .band th { border-bottom: 1px solid #000; }
.note { font-size: 0.85em; }
.msg { margin-top: 10px; border: 1px solid #000; padding: 4px; min-height: 30px; }
`, font, size)
	return page(title, "letter", "0.45in", css, h.String()), v
}

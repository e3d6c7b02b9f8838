package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Workday-style pay slip: heading band, Current and YTD summary, sections with grey bars.
func layoutWorkday(s0 *Stub, r *rand.Rand) (string, *View) {
	html, v := workdayBody(s0, r, "")
	return page("Pay Slip", "letter", pick(r, "0.4in", "0.45in 0.5in"), workdayCSS(r), html), v
}

func workdayCSS(r *rand.Rand) string {
	font := pick(r, "'Liberation Sans'", "'Nimbus Sans'", "'DejaVu Sans Condensed'", "Arial")
	size := pick(r, 7.5, 8.0, 8.5)
	return fmt.Sprintf(`body { font-family: %s; font-size: %.1fpt; color: #000; }
.slip { page-break-after: always; } .slip:last-child { page-break-after: auto; }
.co { font-size: 1.3em; font-weight: bold; } .coa { margin-bottom: 8px; }
.g { width: 100%%; border: 1px solid #999; margin-bottom: 7px; }
.g th { background: #d9d9d9; font-weight: bold; text-align: left; padding: 2px 4px; border: 1px solid #999; }
.g th.r { text-align: right; } .g th.c { text-align: center; }
.g td { padding: 2px 4px; border-left: 1px solid #ccc; border-right: 1px solid #ccc; }
.g tr.tot td { border-top: 1px solid #999; font-weight: bold; }
.cap { font-weight: bold; background: #bfbfbf; padding: 2px 4px; border: 1px solid #999; border-bottom: none; }
.two { display: flex; gap: 8px; } .two > div { flex: 1; }
`, font, size)
}

func workdayBody(s0 *Stub, r *rand.Rand, extra string) (string, *View) {
	j := s0.Job
	s := relabel(s0, func(cat string, l Line) string {
		switch cat {
		case "tax":
			switch l.Code {
			case "FIT":
				return "Federal Withholding"
			case "SS":
				return "OASDI"
			case "MED":
				return "Medicare"
			}
			if strings.HasPrefix(l.Code, "SIT_") {
				return "State Tax - " + l.Code[4:]
			}
			if n := taxName("short", l); n != "" {
				return n
			}
		case "er":
			switch l.Code {
			case "ERSS":
				return "OASDI - Employer"
			case "ERMED2":
				return "Medicare - Employer"
			case "FUTA":
				return "FUTA"
			case "SUTA":
				return "SUI - " + j.States[0].State
			case "ER401K":
				return "401(k) Employer Match"
			case "ERMED":
				return "Medical - Employer"
			}
		}
		return ""
	})
	ds := pick(r, "mdy", "mdy", "mdY")
	nf := NumFmt{Commas: true}
	emp := j.P.Plain()
	v := &View{S: s, Employer: j.Co.Name, Employee: emp,
		Show: Show{EmployerName: true, EmployeeName: true, PayDate: true, PeriodStart: true, PeriodEnd: true,
			GrossYTD: true, NetYTD: true, TotalTaxes: true, LineYTD: true}}
	var h H
	h.f(`<div class="slip">%s<div class="co">%s</div><div class="coa">%s<br>%s</div>`, extra, esc(j.Co.Name), esc(j.Co.Addr1), esc(j.Co.CityLine()))
	h.s(tbl("g", []string{"Name", "Company", "Employee ID", "Pay Period Begin", "Pay Period End", "Check Date", "Check Number"}, "lllllll",
		[][]string{{esc(emp), esc(j.Co.Name), j.EmpID, dfmt(s.Start, ds), dfmt(s.End, ds), dfmt(s.Pay, ds), fmt.Sprint(s.CheckNo)}}))
	h.f(`<div class="cap">Current and YTD Summary</div>`)
	h.s(tbl("g", []string{"", "Hours Worked", "Gross Pay", "Pre Tax Deductions", "Employee Taxes", "Post Tax Deductions", "Net Pay"}, "lrrrrrr",
		[][]string{{"Current", s.HoursTot.String(), nf.pos(s.Gross), nf.pos(s.PreDed), nf.pos(s.TaxTot), nf.pos(s.PostDed), nf.pos(s.Net)},
			{"YTD", s.HoursYTD.fmt(true), nf.pos(s.GrossYTD), nf.pos(s.PreDedYTD), nf.pos(s.TaxYTD), nf.pos(s.PostDedYTD), nf.pos(s.NetYTD)}}))
	var rows [][]string
	dates := dfmt(s.Start, ds) + " - " + dfmt(s.End, ds)
	for _, l := range s.Earn {
		hrs, rate, dt := "", "", ""
		if l.Cur {
			dt = dates
			if l.HasHours {
				hrs = l.Hours.String()
			}
			if l.HasRate {
				rate = l.Rate.r2()
			}
		}
		yh := ""
		if l.HasHours || l.YTDHours > 0 {
			yh = l.YTDHours.fmt(true)
		}
		rows = append(rows, []string{esc(l.Name), dt, hrs, rate, curOr(l, nf.pos(l.Amount), ""), yh, nf.pos(l.YTD)})
	}
	rows = append(rows, []string{"!Earnings", "", s.HoursTot.String(), "", nf.pos(s.Gross), s.HoursYTD.fmt(true), nf.pos(s.GrossYTD)})
	h.f(`<div class="cap">Earnings</div>`)
	h.s(tbl("g", []string{"Description", "Dates", "Hours", "Rate", "Amount", "YTD Hours", "YTD Amount"}, "llrrrrr", rows))
	h.f(`<div class="two"><div>`)
	rows = nil
	for _, l := range s.Tax {
		rows = append(rows, []string{esc(l.Name), nf.pos(l.Amount), nf.pos(l.YTD)})
	}
	rows = append(rows, []string{"!Employee Taxes", nf.pos(s.TaxTot), nf.pos(s.TaxYTD)})
	h.f(`<div class="cap">Employee Taxes</div>`)
	h.s(tbl("g", []string{"Description", "Amount", "YTD"}, "lrr", rows))
	h.f(`</div><div>`)
	var pre, post [][]string
	for _, l := range s.Ded {
		row := []string{esc(l.Name), curOr(l, nf.pos(l.Amount), ""), nf.pos(l.YTD)}
		if l.PreTax() {
			pre = append(pre, row)
		} else {
			post = append(post, row)
		}
	}
	pre = append(pre, []string{"!Pre Tax Deductions", nf.pos(s.PreDed), nf.pos(s.PreDedYTD)})
	h.f(`<div class="cap">Pre Tax Deductions</div>`)
	h.s(tbl("g", []string{"Description", "Amount", "YTD"}, "lrr", pre))
	post = append(post, []string{"!Post Tax Deductions", nf.pos(s.PostDed), nf.pos(s.PostDedYTD)})
	h.f(`<div class="cap">Post Tax Deductions</div>`)
	h.s(tbl("g", []string{"Description", "Amount", "YTD"}, "lrr", post))
	h.f(`</div></div>`)
	h.f(`<div class="two"><div>`)
	rows = nil
	for _, l := range s.Employer {
		if l.Code == "ER401K" || l.Code == "ERMED" {
			rows = append(rows, []string{esc(l.Name), nf.pos(l.Amount), nf.pos(l.YTD)})
		}
	}
	if len(rows) > 0 {
		h.f(`<div class="cap">Employer Paid Benefits</div>`)
		h.s(tbl("g", []string{"Description", "Amount", "YTD"}, "lrr", rows))
	}
	h.f(`</div><div>`)
	rows = [][]string{{"OASDI - Taxable Wages", nf.pos(s.FicaWages), nf.pos(s.FicaYTD)}, {"Medicare - Taxable Wages", nf.pos(s.FicaWages), nf.pos(s.FicaYTD)},
		{"Federal Withholding - Taxable Wages", nf.pos(s.FedTaxable), nf.pos(s.FedTaxableYTD)}}
	for _, st := range j.States {
		if stateRules[st.State].BP == 0 {
			continue
		}
		rows = append(rows, []string{"State Tax Taxable Wages - " + st.State, nf.pos(s.StateTaxable[st.State]), nf.pos(s.StateTaxableYTD[st.State])})
	}
	h.f(`<div class="cap">Taxable Wages</div>`)
	h.s(tbl("g", []string{"Description", "Amount", "YTD"}, "lrr", rows))
	h.f(`</div></div>`)
	if len(s.Leave) > 0 {
		rows = nil
		for _, lv := range s.Leave {
			rows = append(rows, []string{lv.Name, lv.Begin.String(), lv.Earned.String(), lv.Used.String(), lv.End.String()})
		}
		h.f(`<div class="cap">Absence Plans</div>`)
		h.s(tbl("g", []string{"Description", "Beginning", "Accrued", "Reduced", "Available"}, "lrrrr", rows))
	}
	rows = nil
	for _, d := range s.Deposits {
		rows = append(rows, []string{d.Bank, d.Bank + " " + d.Type, "******" + d.Acct[len(d.Acct)-4:], nf.pos(d.Amount)})
	}
	h.f(`<div class="cap">Payment Information</div>`)
	h.s(tbl("g", []string{"Bank", "Account Name", "Account Number", "USD Amount"}, "lllr", rows))
	h.f(`</div>`)
	return h.String(), v
}

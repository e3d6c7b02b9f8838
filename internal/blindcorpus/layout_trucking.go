package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// fieldEarnings: regular, overtime at 1.5× and double time at 2× for a weekly field job.
func fieldEarnings(c *Ctx) []EarnIn {
	j := c.Job
	reg := Hours(4000)
	if c.R.IntN(6) == 0 {
		reg = Hours(between(c.R, 24, 39) * 100)
	}
	out := []EarnIn{{Code: "REG", Name: "Regular", Hours: reg, Rate: j.Rate, HasHours: true, HasRate: true, Amount: pay(reg, j.Rate)}}
	if reg == 4000 {
		ot := Hours(between(c.R, 2, 14) * 50)
		out = append(out, EarnIn{Code: "OT", Name: "Overtime 1.5", Hours: ot, Rate: j.Rate * 3 / 2, HasHours: true, HasRate: true, Amount: pay(ot, j.Rate*3/2)})
		if c.R.IntN(2) == 0 {
			dt := Hours(between(c.R, 2, 10) * 50)
			out = append(out, EarnIn{Code: "DT", Name: "Double Time", Hours: dt, Rate: j.Rate * 2, HasHours: true, HasRate: true, Amount: pay(dt, j.Rate*2)})
		}
	}
	return out
}

func fieldExtras(perDiem Cents, support Cents) func(c *Ctx) ([]Item, []Item) {
	return func(c *Ctx) ([]Item, []Item) {
		days := Hours(between(c.R, 2, 5) * 100)
		rate := Rate(int64(perDiem) * 100)
		reimb := []Item{{Code: "PERDIEM", Name: "Per Diem", Amount: pay(days, rate), Hours: days, Rate: rate, HasHours: true, HasRate: true}}
		if c.R.IntN(2) == 0 {
			miles := Hours(between(c.R, 60, 420) * 100)
			mr := Rate(7000)
			if c.Pay.Year() >= 2026 {
				mr = 7250
			}
			reimb = append(reimb, Item{Code: "MILE", Name: "Mileage", Amount: pay(miles, mr), Hours: miles, Rate: mr, HasHours: true, HasRate: true})
		}
		var post []Item
		if support > 0 {
			post = append(post, Item{Code: "GARN", Name: "Child Support", Amount: support})
		}
		return reimb, post
	}
}

// A trucking / construction stub: OT and double time, per diem and mileage reimbursements,
// union dues, a child support garnishment, two states' taxes.
func layoutTrucking(s0 *Stub, r *rand.Rand) (string, *View) {
	j := s0.Job
	s := relabel(s0, func(cat string, l Line) string {
		if cat == "tax" {
			switch {
			case l.Code == "FIT":
				return "Federal W/H"
			case l.Code == "SS":
				return "FICA-OASDI"
			case l.Code == "MED":
				return "FICA-Medicare"
			case strings.HasPrefix(l.Code, "SIT_"):
				return l.Code[4:] + " State W/H"
			default:
				return taxName("short", l)
			}
		}
		if cat == "earn" {
			switch l.Code {
			case "REG":
				return pick(r, "Regular", "REG HRS")
			case "OT":
				return pick(r, "Overtime 1.5", "OT 1.5X")
			case "DT":
				return pick(r, "Double Time", "DT 2.0X")
			}
		}
		if cat == "ded" && l.Code == "GARN" {
			return pick(r, "Child Support", "Garn - Child Supp")
		}
		return ""
	})
	font := pick(r, "'Liberation Mono'", "'DejaVu Sans Mono'", "'Liberation Sans'", "'Nimbus Sans Narrow'")
	size := pick(r, 8.0, 8.5)
	if strings.Contains(font, "Mono") {
		size = 7.5
	}
	ds := pick(r, "mdy", "mdyy")
	nf := NumFmt{Commas: true, Neg: pick(r, "trail", "lead")}
	emp := strings.ToUpper(j.P.Plain())
	v := &View{S: s, Employer: strings.ToUpper(j.Co.Name), Employee: emp, EIN: j.Co.EIN,
		Show: Show{EmployerName: true, EIN: true, EmployeeName: true, PayDate: true, PeriodStart: true, PeriodEnd: true,
			GrossYTD: true, NetYTD: true, TotalTaxes: true, TotalDed: true, LineYTD: true}}
	var h H
	h.f(`<div class="hd"><div><b class="co">%s</b><br>%s<br>%s<br>Fed ID %s</div>`, esc(strings.ToUpper(j.Co.Name)), esc(j.Co.Addr1), esc(j.Co.CityLine()), j.Co.EIN)
	h.f(`<div class="box"><b>PAYROLL STATEMENT</b><br>Check No: %d<br>Check Date: %s<br>Week Beginning: %s<br>Week Ending: %s</div></div>`, s.CheckNo, dfmt(s.Pay, ds), dfmt(s.Start, ds), dfmt(s.End, ds))
	states := []string{}
	for _, st := range j.States {
		states = append(states, st.State)
	}
	h.f(`<div class="emp">EMPLOYEE: <b>%s</b> &nbsp; #%s &nbsp; %s &nbsp; Work States: %s &nbsp; Local %s</div>`, esc(emp), j.EmpID, esc(j.Title), strings.Join(states, "/"), pick(r, "825", "542", "9", "68"))
	var rows [][]string
	for _, l := range s.Earn {
		hrs, rate := "", ""
		if l.Cur && l.HasHours {
			hrs = l.Hours.String()
		}
		if l.Cur && l.HasRate {
			rate = l.Rate.r2()
		}
		rows = append(rows, []string{esc(l.Name), hrs, rate, curOr(l, nf.pos(l.Amount), ""), l.YTDHours.fmt(true), nf.pos(l.YTD)})
	}
	rows = append(rows, []string{"!GROSS WAGES", s.HoursTot.String(), "", nf.pos(s.Gross), s.HoursYTD.fmt(true), nf.pos(s.GrossYTD)})
	h.f(`<div class="st">EARNINGS</div>`)
	h.s(tbl("t", []string{"Type", "Hours", "Rate", "Current", "YTD Hrs", "YTD"}, "lrrrrr", rows))
	h.f(`<div class="two"><div>`)
	rows = nil
	for _, l := range s.Tax {
		rows = append(rows, []string{esc(l.Name), nf.neg(l.Amount), nf.pos(l.YTD)})
	}
	rows = append(rows, []string{"!TOTAL TAXES", nf.neg(s.TaxTot), nf.pos(s.TaxYTD)})
	h.f(`<div class="st">TAXES WITHHELD</div>`)
	h.s(tbl("t", []string{"Tax", "Current", "YTD"}, "lrr", rows))
	h.f(`</div><div>`)
	rows = nil
	for _, l := range s.Ded {
		rows = append(rows, []string{esc(l.Name), curOr(l, nf.neg(l.Amount), ""), nf.pos(l.YTD)})
	}
	rows = append(rows, []string{"!TOTAL DEDUCTIONS", nf.neg(s.DedTot), nf.pos(s.DedYTD)})
	h.f(`<div class="st">DEDUCTIONS</div>`)
	h.s(tbl("t", []string{"Deduction", "Current", "YTD"}, "lrr", rows))
	rows = nil
	for _, l := range s.Reimb {
		u, rt := "", ""
		if l.Cur {
			u, rt = l.Hours.String(), l.Rate.r3()
			if l.Code == "PERDIEM" {
				rt = l.Rate.r2()
			}
		}
		rows = append(rows, []string{esc(l.Name), u, rt, curOr(l, nf.pos(l.Amount), ""), nf.pos(l.YTD)})
	}
	h.f(`<div class="st">NON-TAXABLE REIMBURSEMENTS</div>`)
	h.s(tbl("t", []string{"Item", "Days/Miles", "Rate", "Current", "YTD"}, "lrrrr", rows))
	h.f(`</div></div>`)
	h.f(`<table class="sum"><tr><th></th><th>GROSS</th><th>TAXES</th><th>DEDUCTIONS</th><th>REIMB.</th><th>NET PAY</th></tr>`)
	h.f(`<tr><td>THIS CHECK</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td><b>%s</b></td></tr>`, nf.pos(s.Gross), nf.pos(s.TaxTot), nf.pos(s.DedTot), nf.pos(s.ReimbTot), nf.pos(s.Net))
	h.f(`<tr><td>YEAR TO DATE</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr></table>`, nf.pos(s.GrossYTD), nf.pos(s.TaxYTD), nf.pos(s.DedYTD), nf.pos(s.ReimbYTD), nf.pos(s.NetYTD))
	h.f(`<p class="fine">Per diem and mileage are reimbursements under an accountable plan and are not wages. Garnishment remitted per court order. Union dues remitted to Local.</p>`)
	css := fmt.Sprintf(`body { font-family: %s; font-size: %.1fpt; }
.hd { display: flex; justify-content: space-between; } .co { font-size: 1.3em; }
.box { border: 1.5px solid #000; padding: 5px 10px; line-height: 1.35; }
.emp { margin: 10px 0 4px 0; padding: 3px; border-top: 1px solid #000; border-bottom: 1px solid #000; }
.st { font-weight: bold; margin-top: 8px; text-decoration: underline; }
.t { width: 100%%; } .t th { text-align: left; font-weight: bold; padding: 1px 4px; border-bottom: 1px dashed #000; } .t th.r { text-align: right; }
.t td { padding: 1px 4px; } .t tr.tot td { font-weight: bold; border-top: 1px dashed #000; }
.two { display: flex; gap: 16px; } .two > div { flex: 1; }
.sum { width: 100%%; margin-top: 14px; border: 1.5px solid #000; } .sum th { text-align: right; padding: 2px 6px; border-bottom: 1px solid #000; } .sum td { text-align: right; padding: 2px 6px; }
.sum td:first-child { text-align: left; }
.fine { font-size: 0.85em; margin-top: 8px; }
`, font, size)
	return page("Payroll Statement", "letter", "0.5in", css, h.String()), v
}

package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

type agency struct {
	State, Agency, Code, Position, Plan string
}

// A state agency's earnings statement, converted from HTML by LibreOffice: CR/DR amounts, a
// pension plan by initials, a leave table, year to date inline on one line.
func layoutState(s0 *Stub, r *rand.Rand, ag agency) ([]byte, *View) {
	j := s0.Job
	s := relabel(s0, func(cat string, l Line) string {
		if cat == "tax" {
			switch {
			case l.Code == "FIT":
				return "FED W/H"
			case l.Code == "SS":
				return "OASDI"
			case l.Code == "MED":
				return "MEDICARE"
			case strings.HasPrefix(l.Code, "SIT_"):
				return l.Code[4:] + " W/H"
			default:
				return strings.ToUpper(taxName("short", l))
			}
		}
		if cat == "earn" {
			switch l.Code {
			case "REG":
				return "REGULAR SALARY"
			case "HOL":
				return "HOLIDAY PAY"
			case "VAC":
				return "ANNUAL LEAVE"
			case "SICK":
				return "SICK LEAVE"
			case "OT":
				return "OVERTIME 1.5"
			}
		}
		if cat == "ded" {
			return strings.ToUpper(l.Name)
		}
		return ""
	})
	ds := pick(r, "mdy", "mdy", "mdy2")
	nf := NumFmt{Commas: true, Neg: "cr"}
	font := pick(r, "Liberation Serif", "Liberation Sans", "DejaVu Sans", "Nimbus Roman")
	emp := strings.ToUpper(j.P.Plain())
	v := &View{S: s, Employer: "STATE OF " + strings.ToUpper(stateNames[ag.State]), Employee: emp, Rate4: true,
		Show: Show{EmployerName: true, EmployeeName: true, PayDate: true, PeriodStart: true, PeriodEnd: true,
			GrossYTD: true, NetYTD: true, TotalTaxes: true, TotalDed: true, CurOnly: true}}
	var h H
	h.f(`<html><head><meta charset="utf-8"><title>Earnings Statement</title><style>
@page { size: 8.5in 11in; margin: 0.6in; }
body { font-family: '%s'; font-size: 9pt; }
p { margin-top: 0; margin-bottom: 0; }
td, th { font-size: 8.5pt; padding: 1px 4px; }
th { text-align: left; background: #e6e6e6; }
h1 { font-size: 14pt; margin: 0; } h2 { font-size: 11pt; margin: 0; }
</style></head><body>`, font)
	h.f(`<table width="100%%" cellspacing="0" cellpadding="2"><tr><td width="60%%"><h1>STATE OF %s</h1><h2>Earnings Statement</h2></td>`, strings.ToUpper(stateNames[ag.State]))
	h.f(`<td align="right">Pay Date: %s<br>Document No: %s%07d<br>Page 1 of 1</td></tr></table><hr>`, dfmt(s.Pay, ds), pick(r, "PR", "WA", "DD"), s.AdviceNo%10000000)
	h.f(`<table width="100%%" cellspacing="0"><tr><td width="55%%"><b>%s</b><br>%s<br>%s</td>`, esc(emp), esc(strings.ToUpper(j.P.Addr1)), esc(strings.ToUpper(j.P.CityLine())))
	h.f(`<td>Agency: %s %s<br>Position: %s<br>Employee ID: %s<br>Pay Period %s - %s</td></tr></table><br>`, ag.Code, esc(ag.Agency), esc(ag.Position), j.EmpID, dfmt(s.Start, ds), dfmt(s.End, ds))

	h.f(`<table width="100%%" border="1" cellspacing="0" cellpadding="2"><tr><th>EARNINGS</th><th align="right">HOURS</th><th align="right">RATE</th><th align="right">AMOUNT</th></tr>`)
	for _, l := range s.Earn {
		if !l.Cur {
			continue
		}
		h.f(`<tr><td>%s</td><td align="right">%s</td><td align="right">%s</td><td align="right">%s</td></tr>`, esc(l.Name), l.Hours, l.Rate.r4(), nf.pos(l.Amount))
	}
	h.f(`<tr><td><b>TOTAL EARNINGS</b></td><td align="right">%s</td><td></td><td align="right"><b>%s</b></td></tr></table><br>`, s.HoursTot, nf.pos(s.Gross))

	h.f(`<table width="100%%" border="1" cellspacing="0" cellpadding="2"><tr><th width="30%%">TAXES</th><th width="20%%" align="right">AMOUNT</th><th width="30%%">DEDUCTIONS</th><th width="20%%" align="right">AMOUNT</th></tr>`)
	var ded []Line
	for _, l := range s.Ded {
		if l.Cur {
			ded = append(ded, l)
		}
	}
	for i := 0; i < max(len(s.Tax), len(ded)); i++ {
		a, b, c, d := "", "", "", ""
		if i < len(s.Tax) {
			a, b = esc(s.Tax[i].Name), nf.neg(s.Tax[i].Amount)
		}
		if i < len(ded) {
			c, d = esc(ded[i].Name), nf.neg(ded[i].Amount)
		}
		h.f(`<tr><td>%s</td><td align="right">%s</td><td>%s</td><td align="right">%s</td></tr>`, a, b, c, d)
	}
	h.f(`<tr><td><b>TOTAL TAXES</b></td><td align="right"><b>%s</b></td><td><b>TOTAL DEDUCTIONS</b></td><td align="right"><b>%s</b></td></tr></table><br>`, nf.neg(s.TaxTot), nf.neg(s.DedTot))
	h.f(`<table width="100%%" border="1" cellspacing="0" cellpadding="3"><tr><td><b>NET PAY &nbsp; %s</b></td><td>Direct deposit %s &nbsp; %s</td></tr></table><br>`, nf.pos(s.Net), "XXXX"+j.Acct1[len(j.Acct1)-4:], nf.pos(s.Net))
	h.f(`<p><b>Year To Date: Gross %s Net %s</b></p>`, NumFmt{Commas: true}.pos(s.GrossYTD), NumFmt{Commas: true}.pos(s.NetYTD))
	h.f(`<table width="70%%" border="1" cellspacing="0" cellpadding="2"><tr><th>LEAVE (HOURS)</th><th align="right">BEGINNING</th><th align="right">USED</th><th align="right">EARNED</th><th align="right">ENDING</th></tr>`)
	for _, lv := range s.Leave {
		name := map[string]string{"Vacation": "ANNUAL LEAVE", "Sick": "SICK LEAVE"}[lv.Name]
		h.f(`<tr><td>%s</td><td align="right">%s</td><td align="right">%s</td><td align="right">%s</td><td align="right">%s</td></tr>`, name, lv.Begin, lv.Used, lv.Earned, lv.End)
	}
	h.f(`<tr><td>PERSONAL LEAVE</td><td align="right">24.00</td><td align="right">0.00</td><td align="right">0.00</td><td align="right">24.00</td></tr></table>`)
	h.f(`<p style="font-size:7.5pt">%s contributions are made on a pre-tax basis (IRC 414(h)). Amounts marked CR are credits to you; DR are withheld. Retain this statement for your records.</p>`, ag.Plan)
	h.f(`</body></html>`)
	_ = fmt.Sprint
	return sofficePDF([]byte(h.String()), "html"), v
}

package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Dense mid-market stub (Paylocity, Paycom, UKG, Dayforce style): three narrow columns, small
// type, tax and deduction codes, an unlabelled totals row at each column's foot.
func layoutMidmarket(s0 *Stub, r *rand.Rand) (string, *View) {
	j := s0.Job
	dedCodes := map[string][2]string{"401K": {"401K", "401(k) Pre-Tax"}, "MED": {"MED125", "Medical Pre-Tax"}, "DEN": {"DEN125", "Dental Pre-Tax"},
		"VIS": {"VIS125", "Vision Pre-Tax"}, "HSA": {"HSA", "Health Savings"}, "ROTH": {"ROTH", "Roth 401(k)"}, "LIFE": {"SUPLIF", "Supp Life"},
		"STD": {"STD", "Short Term Dis"}, "UNION": {"UNION", "Union Dues"}, "FSA": {"FSAMED", "Medical FSA"}, "LOAN": {"401KLN", "401(k) Loan"}}
	s := relabel(s0, func(cat string, l Line) string {
		switch cat {
		case "tax":
			return taxName("codes", l)
		case "ded":
			if c, ok := dedCodes[l.Code]; ok {
				return c[0]
			}
		case "earn":
			switch l.Code {
			case "REG":
				return pick(r, "REG", "Regular")
			case "OT":
				return "OT"
			case "HOL":
				return "HOL"
			case "VAC":
				return "PTO"
			case "SICK":
				return "SICK"
			}
		}
		return ""
	})
	style := pick(r, "paylocity", "paycom", "ukg", "dayforce")
	font := pick(r, "'Liberation Sans Narrow'", "'Nimbus Sans Narrow'", "'DejaVu Sans Condensed'", "'Liberation Sans'")
	size := pick(r, 6.5, 7.0, 7.0)
	ds := pick(r, "mdy", "mdy", "mdy2")
	nf := NumFmt{Commas: true}
	emp := j.P.Full()
	if r.IntN(2) == 0 {
		emp = strings.ToUpper(j.P.Plain())
	}
	v := &View{S: s, Employer: j.Co.Name, Employee: emp, EIN: j.Co.EIN, Rate4: true,
		Show: Show{EmployerName: true, EIN: style == "paycom", EmployeeName: true, PayDate: true, PeriodStart: true, PeriodEnd: true,
			GrossYTD: true, LineYTD: true, TotalTaxes: true, TotalDed: true}}
	var h H
	voucher := s.AdviceNo%900000 + 100000
	h.f(`<div class="hd"><div><div class="co">%s</div>%s<br>%s`, esc(j.Co.Name), esc(j.Co.Addr1), esc(j.Co.CityLine()))
	if v.Show.EIN {
		h.f(`<br>FEIN %s`, j.Co.EIN)
	}
	h.f(`</div><div class="r"><div class="big">Check Date %s &nbsp; Voucher No. %d</div>`, dfmt(s.Pay, ds), voucher)
	h.f(`Period Start: %s &nbsp; Period End: %s &nbsp; Check Date: %s</div></div>`, dfmt(s.Start, ds), dfmt(s.End, ds), dfmt(s.Pay, ds))
	h.f(`<div class="emp"><b>%s</b> &nbsp; ID %s &nbsp; Dept %s &nbsp; %s<br>%s, %s &nbsp;&nbsp; Fed %s/0 &nbsp; %s %s/%d</div>`,
		esc(emp), j.EmpID, esc(j.Dept), esc(j.Title), esc(j.P.Addr1), esc(j.P.CityLine()),
		map[bool]string{true: "MFJ", false: "S"}[j.P.Married], j.States[0].State, map[bool]string{true: "M", false: "S"}[j.P.Married], between(r, 0, 2))

	h.f(`<div class="cols"><div class="col">`)
	h.f(`<div class="sh">EARNINGS</div><table class="t"><tr><th>Description</th><th class="r">Rate</th><th class="r">Hrs/Units</th><th class="r">Current</th><th class="r">YTD</th></tr>`)
	for _, l := range s.Earn {
		rate, hrs := "", ""
		if l.Cur && l.HasRate {
			rate = l.Rate.r4()
		}
		if l.Cur && l.HasHours {
			hrs = l.Hours.String()
		}
		h.f(`<tr><td>%s</td><td class="r">%s</td><td class="r">%s</td><td class="r">%s</td><td class="r">%s</td></tr>`, esc(l.Name), rate, hrs, curOr(l, nf.pos(l.Amount), "0.00"), nf.pos(l.YTD))
	}
	h.f(`<tr class="tot"><td></td><td></td><td class="r">%s</td><td class="r">%s</td><td class="r">%s</td></tr></table>`, s.HoursTot, nf.pos(s.Gross), nf.pos(s.GrossYTD))
	h.f(`<div class="sh">NET PAY</div><table class="t"><tr><td>Gross Earnings</td><td class="r">%s</td><td class="r">%s</td></tr>`, nf.pos(s.Gross), nf.pos(s.GrossYTD))
	h.f(`<tr><td>Taxes</td><td class="r">%s</td><td class="r">%s</td></tr><tr><td>Deductions</td><td class="r">%s</td><td class="r">%s</td></tr>`, nf.pos(s.TaxTot), nf.pos(s.TaxYTD), nf.pos(s.DedTot), nf.pos(s.DedYTD))
	h.f(`<tr class="tot"><td>Net Pay</td><td class="r">%s</td><td class="r"></td></tr></table>`, nf.pos(s.Net))
	h.f(`</div><div class="col">`)
	h.f(`<div class="sh">TAXES</div><table class="t"><tr><th>Code</th><th class="r">Taxable</th><th class="r">Current</th><th class="r">YTD</th></tr>`)
	for _, l := range s.Tax {
		base := s.FicaWages
		if l.Code == "FIT" {
			base = s.FedTaxable
		} else if strings.HasPrefix(l.Code, "SIT_") {
			base = s.StateTaxable[l.Code[4:]]
		}
		h.f(`<tr><td>%s</td><td class="r">%s</td><td class="r">%s</td><td class="r">%s</td></tr>`, esc(l.Name), nf.pos(base), nf.pos(l.Amount), nf.pos(l.YTD))
	}
	h.f(`<tr class="tot"><td></td><td></td><td class="r">%s</td><td class="r">%s</td></tr></table>`, nf.pos(s.TaxTot), nf.pos(s.TaxYTD))
	if len(s.Leave) > 0 {
		h.f(`<div class="sh">TIME OFF</div><table class="t"><tr><th>Plan</th><th class="r">Earned</th><th class="r">Taken</th><th class="r">Avail</th></tr>`)
		for _, lv := range s.Leave {
			h.f(`<tr><td>%s</td><td class="r">%s</td><td class="r">%s</td><td class="r">%s</td></tr>`, map[string]string{"Vacation": "PTO", "Sick": "SICK"}[lv.Name], lv.Earned, lv.Used, lv.End)
		}
		h.f(`</table>`)
	}
	h.f(`</div><div class="col">`)
	h.f(`<div class="sh">DEDUCTIONS</div><table class="t"><tr><th>Code</th><th>Description</th><th class="r">Current</th><th class="r">YTD</th></tr>`)
	for _, l := range s.Ded {
		desc := ""
		if c, ok := dedCodes[l.Code]; ok {
			desc = c[1]
		} else {
			desc = l.Name
		}
		h.f(`<tr><td>%s</td><td>%s</td><td class="r">%s</td><td class="r">%s</td></tr>`, esc(l.Name), esc(desc), curOr(l, nf.pos(l.Amount), "0.00"), nf.pos(l.YTD))
	}
	h.f(`<tr class="tot"><td></td><td></td><td class="r">%s</td><td class="r">%s</td></tr></table>`, nf.pos(s.DedTot), nf.pos(s.DedYTD))
	h.f(`<div class="sh">DIRECT DEPOSITS</div><table class="t"><tr><th>Type</th><th>Account</th><th class="r">Amount</th></tr>`)
	for _, d := range s.Deposits {
		h.f(`<tr><td>%s</td><td>%s</td><td class="r">%s</td></tr>`, map[string]string{"Checking": "CHK", "Savings": "SAV"}[d.Type], "XXXXX"+d.Acct[len(d.Acct)-4:], nf.pos(d.Amount))
	}
	h.f(`</table>`)
	h.f(`<div class="sh">EMPLOYER</div><table class="t">`)
	for _, l := range s.Employer {
		h.f(`<tr><td>%s</td><td class="r">%s</td><td class="r">%s</td></tr>`, esc(l.Name), nf.pos(l.Amount), nf.pos(l.YTD))
	}
	h.f(`</table></div></div>`)
	h.f(`<div class="foot">%s &nbsp; NON-NEGOTIABLE &nbsp; Net Pay %s deposited %s</div>`, pick(r, "EARNINGS STATEMENT", "PAY STATEMENT", "DIRECT DEPOSIT ADVICE"), NumFmt{Commas: true, Dollar: true}.pos(s.Net), dfmt(s.Pay, ds))
	css := fmt.Sprintf(`body { font-family: %s; font-size: %.1fpt; color: #000; }
.hd { display: flex; justify-content: space-between; border-bottom: 1.5px solid #000; padding-bottom: 4px; }
.co { font-weight: bold; font-size: 1.3em; } .big { font-weight: bold; font-size: 1.15em; margin-bottom: 2px; }
.emp { margin: 5px 0; line-height: 1.35; }
.cols { display: flex; gap: 8px; } .col { flex: 1; }
.sh { font-weight: bold; background: #000; color: #fff; padding: 1px 3px; margin-top: 6px; }
.t { width: 100%%; } .t th { text-align: left; border-bottom: 1px solid #000; padding: 1px 2px; font-weight: bold; } .t th.r { text-align: right; }
.t td { padding: 0.5px 2px; } .t tr.tot td { border-top: 1px solid #000; font-weight: bold; }
.foot { margin-top: 10px; border-top: 1px dashed #000; padding-top: 4px; font-size: 0.95em; }
`, font, size)
	return page("Pay Statement", pick(r, "letter", "letter"), "0.35in", css, h.String()), v
}

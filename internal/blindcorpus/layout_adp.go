package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// ADP-style earnings statement.
func layoutADP(s0 *Stub, r *rand.Rand) (string, *View) {
	j := s0.Job
	s := relabel(s0, func(cat string, l Line) string {
		if cat == "tax" {
			return taxName("adp", l)
		}
		return ""
	})
	font := pick(r, "'Liberation Sans'", "'Nimbus Sans'", "'DejaVu Sans Condensed'", "'Liberation Sans Narrow'", "Arial")
	size := pick(r, 8.0, 8.5, 9.0)
	ds := pick(r, "mdy", "mdy", "mdY")
	nf := NumFmt{Commas: true, Neg: "lead"}
	dol := NumFmt{Commas: true, Dollar: true}
	upper := r.IntN(2) == 0
	emp := j.P.Full()
	if upper {
		emp = strings.ToUpper(j.P.Plain())
	}
	v := &View{S: s, Employer: j.Co.Name, Employee: emp, Rate4: true,
		Show: Show{EmployerName: true, EmployeeName: true, PayDate: true, PeriodStart: true, PeriodEnd: true, GrossYTD: true, LineYTD: true}}

	var h H
	h.f(`<div class="sheet"><div class="hdr"><div class="hl">`)
	h.f(`<table class="grid"><tr><th>Company Code</th><th>Loc/Dept</th><th>Number</th><th>Page</th></tr>
<tr><td>%s</td><td>%s</td><td>%06d</td><td>1 of 1</td></tr></table>`, j.Co.Code, pick(r, "01/", "017/", "02/", "110/"), s.AdviceNo%1000000)
	h.f(`<div class="co">%s<br>%s<br>%s</div>`, esc(j.Co.Name), esc(j.Co.Addr1), esc(j.Co.CityLine()))
	st := "Single"
	if j.P.Married {
		st = "Married"
	}
	stt := j.States[0].State
	h.f(`<div class="status">Taxable Marital Status: %s<br>Exemptions/Allowances:<br><span class="ind">Federal: &nbsp;Std Withholding Table</span><br><span class="ind">%s: &nbsp;&nbsp;%d</span></div>`, st, stt, between(r, 0, 2))
	h.f(`</div><div class="hr">`)
	h.f(`<div class="title">Earnings Statement</div>`)
	h.f(`<table class="dates"><tr><td>Period Beginning:</td><td>%s</td></tr><tr><td>Period Ending:</td><td>%s</td></tr><tr><td>Pay Date:</td><td>%s</td></tr></table>`,
		dfmt(s.Start, ds), dfmt(s.End, ds), dfmt(s.Pay, ds))
	addr := []string{emp, j.P.Addr1, j.P.CityLine()}
	if upper {
		addr = []string{emp, strings.ToUpper(j.P.Addr1), strings.ToUpper(strings.ReplaceAll(j.P.CityLine(), ",", ""))}
	}
	h.f(`<div class="window">%s</div>`, strings.Join(mapEsc(addr), "<br>"))
	h.f(`</div></div>`)

	h.f(`<div class="main"><div class="c1">`)
	h.f(`<table class="t"><tr class="th"><td>Earnings</td><td class="r">rate</td><td class="r">hours</td><td class="r">this period</td><td class="r">year to date</td></tr>`)
	for _, l := range s.Earn {
		rate, hrs, cur := "", "", ""
		if l.Cur {
			if l.HasRate {
				rate = l.Rate.r4()
			}
			if l.HasHours {
				hrs = l.Hours.String()
			}
			cur = nf.pos(l.Amount)
		}
		h.f(`<tr><td>%s</td><td class="r">%s</td><td class="r">%s</td><td class="r">%s</td><td class="r">%s</td></tr>`, esc(l.Name), rate, hrs, cur, nf.pos(l.YTD))
	}
	h.f(`<tr class="gross"><td colspan="2">Gross Pay</td><td></td><td class="r">%s</td><td class="r">%s</td></tr>`, dol.pos(s.Gross), nf.pos(s.GrossYTD))
	h.f(`<tr><td colspan="5" class="sec">Statutory Deductions</td></tr>`)
	for _, l := range s.Tax {
		h.f(`<tr><td colspan="3">%s</td><td class="r">%s</td><td class="r">%s</td></tr>`, esc(l.Name), nf.neg(l.Amount), nf.pos(l.YTD))
	}
	if len(s.Ded) > 0 {
		h.f(`<tr><td colspan="5" class="sec">Voluntary Deductions</td></tr>`)
		for _, l := range s.Ded {
			star := ""
			if l.Kind == Pre401k || l.Kind == S125 {
				star = "*"
			}
			cur := ""
			if l.Cur {
				cur = nf.neg(l.Amount) + star
			}
			h.f(`<tr><td colspan="3">%s</td><td class="r">%s</td><td class="r">%s</td></tr>`, esc(l.Name), cur, nf.pos(l.YTD))
		}
	}
	h.f(`<tr class="net"><td colspan="3">Net Pay</td><td class="r">%s</td><td></td></tr>`, dol.pos(s.Net))
	if len(s.Deposits) > 0 {
		for _, d := range s.Deposits {
			h.f(`<tr><td colspan="3">%s</td><td class="r">%s</td><td></td></tr>`, d.Type, nf.neg(d.Amount))
		}
		h.f(`<tr><td colspan="3">Net Check</td><td class="r">0.00</td><td></td></tr>`)
	}
	h.f(`</table>`)
	h.f(`<p class="foot">* Excluded from federal taxable wages</p>`)
	h.f(`<p class="foot">Your federal taxable wages this period are %s</p>`, dol.pos(s.FedTaxable))
	h.f(`</div><div class="c2">`)
	h.f(`<table class="t"><tr class="th"><td>Other Benefits and<br>Information</td><td class="r">this period</td><td class="r">total to date</td></tr>`)
	h.f(`<tr><td>Totl Hrs Worked</td><td class="r">%s</td><td class="r"></td></tr>`, s.HoursTot.String())
	for _, l := range s.Employer {
		if l.Code == "ER401K" {
			h.f(`<tr><td>Er 401K Match</td><td class="r">%s</td><td class="r">%s</td></tr>`, nf.pos(l.Amount), nf.pos(l.YTD))
		}
	}
	for _, lv := range s.Leave {
		h.f(`<tr><td>%s Bal</td><td class="r"></td><td class="r">%s</td></tr>`, pick(r, lv.Name, lv.Name+" Hrs"), lv.End.String())
	}
	h.f(`</table>`)
	h.f(`<div class="notes"><div class="nh">Important Notes</div>%s<br><br>%s</div>`,
		map[bool]string{true: "BASIS OF PAY: HOURLY", false: "BASIS OF PAY: SALARIED"}[j.Hourly],
		pick(r, "EFFECTIVE THIS PAY PERIOD YOUR DIRECT DEPOSIT IS SPLIT AS ELECTED IN THE PORTAL.", "PLEASE REVIEW YOUR W-4 ELECTIONS FOR THE NEW YEAR.", "OPEN ENROLLMENT ENDS NOVEMBER 14."))
	h.f(`</div></div>`)

	// deposit advice
	h.f(`<div class="bottom"><div class="cut"></div><div class="advice"><div class="al">%s<br>%s<br>%s</div>`, esc(j.Co.Name), esc(j.Co.Addr1), esc(j.Co.CityLine()))
	h.f(`<div class="ar">Advice number: &nbsp;&nbsp;%011d<br>Pay date: &nbsp;&nbsp;%s</div>`, s.AdviceNo, dfmt(s.Pay, ds))
	h.f(`<table class="t dep"><tr class="th"><td>Deposited to the account of</td><td>account number</td><td>transit ABA</td><td class="r">amount</td></tr>`)
	for _, d := range s.Deposits {
		h.f(`<tr><td>%s</td><td>%s</td><td>xxxx xxxx</td><td class="r">%s</td></tr>`, esc(emp), d.Acct, dol.pos(d.Amount))
	}
	h.f(`</table><div class="nn">NON-NEGOTIABLE</div><div class="void">THIS IS NOT A CHECK</div></div></div></div>`)

	css := fmt.Sprintf(`body { font-family: %s; font-size: %.1fpt; color: #111; }
.hdr { display: flex; justify-content: space-between; }
.hl { width: 50%%; } .hr { width: 46%%; }
.grid th { font-weight: normal; font-size: 0.85em; text-align: left; padding-right: 10px; border-bottom: 1px solid #444; }
.grid td { padding-right: 10px; }
.co { margin-top: 8px; font-weight: bold; }
.status { margin-top: 8px; font-size: 0.95em; } .ind { padding-left: 12px; }
.title { font-size: 2.0em; font-weight: bold; text-align: right; margin-bottom: 6px; }
.dates { margin-left: auto; } .dates td { padding: 0 0 0 10px; } .dates td:first-child { text-align: right; }
.window { margin: 22px 0 0 40px; font-size: 1.05em; line-height: 1.25; }
.main { display: flex; justify-content: space-between; margin-top: 16px; }
.c1 { width: 60%%; } .c2 { width: 36%%; }
.t { width: 100%%; } .t td { padding: 1px 3px; }
.th td { font-weight: bold; border-bottom: 1px solid #222; }
.sec { font-weight: bold; padding-top: 7px !important; border-bottom: 1px solid #999; }
.gross td { font-weight: bold; padding-top: 4px !important; }
.net td { font-weight: bold; font-size: 1.1em; border-top: 1px solid #222; padding-top: 4px !important; }
.foot { font-size: 0.9em; margin: 4px 0; }
.notes { border: 1px solid #333; margin-top: 14px; padding: 6px; min-height: 90px; font-size: 0.92em; }
.nh { font-weight: bold; margin-bottom: 4px; }
.sheet { position: relative; height: 9.85in; }
.bottom { position: absolute; left: 0; right: 0; bottom: 0.1in; }
.cut { border-top: 1px dashed #555; margin: 26px 0 12px 0; }
.advice { position: relative; min-height: 150px; }
.ar { position: absolute; right: 0; top: 0; text-align: right; }
.dep { margin-top: 14px; }
.nn { font-weight: bold; margin-top: 12px; letter-spacing: 1px; } .void { position: absolute; right: 0; bottom: 0; font-size: 1.4em; font-weight: bold; color: #777; }
`, font, size)
	return page("Earnings Statement", "letter", pick(r, "0.45in", "0.5in", "0.4in 0.55in"), css, h.String()), v
}

func mapEsc(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = esc(x)
	}
	return out
}

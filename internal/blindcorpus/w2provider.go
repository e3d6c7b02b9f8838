package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// A payroll provider's own W-2 print: an earnings summary reconciling gross pay to each box,
// and an "Employee Reference Copy" of the form's boxes.
func w2Provider(w *W2Doc, r *rand.Rand) string {
	font := pick(r, "'Liberation Sans'", "'DejaVu Sans Condensed'", "'Nimbus Sans'", "'Lato'")
	nf := NumFmt{Commas: true}
	money := func(c Cents) string {
		if c == 0 {
			return ""
		}
		return nf.pos(c)
	}
	var h H
	h.f(`<div class="top"><div class="yr">%d W-2 and EARNINGS SUMMARY</div><div class="er">%s<br>%s<br>%s<br>EIN %s</div></div>`,
		w.Year, esc(w.cs(w.Co.Name)), esc(w.cs(w.Co.Addr1)), esc(w.cs(w.Co.CityLine())), w.Co.EIN)
	h.f(`<div class="ee"><b>%s</b><br>%s<br>%s<br>SSN %s</div>`, esc(w.cs(w.P.Plain())), esc(w.cs(w.P.Addr1)), esc(w.cs(w.P.CityLine())), w.P.SSN())
	h.f(`<div class="note">This Earnings Summary is included with your W-2 to help describe portions in more detail. The reverse side includes general information that you may also find helpful.</div>`)
	h.f(`<table class="sum"><tr><th></th><th>1. Federal Taxable Wages<br>(Box 1 of W-2)</th><th>2. Social Security Taxable Wages<br>(Box 3 of W-2)</th><th>3. Medicare Taxable Wages<br>(Box 5 of W-2)</th><th>4. %s State Taxable Wages<br>(Box 16 of W-2)</th></tr>`, w.F.States[0].State)
	sm := func(c Cents) string {
		if c < 0 {
			return "-" + nf.pos(c)
		}
		return money(c)
	}
	row := func(label string, a, b, c, d Cents) {
		h.f(`<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>`, label, sm(a), sm(b), sm(c), sm(d))
	}
	st := w.F.States[0].Wages
	grossSS := w.F.Gross - w.F.Box7
	row("Gross Pay", w.F.Gross, grossSS, w.F.Gross, w.F.Gross)
	if w.F.Memo > 0 {
		row("Plus GTL (C-Box 12)", w.F.Memo, w.F.Memo, w.F.Memo, w.F.Memo)
	}
	if w.F.Pre401k > 0 {
		row("Less 401(k) (D-Box 12)", -w.F.Pre401k, 0, 0, -w.F.Pre401k)
	}
	if w.F.S125 > 0 {
		row("Less Other Cafeteria 125", -w.F.S125, -w.F.S125, -w.F.S125, -w.F.S125)
	}
	if over := grossSS + w.F.Memo - w.F.S125 - w.F.Box3; over > 0 {
		row("Less Wages over SS Maximum", 0, -over, 0, 0)
	}
	other := st - (w.F.Gross + w.F.Memo - w.F.Pre401k - w.F.S125)
	if other != 0 {
		row("Other State Allocation", 0, 0, 0, other)
	}
	h.f(`<tr class="tot"><td>Reported W-2 Wages</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr></table>`, nf.pos(w.F.Box1), nf.pos(w.F.Box3), nf.pos(w.F.Box5), nf.pos(st))
	h.f(`<div class="cut">- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -</div>`)
	h.f(`<div class="ref"><div class="rt"><b>Employee Reference Copy</b> &nbsp; <span class="big">W-2</span> Wage and Tax Statement <span class="big">%d</span></div>`, w.Year)
	h.f(`<div class="rt2">Copy C for employee's records. OMB No. 1545-0008. This information is being furnished to the Internal Revenue Service.</div>`)
	cell := func(n, label, v string) string {
		return fmt.Sprintf(`<td><div class="l">%s %s</div><div class="v">%s</div></td>`, n, label, v)
	}
	var b12 []string
	for i, c := range w.F.Box12 {
		b12 = append(b12, cell("12"+string(rune('a'+i)), "Code", c.Code+" &nbsp; "+nf.pos(c.Amount)))
	}
	for len(b12) < 4 {
		b12 = append(b12, cell("12"+string(rune('a'+len(b12))), "", ""))
	}
	h.f(`<table class="form">`)
	h.f(`<tr>%s%s%s</tr>`, cell("a", "Employee's social security number", w.P.SSN()), cell("1", "Wages, tips, other comp.", nf.pos(w.F.Box1)), cell("2", "Federal income tax withheld", nf.pos(w.F.Box2)))
	h.f(`<tr>%s%s%s</tr>`, cell("b", "Employer identification number (EIN)", w.Co.EIN), cell("3", "Social security wages", nf.pos(w.F.Box3)), cell("4", "Social security tax withheld", nf.pos(w.F.Box4)))
	h.f(`<tr><td rowspan="2"><div class="l">c Employer's name, address, and ZIP code</div><div class="v">%s<br>%s<br>%s</div></td>%s%s</tr>`, esc(w.cs(w.Co.Name)), esc(w.cs(w.Co.Addr1)), esc(w.cs(w.Co.CityLine())),
		cell("5", "Medicare wages and tips", nf.pos(w.F.Box5)), cell("6", "Medicare tax withheld", nf.pos(w.F.Box6)))
	h.f(`<tr>%s%s</tr>`, cell("7", "Social security tips", money(w.F.Box7)), cell("8", "Allocated tips", ""))
	h.f(`<tr>%s%s%s</tr>`, cell("d", "Control number", w.Control), cell("9", "", ""), cell("10", "Dependent care benefits", ""))
	first := w.P.First
	if w.P.Middle != "" {
		first += " " + w.P.Middle
	}
	ret := ""
	if w.F.Retirement {
		ret = "X"
	}
	h.f(`<tr><td rowspan="3"><div class="l">e/f Employee's name, address, and ZIP code</div><div class="v">%s %s<br>%s<br>%s</div></td>%s%s</tr>`, esc(w.cs(first)), esc(w.cs(w.P.Last)), esc(w.cs(w.P.Addr1)), esc(w.cs(w.P.CityLine())),
		cell("11", "Nonqualified plans", ""), b12[0])
	h.f(`<tr>%s%s</tr>`, cell("13", "Stat emp. / Ret. plan / 3rd party sick pay", " &nbsp; &nbsp; "+ret), b12[1])
	var o14 []string
	for _, o := range w.F.Box14 {
		o14 = append(o14, o.Label+" "+nf.pos(o.Amount))
	}
	h.f(`<tr>%s%s</tr>`, cell("14", "Other", strings.Join(o14, "<br>")), b12[2])
	h.f(`<tr><td></td><td></td>%s</tr></table>`, b12[3])
	h.f(`<table class="st"><tr><th>15 State</th><th>Employer's state ID no.</th><th>16 State wages, tips, etc.</th><th>17 State income tax</th><th>18 Local wages, tips, etc.</th><th>19 Local income tax</th><th>20 Locality name</th></tr>`)
	for _, s := range w.F.States {
		loc := [3]string{}
		if s.Locality != "" {
			loc = [3]string{nf.pos(s.LocalWages), nf.pos(s.LocalTax), s.Locality}
		}
		h.f(`<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>`, s.State, s.ID, nf.pos(s.Wages), nf.pos(s.Tax), loc[0], loc[1], loc[2])
	}
	h.f(`</table><div class="foot">Department of the Treasury &mdash; Internal Revenue Service &nbsp;&nbsp; Form W-2 Wage and Tax Statement %d</div></div>`, w.Year)
	css := fmt.Sprintf(`body { font-family: %s; font-size: 8.5pt; }
.top { display: flex; justify-content: space-between; } .yr { font-size: 1.6em; font-weight: bold; } .er { text-align: right; }
.ee { margin: 10px 0 10px 0.4in; line-height: 1.3; }
.note { font-size: 0.9em; margin-bottom: 8px; }
.sum { width: 100%%; background: #e8eef8; } .sum th { font-weight: bold; text-align: right; padding: 4px; font-size: 0.9em; vertical-align: bottom; }
.sum td { text-align: right; padding: 3px 4px; } .sum td:first-child { text-align: left; } .sum tr.tot td { font-weight: bold; border-top: 1px solid #000; }
.cut { margin: 18px 0 10px 0; color: #777; overflow: hidden; white-space: nowrap; }
.rt { font-size: 1.1em; } .big { font-size: 1.6em; font-weight: bold; } .rt2 { font-size: 0.85em; margin: 2px 0 6px 0; }
.form { width: 100%%; } .form td { border: 1px solid #000; padding: 2px 4px; width: 33%%; height: 26px; }
.l { font-size: 0.75em; } .v { font-family: 'Liberation Mono', monospace; font-size: 1.05em; text-align: right; }
.form td[rowspan] .v { text-align: left; }
.st { width: 100%%; margin-top: -1px; } .st th { border: 1px solid #000; font-size: 0.75em; font-weight: normal; text-align: left; padding: 2px; }
.st td { border: 1px solid #000; padding: 3px; font-family: 'Liberation Mono', monospace; }
.foot { font-size: 0.8em; text-align: right; margin-top: 4px; }
`, font)
	return page(fmt.Sprintf("%d W-2", w.Year), "letter", "0.5in", css, h.String())
}

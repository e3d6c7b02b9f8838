package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

type W2St struct {
	St, ID     string
	Wages, Tax int64
}

type W2 struct {
	Emp                    Employer
	P                      Person
	Year                   int
	Box1, Box2, Box3, Box4 int64
	Box5, Box6             int64
	Codes                  []W2Code
	codes                  map[string]int64
	Retirement             bool
	States                 []W2St
	Control, Box14         string
	// Official draws box 12 as the IRS's own form does (a "12a" caption
	// over a narrow column of the letters C, o, d, e printed one under
	// another between the code and the amount) and types the fill in
	// Helvetica with plain amounts ("5241.60"), as much tax software does.
	Official bool
}

func newW2(seed uint64, emp int, twoStates bool) W2 {
	r := rand.New(rand.NewPCG(seed, 1040))
	e := employers[emp%len(employers)]
	w := W2{Emp: e, P: newPerson(r, emp), Year: 2025, codes: map[string]int64{}}
	comp := int64(3_800_000 + 1000*r.IntN(15_000))
	if seed%5 == 0 {
		comp = int64(19_000_000 + 1000*r.IntN(4000)) // above the wage base
	}
	sec125 := int64(12 * (4000 + r.IntN(9000)))
	d := pct(comp, int64(100*r.IntN(8)))
	gtl := int64(0)
	if r.IntN(2) == 0 {
		gtl = int64(9000 + r.IntN(30000))
	}
	w.Box5 = comp - sec125 + gtl
	w.Box3 = min(w.Box5, 17_610_000)
	w.Box4 = pct(w.Box3, 620)
	w.Box6 = pct(w.Box5, 145)
	w.Box1 = w.Box5 - d
	w.Box2 = pct(w.Box1-1_610_000, 1200)
	add := func(c string, v int64) {
		if v > 0 {
			w.Codes = append(w.Codes, W2Code{Code: c, Amount: plain(v)})
			w.codes[c] = v
		}
	}
	add("D", d)
	add("DD", int64(600_000+r.IntN(900_000)))
	if r.IntN(3) == 0 {
		add("W", int64(100_000+r.IntN(200_000)))
	}
	add("C", gtl)
	if len(w.Codes) > 4 {
		w.Codes = w.Codes[:4]
	}
	w.Retirement = d > 0
	st := e.State
	rate := sitRates[st]
	if rate == 0 {
		st, rate = "GA", 539
	}
	id := fmt.Sprintf("%07d", 1000000+r.IntN(8999999))
	if twoStates {
		a := w.Box1 * 7 / 10
		st2 := map[string]string{"IL": "IN", "IN": "IL", "MA": "NH", "NY": "NJ", "PA": "NJ", "MD": "VA"}[st]
		if st2 == "" {
			st2 = "OH"
		}
		w.States = []W2St{{st, id, a, pct(a, rate)}, {st2, fmt.Sprintf("%07d", 1000000+r.IntN(8999999)), w.Box1 - a, pct(w.Box1-a, 323)}}
		if st2 == "NH" {
			w.States[1].Tax = 0
		}
	} else {
		w.States = []W2St{{st, id, w.Box1, pct(w.Box1, rate)}}
	}
	if r.IntN(2) == 0 {
		w.Control = fmt.Sprintf("%s-%05d", e.Code, r.IntN(99999))
	}
	return w
}

func (w W2) truth(copies int) *TW2 {
	opt := func(v int64) *string {
		if v == 0 {
			return nil
		}
		return sp(plain(v))
	}
	t := &TW2{TaxYear: fmt.Sprint(w.Year), Copies: copies, EmployeeSSN: sp(w.P.SSN()), EmployerEIN: sp(w.Emp.EIN), EmployerName: sp(w.Emp.Name),
		EmployerAddress: sp(w.Emp.OneLine()), EmployeeName: sp(w.name()), EmployeeAddress: sp(w.P.Street + ", " + w.P.CityLine()),
		Box1: opt(w.Box1), Box2: opt(w.Box2), Box3: opt(w.Box3), Box4: opt(w.Box4), Box5: opt(w.Box5), Box6: opt(w.Box6),
		Box12: w.Codes, Box13: W2Box13{RetirementPlan: w.Retirement}}
	if w.Control != "" {
		t.ControlNumber = sp(w.Control)
	}
	if t.Box12 == nil {
		t.Box12 = []W2Code{}
	}
	for _, s := range w.States {
		t.States = append(t.States, W2State{State: s.St, EmployerStateID: s.ID, Box16: opt(s.Wages), Box17: sp(plain(s.Tax))})
	}
	return t
}

func (w W2) name() string {
	if w.P.Middle == "" {
		return w.P.First + " " + w.P.Last
	}
	return w.P.First + " " + w.P.Middle + " " + w.P.Last
}

// drawW2 draws one copy of the IRS form at x0, y0 (540 × 290 points),
// its captions in Helvetica, the filled values in Courier.
func drawW2(p P, w W2, x0, y0 float64, copyLine string) {
	p.SetDrawColor(0, 0, 0)
	p.SetTextColor(0, 0, 0)
	capt := func(x, y float64, s string) {
		p.font("Helvetica", "", 5.5)
		p.L(x+2, y+6.5, s)
	}
	fill := func() { p.font("Courier", "B", 9) }
	money := money
	if w.Official {
		fill = func() { p.font("Helvetica", "", 9.5) }
		money = plain
	}
	val := func(x, y float64, s string) {
		fill()
		p.L(x+6, y+17, s)
	}
	box := func(x, y, wd, h float64, c, v string) {
		p.box(x0+x, y0+y, wd, h, 0.5)
		capt(x0+x, y0+y, c)
		if v != "" {
			val(x0+x, y0+y, v)
		}
	}
	p.box(x0, y0, 60, 22, 0.5)
	p.font("Helvetica", "", 7)
	p.L(x0+4, y0+14, "22222")
	box(60, 0, 170, 22, "a  Employee's social security number", w.P.SSN())
	p.font("Helvetica", "", 6)
	p.L(x0+240, y0+9, "OMB No. 1545-0008")
	p.L(x0+380, y0+9, "Safe, accurate, FAST! Use IRS e-file")
	// left column
	box(0, 22, 270, 22, "b  Employer identification number (EIN)", w.Emp.EIN)
	p.box(x0, y0+44, 270, 62, 0.5)
	capt(x0, y0+44, "c  Employer's name, address, and ZIP code")
	fill()
	p.L(x0+6, y0+62, w.Emp.Name)
	p.L(x0+6, y0+73, w.Emp.Street)
	p.L(x0+6, y0+84, w.Emp.CityLine())
	box(0, 106, 270, 22, "d  Control number", w.Control)
	p.box(x0, y0+128, 270, 92, 0.5)
	capt(x0, y0+128, "e  Employee's first name and initial          Last name                                   Suff.")
	fill()
	fi := w.P.First
	if w.P.Middle != "" {
		fi += " " + w.P.Middle
	}
	p.L(x0+6, y0+145, fi)
	p.L(x0+110, y0+145, w.P.Last)
	p.L(x0+6, y0+160, w.P.Street)
	p.L(x0+6, y0+171, w.P.CityLine())
	capt(x0, y0+206, "f  Employee's address and ZIP code")
	// right column
	m := func(v int64) string {
		if v == 0 {
			return ""
		}
		return money(v)
	}
	rows := [][4]string{{"1  Wages, tips, other compensation", m(w.Box1), "2  Federal income tax withheld", m(w.Box2)},
		{"3  Social security wages", m(w.Box3), "4  Social security tax withheld", m(w.Box4)},
		{"5  Medicare wages and tips", m(w.Box5), "6  Medicare tax withheld", m(w.Box6)},
		{"7  Social security tips", "", "8  Allocated tips", ""},
		{"9", "", "10  Dependent care benefits", ""},
		{"11  Nonqualified plans", "", "12a  See instructions for box 12", ""}}
	for i, r := range rows {
		y := 22 + float64(i)*22
		box(270, y, 135, 22, r[0], r[1])
		box(405, y, 135, 22, r[2], r[3])
	}
	for i := 0; i < 4; i++ {
		y := 22 + float64(5+i)*22
		lab := fmt.Sprintf("12%c", 'a'+i)
		p.box(x0+405, y0+y, 135, 22, 0.5)
		p.SetLineWidth(0.3)
		if w.Official {
			// "12a" over a column of C, o, d, e one under another, then
			// the code, a rule, and the amount.
			p.font("Helvetica", "B", 6)
			p.L(x0+407, y0+y+6.5, lab)
			p.font("Helvetica", "", 4)
			for k, c := range []string{"C", "o", "d", "e"} {
				p.L(x0+408, y0+y+10+float64(k)*3.6, c)
			}
			p.Line(x0+413, y0+y+8, x0+413, y0+y+22)
			p.Line(x0+440, y0+y+8, x0+440, y0+y+22)
			if i < len(w.Codes) {
				fill()
				p.L(x0+418, y0+y+18, w.Codes[i].Code)
				p.R(x0+534, y0+y+18, money(w.codes[w.Codes[i].Code]))
			}
			continue
		}
		capt(x0+405, y0+y, lab)
		p.Line(x0+430, y0+y+8, x0+430, y0+y+22)
		if i < len(w.Codes) {
			p.font("Courier", "B", 9)
			p.L(x0+409, y0+y+17, w.Codes[i].Code)
			p.R(x0+534, y0+y+17, money(w.codes[w.Codes[i].Code]))
		}
	}
	p.box(x0+270, y0+154, 135, 36, 0.5)
	p.box(x0+270, y0+190, 135, 30, 0.5)
	capt(x0+270, y0+154, "13  Statutory     Retirement     Third-party")
	capt(x0+270, y0+160, "      employee        plan             sick pay")
	for k := 0; k < 3; k++ {
		p.box(x0+282+float64(k)*40, y0+172, 8, 8, 0.5)
	}
	if w.Retirement {
		p.font("Courier", "B", 9)
		p.L(x0+322.5, y0+179.5, "X")
	}
	capt(x0+270, y0+190, "14  Other")
	// state rows
	y := y0 + 220.0
	heads := []string{"15 State  Employer's state ID number", "16  State wages, tips, etc.", "17  State income tax", "18  Local wages, tips, etc.", "19  Local income tax", "20  Locality name"}
	xs := []float64{0, 130, 215, 300, 385, 470, 540}
	for k, h := range heads {
		p.box(x0+xs[k], y, xs[k+1]-xs[k], 22, 0.5)
		capt(x0+xs[k], y, h)
		p.box(x0+xs[k], y+22, xs[k+1]-xs[k], 16, 0.5)
	}
	for i, s := range w.States {
		yy := y + 17 + float64(i)*17
		fill()
		p.L(x0+4, yy, s.St+"  "+s.ID)
		p.R(x0+210, yy, money(s.Wages))
		p.R(x0+295, yy, money(s.Tax))
	}
	// footer
	p.font("Helvetica", "B", 9)
	p.L(x0, y0+268, "Form")
	p.font("Helvetica", "B", 18)
	p.L(x0+24, y0+272, "W-2")
	p.font("Helvetica", "B", 10)
	p.L(x0+70, y0+270, "Wage and Tax Statement")
	p.font("Times", "B", 18)
	p.L(x0+220, y0+272, fmt.Sprint(w.Year))
	p.font("Helvetica", "", 6)
	p.L(x0+300, y0+264, "Department of the Treasury—Internal Revenue Service")
	p.font("Helvetica", "B", 6.5)
	p.L(x0, y0+284, copyLine)
	p.font("Helvetica", "", 5.5)
	p.L(x0, y0+293, "This information is being furnished to the Internal Revenue Service.")
}

const (
	copyB  = "Copy B—To Be Filed With Employee's FEDERAL Tax Return."
	copyC  = "Copy C—For EMPLOYEE'S RECORDS (See Notice to Employee on the back of Copy B.)"
	copy2  = "Copy 2—To Be Filed With Employee's State, City, or Local Income Tax Return."
	w2Prod = "W2 Filing Suite 2025.3"
)

func w2Created(w W2) time.Time { return time.Date(w.Year+1, 1, 24, 0, 0, 0, 0, time.UTC) }

// w2One: the form once on a page; w2Two: Copies B and C; w2Four: B, C, 2, 2
// in the four quarters of a sheet.
func w2One(w W2) []byte {
	p := newP("P", w2Prod, w2Created(w))
	drawW2(p, w, 36, 60, copyB)
	return p.bytes()
}

func w2Two(w W2) []byte {
	p := newP("P", w2Prod, w2Created(w))
	drawW2(p, w, 36, 40, copyB)
	p.SetDashPattern([]float64{4, 3}, 0)
	p.hline(10, 602, 396, 0.5)
	p.SetDashPattern(nil, 0)
	drawW2(p, w, 36, 420, copyC)
	return p.bytes()
}

func w2Four(w W2) []byte {
	p := newP("P", w2Prod, w2Created(w))
	const sc = 0.54
	for i, c := range []string{copyB, copyC, copy2, copy2} {
		x := 12 + float64(i%2)*300
		y := 80 + float64(i/2)*330
		p.TransformBegin()
		p.TransformScale(sc*100, sc*100, x, y)
		drawW2(p, w, x, y, c)
		p.TransformEnd()
	}
	p.SetDashPattern([]float64{4, 3}, 0)
	p.hline(0, 612, 396, 0.5)
	p.SetLineWidth(0.5)
	p.Line(306, 0, 306, 792)
	p.SetDashPattern(nil, 0)
	return p.bytes()
}

// w2Provider: a payroll provider's print: Copy B in its own boxes, and an
// Employee Reference Copy with a summary of how the boxes were figured.
func w2Provider(w W2) []byte {
	css := `body{font-family:"Liberation Sans",sans-serif;font-size:8.5px}.f{border:1.5px solid #000;padding:6px;margin-bottom:12px}
.g{display:grid;grid-template-columns:1fr 1fr 1fr 1fr;border-left:1px solid #000;border-top:1px solid #000}.g div{border-right:1px solid #000;border-bottom:1px solid #000;padding:2px 4px;min-height:22px}
.g b{display:block;font-size:6.5px;font-weight:400}.big{font-size:14px;font-weight:700}table{border-collapse:collapse;width:100%}td{padding:2px 4px;border-bottom:1px solid #ddd}.n{text-align:right}`
	cell := func(cap, v string) string { return "<div><b>" + cap + "</b>" + v + "</div>" }
	m := func(v int64) string {
		if v == 0 {
			return ""
		}
		return money(v)
	}
	form := func(title string) string {
		var b strings.Builder
		fmt.Fprintf(&b, `<div class="f"><div style="display:flex;justify-content:space-between"><span class="big">W-2 Wage and Tax Statement %d</span><span>%s</span></div><div class="g">`, w.Year, title)
		b.WriteString(cell("a Employee's SSN", w.P.SSN()) + cell("b Employer ID number (EIN)", w.Emp.EIN) + cell("1 Wages, tips, other comp.", m(w.Box1)) + cell("2 Federal income tax withheld", m(w.Box2)))
		b.WriteString(cell("c Employer's name, address, and ZIP code", esc(w.Emp.Name)+"<br>"+esc(w.Emp.OneLine())) + cell("d Control number", w.Control) +
			cell("3 Social security wages", m(w.Box3)) + cell("4 Social security tax withheld", m(w.Box4)))
		b.WriteString(cell("e/f Employee's name, address, and ZIP code", esc(w.name())+"<br>"+esc(w.P.Street)+", "+esc(w.P.CityLine())) + cell("13 Retirement plan", map[bool]string{true: "X", false: ""}[w.Retirement]) +
			cell("5 Medicare wages and tips", m(w.Box5)) + cell("6 Medicare tax withheld", m(w.Box6)))
		codes := ""
		for _, c := range w.Codes {
			codes += fmt.Sprintf("%s %s<br>", c.Code, money(w.codes[c.Code]))
		}
		b.WriteString(cell("7 Social security tips", "") + cell("8 Allocated tips", "") + cell("10 Dependent care benefits", "") + cell("12 Codes (a-d)", codes))
		for _, s := range w.States {
			b.WriteString(cell("15 State / Employer's state ID", s.St+" "+s.ID) + cell("16 State wages, tips, etc.", money(s.Wages)) + cell("17 State income tax", money(s.Tax)) + cell("18-20 Local", ""))
		}
		b.WriteString(`</div><div style="font-size:7px;margin-top:3px">Department of the Treasury—Internal Revenue Service</div></div>`)
		return b.String()
	}
	var b strings.Builder
	b.WriteString(form(copyB))
	b.WriteString(form("Employee Reference Copy"))
	fmt.Fprintf(&b, `<div class="f"><b>Summary of your %d W-2 boxes</b><table>
<tr><td>Medicare wages and tips (box 5): pay less section 125 benefits, plus imputed group-term life (box 12 C)</td><td class="n">%s</td></tr>
<tr><td>Less 401(k) deferrals (box 12 D)</td><td class="n">%s</td></tr>
<tr><td>Federal wages (box 1)</td><td class="n">%s</td></tr>
<tr><td>Social security wages (box 3), at most the $176,100 wage base</td><td class="n">%s</td></tr></table>
<p>Prepared by PayBridge Payroll Services on behalf of %s.</p></div>`, w.Year, money(w.Box5), money(w.codes["D"]), money(w.Box1), money(w.Box3), esc(w.Emp.Name))
	return chromiumPDF(page(css, b.String()), w2Created(w))
}

func w2Doc(name, layout, means string, pdf []byte, w W2, copies int, med string) {
	if !want(name) {
		return
	}
	seed := seedOf(name)
	ext, data, medium, how := apply(med, pdf, seed, w2Created(w), strings.ToUpper(w.Emp.Code)+" HR "+w.Emp.Phone)
	t := Truth{Name: name, Layout: layout, MadeBy: means + how, Medium: medium, Kind: "w2", Honest: true, Paystubs: []TStub{}, W2: w.truth(copies)}
	emit(t, ext, data)
}

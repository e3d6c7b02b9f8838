package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// W2Doc is what one W-2 prints.
type W2Doc struct {
	Year            int
	Co              *Company
	P               *Person
	F               W2Figures
	Control         string
	Statutory, Sick bool
	Upper           bool // names and addresses typed in capitals
}

func (w *W2Doc) cs(s string) string {
	if w.Upper {
		return strings.ToUpper(s)
	}
	return s
}

func (w *W2Doc) truth(copies int) *TW2 {
	t := &TW2{TaxYear: fmt.Sprint(w.Year), Copies: copies, EmployeeSSN: w.P.SSN(), EmployerEIN: w.Co.EIN,
		EmployerName: w.cs(w.Co.Name), EmployerAddress: w.cs(w.Co.OneLine()), EmployeeName: w.cs(w.P.Plain()),
		EmployeeAddress: w.cs(w.P.Addr1 + ", " + w.P.CityLine())}
	if w.Control != "" {
		t.ControlNumber = sp(w.Control)
	}
	nz := func(c Cents) *string {
		if c == 0 {
			return nil
		}
		return cp(c)
	}
	t.Box1, t.Box2, t.Box3, t.Box4, t.Box5, t.Box6, t.Box7 = cp(w.F.Box1), cp(w.F.Box2), cp(w.F.Box3), cp(w.F.Box4), cp(w.F.Box5), cp(w.F.Box6), nz(w.F.Box7)
	t.Box12 = []TW2Code{}
	for _, c := range w.F.Box12 {
		t.Box12 = append(t.Box12, TW2Code{c.Code, c.Amount.plain()})
	}
	t.Box13 = TW2Box13{Statutory: w.Statutory, RetirementPlan: w.F.Retirement, SickPay: w.Sick}
	if len(w.F.Box14) > 0 {
		var parts []string
		for _, o := range w.F.Box14 {
			parts = append(parts, o.Label+" "+o.Amount.plain())
		}
		t.Box14 = sp(strings.Join(parts, "; "))
	}
	t.States = []TW2State{}
	for _, s := range w.F.States {
		st := TW2State{State: s.State, Box16: cp(s.Wages), Box17: cp(s.Tax)}
		if s.ID != "" {
			st.EmployerStatID = sp(s.ID)
		}
		if s.Locality != "" {
			st.Box18, st.Box19, st.Box20 = cp(s.LocalWages), cp(s.LocalTax), sp(s.Locality)
		}
		t.States = append(t.States, st)
	}
	return t
}

type fillFont struct {
	Fam  string
	Size float64
	Nf   NumFmt
}

var w2CopyText = map[string][2]string{
	"B": {"Copy B\u2014To Be Filed With Employee's FEDERAL Tax Return.", "This information is being furnished to the Internal Revenue Service."},
	"C": {"Copy C\u2014For EMPLOYEE'S RECORDS (See Notice to Employee on the back of Copy B.)", "This information is being furnished to the Internal Revenue Service. If you are required to file a tax return, a negligence penalty or other sanction may be imposed on you if this income is taxable and you fail to report it."},
	"2": {"Copy 2\u2014To Be Filed With Employee's State, City, or Local Income Tax Return.", ""},
}

// drawW2 draws one copy of Form W-2 (540 × 310 pt before scaling) with its top-left at x0, y0.
func drawW2(p *P, x0, y0, sc float64, w *W2Doc, copy string, ff fillFont) {
	p.TransformBegin()
	p.TransformScale(sc*100, sc*100, x0, y0)
	X := func(x float64) float64 { return x0 + x }
	Y := func(y float64) float64 { return y0 + y }
	p.SetDrawColor(0, 0, 0)
	p.SetTextColor(0, 0, 0)
	p.SetLineWidth(0.6)
	lab := func(x, y float64, s string) {
		p.font("Helvetica", "", 5.6)
		p.T(X(x+2), Y(y+6.5), s)
	}
	box := func(x, y, wd, ht float64) { p.Rect(X(x), Y(y), wd, ht, "D") }
	fill := func(x, y float64, s string, right bool, wd float64) {
		p.font(ff.Fam, "", ff.Size)
		if right {
			p.R(X(x+wd-4), Y(y), s)
		} else {
			p.T(X(x+4), Y(y), s)
		}
	}
	nf := ff.Nf
	amt := func(c Cents) string {
		if c == 0 {
			return ""
		}
		return nf.pos(c)
	}
	// top row
	box(0, 0, 170, 26)
	lab(0, 0, "a  Employee's social security number")
	fill(0, 21, w.P.SSN(), false, 170)
	p.font("Helvetica", "", 6.5)
	p.T(X(176), Y(10), "OMB No. 1545-0008")
	if copy == "B" {
		p.font("Helvetica", "B", 6.5)
		p.T(X(290), Y(9), "Safe, accurate,")
		p.T(X(290), Y(17), "FAST! Use")
		p.font("Helvetica", "B", 11)
		p.T(X(332), Y(18), "e-file")
	}
	if t := w2CopyText[copy][1]; t != "" && copy == "B" {
		p.font("Helvetica", "", 5.2)
		p.T(X(380), Y(9), "This information is being furnished to the")
		p.T(X(380), Y(16), "Internal Revenue Service.")
	}
	// left column
	box(0, 26, 270, 24)
	lab(0, 26, "b  Employer identification number (EIN)")
	fill(0, 45, w.Co.EIN, false, 270)
	box(0, 50, 270, 72)
	lab(0, 50, "c  Employer's name, address, and ZIP code")
	fill(0, 70, w.cs(w.Co.Name), false, 270)
	fill(0, 81, w.cs(w.Co.Addr1), false, 270)
	fill(0, 92, w.cs(w.Co.CityLine()), false, 270)
	box(0, 122, 270, 24)
	lab(0, 122, "d  Control number")
	fill(0, 141, w.Control, false, 270)
	box(0, 146, 270, 96)
	lab(0, 146, "e  Employee's first name and initial")
	p.Line(X(120), Y(146), X(120), Y(170))
	p.Line(X(240), Y(146), X(240), Y(170))
	p.font("Helvetica", "", 5.6)
	p.T(X(122), Y(152.5), "Last name")
	p.T(X(242), Y(152.5), "Suff.")
	first := w.P.First
	if w.P.Middle != "" {
		first += " " + w.P.Middle
	}
	fill(0, 165, w.cs(first), false, 120)
	fill(120, 165, w.cs(w.P.Last), false, 120)
	fill(0, 182, w.cs(w.P.Addr1), false, 270)
	fill(0, 193, w.cs(w.P.CityLine()), false, 270)
	lab(0, 233, "f  Employee's address and ZIP code")
	// right column
	type bx struct {
		n, label string
		v        Cents
		shade    bool
	}
	rows := [][2]bx{
		{{"1", "Wages, tips, other compensation", w.F.Box1, false}, {"2", "Federal income tax withheld", w.F.Box2, false}},
		{{"3", "Social security wages", w.F.Box3, false}, {"4", "Social security tax withheld", w.F.Box4, false}},
		{{"5", "Medicare wages and tips", w.F.Box5, false}, {"6", "Medicare tax withheld", w.F.Box6, false}},
		{{"7", "Social security tips", w.F.Box7, false}, {"8", "Allocated tips", 0, false}},
		{{"9", "", 0, true}, {"10", "Dependent care benefits", 0, false}},
	}
	for i, row := range rows {
		y := 26 + float64(i)*24
		for k, b := range row {
			x := 270 + float64(k)*135
			if b.shade {
				p.fillGray(200)
				p.Rect(X(x), Y(y), 135, 24, "FD")
			} else {
				box(x, y, 135, 24)
			}
			lab(x, y, b.n+"  "+b.label)
			fill(x, y+19, amt(b.v), true, 135)
		}
	}
	box(270, 146, 135, 24)
	lab(270, 146, "11  Nonqualified plans")
	// 13
	box(270, 170, 135, 36)
	lab(270, 170, "13")
	p.font("Helvetica", "", 5)
	cb := []string{"Statutory employee", "Retirement plan", "Third-party sick pay"}
	on := []bool{w.Statutory, w.F.Retirement, w.Sick}
	for i, c := range cb {
		x := 280 + float64(i)*42
		lines := strings.SplitN(c, " ", 2)
		p.T(X(x), Y(178), lines[0])
		p.T(X(x), Y(184), lines[1])
		p.Rect(X(x+10), Y(188), 9, 9, "D")
		if on[i] {
			p.font(ff.Fam, "", 9)
			p.T(X(x+11.5), Y(196), "X")
			p.font("Helvetica", "", 5)
		}
	}
	box(270, 206, 135, 36)
	lab(270, 206, "14  Other")
	for i, o := range w.F.Box14 {
		p.font(ff.Fam, "", min(ff.Size*0.8, 7.5))
		p.T(X(274), Y(214.5+float64(i)*7.6), o.Label)
		p.R(X(400), Y(214.5+float64(i)*7.6), nf.pos(o.Amount))
	}
	for i, n := range []string{"12a", "12b", "12c", "12d"} {
		y := 146 + float64(i)*24
		box(405, y, 135, 24)
		lab(405, y, n)
		p.Line(X(425), Y(y+7), X(425), Y(y+24))
		if i < len(w.F.Box12) {
			c := w.F.Box12[i]
			p.font(ff.Fam, "", ff.Size)
			p.T(X(409), Y(y+19), c.Code)
			p.R(X(536), Y(y+19), nf.pos(c.Amount))
		}
		if i == 0 {
			p.font("Helvetica", "", 5)
			p.T(X(430), Y(y+6.5), "See instructions for box 12")
		}
	}
	// state rows
	cols := []struct {
		x, w  float64
		label string
	}{{0, 28, "15 State"}, {28, 122, "Employer's state ID number"}, {150, 95, "16  State wages, tips, etc."}, {245, 80, "17  State income tax"},
		{325, 90, "18  Local wages, tips, etc."}, {415, 70, "19  Local income tax"}, {485, 55, "20  Locality name"}}
	for _, c := range cols {
		box(c.x, 242, c.w, 42)
		lab(c.x, 242, c.label)
	}
	p.Line(X(0), Y(263), X(540), Y(263))
	for i, s := range w.F.States {
		y := 259 + float64(i)*21
		p.font(ff.Fam, "", ff.Size)
		p.T(X(4), Y(y), s.State)
		p.T(X(32), Y(y), s.ID)
		p.R(X(241), Y(y), amt(s.Wages))
		p.R(X(321), Y(y), amt(s.Tax))
		if s.Locality != "" {
			p.R(X(411), Y(y), amt(s.LocalWages))
			p.R(X(481), Y(y), amt(s.LocalTax))
			p.font(ff.Fam, "", ff.Size*0.8)
			p.T(X(488), Y(y), s.Locality)
		}
	}
	// footer
	p.font("Helvetica", "B", 16)
	p.T(X(0), Y(304), "W-2")
	p.font("Helvetica", "", 6.5)
	p.T(X(0), Y(290), "Form")
	p.font("Helvetica", "B", 10)
	p.T(X(40), Y(300), "Wage and Tax")
	p.T(X(40), Y(310), "Statement")
	p.font("Helvetica", "B", 20)
	p.T(X(150), Y(308), fmt.Sprint(w.Year))
	p.font("Helvetica", "", 6.2)
	p.R(X(540), Y(293), "Department of the Treasury\u2014Internal Revenue Service")
	p.font("Helvetica", "B", 6.2)
	ct := w2CopyText[copy][0]
	if len(ct) > 70 {
		p.font("Helvetica", "B", 5.2)
	}
	p.R(X(540), Y(303), ct)
	p.TransformEnd()
}

func pickFill(r *rand.Rand) fillFont {
	switch r.IntN(5) {
	case 0:
		return fillFont{"Courier", 9.5, NumFmt{}}
	case 1:
		return fillFont{"Helvetica", 9, NumFmt{Commas: true}}
	case 2:
		return fillFont{"Times", 10, NumFmt{Commas: true}}
	case 3:
		return fillFont{"Courier", 10, NumFmt{Commas: true}}
	}
	return fillFont{"Helvetica", 8.5, NumFmt{}}
}

// w2Form draws 1, 2 (B and C) or 4 (B, C, 2, 2) copies of the IRS form on a letter page.
func w2Form(w *W2Doc, copies int, r *rand.Rand, when time.Time) []byte {
	p := newP("P", when, "W-2")
	p.AddPage()
	ff := pickFill(r)
	switch copies {
	case 1:
		drawW2(p, 36, 40, 1, w, "B", ff)
		p.font("Helvetica", "", 7)
		p.T(36, 380, "Notice to Employee: do you have to file? Refer to the Instructions for Forms 1040 and 1040-SR to determine if you are required")
		p.T(36, 389, "to file a tax return. Even if you don't have to file a tax return, you may be eligible for a refund if box 2 shows an amount.")
	case 2:
		drawW2(p, 36, 36, 1, w, "B", ff)
		p.SetDashPattern([]float64{4, 3}, 0)
		p.Line(18, 396, 594, 396)
		p.SetDashPattern([]float64{}, 0)
		drawW2(p, 36, 420, 1, w, "C", ff)
	case 4:
		sc := 0.535
		for i, c := range []string{"B", "C", "2", "2"} {
			x := 13.0 + float64(i%2)*306
			y := 30.0 + float64(i/2)*396
			drawW2(p, x, y, sc, w, c, ff)
		}
		p.SetDashPattern([]float64{4, 3}, 0)
		p.Line(306, 10, 306, 782)
		p.Line(10, 396, 602, 396)
		p.SetDashPattern([]float64{}, 0)
	}
	return p.bytes()
}

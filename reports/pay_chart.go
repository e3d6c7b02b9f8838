package reports

import (
	"fmt"
	"time"

	"payline/domain"
)

// drawPayChart plots gross and net pay against pay date with fpdf's
// vector primitives: the x axis is time (a tick and label on every
// January 1 the paystubs span, and the first pay date), the y axis steps
// by 1, 2, 2.5 or 5 times a power of ten so the series fill the height,
// each series is one path, and points are marked only where they are few
// enough to tell apart.
func drawPayChart(d *pdfDoc, stubs []domain.Paystub, x, y, w, h float64) {
	var dated []domain.Paystub
	for _, s := range stubs {
		if isDate(s.PayDate.String()) {
			dated = append(dated, s)
		}
	}
	if len(dated) == 0 {
		return
	}
	const left, bottom = 22.0, 8.0
	px, pw, ph := x+left, w-left-4, h-bottom-6
	var most int64
	for _, s := range dated {
		most = max(most, s.GrossPayAmount.Amount, s.NetPayAmount.Amount)
	}
	step, lines := axisStep(most)
	top := step * lines
	yOf := func(v int64) float64 { return y + ph - float64(v)/float64(top)*ph }
	first, last := dated[0].PayDateTime(), dated[len(dated)-1].PayDateTime()
	xOf := func(t time.Time) float64 {
		if !last.After(first) {
			return px + pw/2
		}
		return px + float64(t.Sub(first))/float64(last.Sub(first))*pw
	}
	d.SetLineWidth(0.2)
	d.text(7, "", muted)
	for k := int64(0); k <= lines; k++ {
		v := step * k
		d.color(rule, "draw")
		d.Line(px, yOf(v), px+pw, yOf(v))
		d.SetXY(x, yOf(v)-2)
		d.CellFormat(left-2, 4, money(v), "", 0, "R", false, 0, "")
	}
	// Time: a tick and its year on each January 1 the paystubs span, and
	// the first pay date at the start unless a year's label is too close
	// to leave it room.
	tick := func(t time.Time, label string) {
		d.color(rule, "draw")
		d.Line(xOf(t), y, xOf(t), y+ph)
		d.SetXY(xOf(t)-12, y+ph+1)
		d.CellFormat(24, 4, label, "", 0, "C", false, 0, "")
	}
	firstYear := time.Date(first.Year()+1, time.January, 1, 0, 0, 0, 0, time.UTC)
	if !firstYear.After(last) && xOf(firstYear)-xOf(first) < 22 {
		d.color(rule, "draw")
		d.Line(xOf(first), y, xOf(first), y+ph)
	} else {
		tick(first, day(dated[0].PayDate.String()))
	}
	for yr := first.Year() + 1; yr <= last.Year(); yr++ {
		tick(time.Date(yr, time.January, 1, 0, 0, 0, 0, time.UTC), fmt.Sprint(yr))
	}
	for _, series := range []struct {
		c     [3]int
		value func(domain.Paystub) int64
	}{{gross, func(p domain.Paystub) int64 { return p.GrossPayAmount.Amount }}, {netCol, func(p domain.Paystub) int64 { return p.NetPayAmount.Amount }}} {
		d.color(series.c, "draw")
		d.color(series.c, "fill")
		d.SetLineWidth(0.55)
		if len(dated) > 1 {
			d.MoveTo(xOf(dated[0].PayDateTime()), yOf(series.value(dated[0])))
			for _, s := range dated[1:] {
				d.LineTo(xOf(s.PayDateTime()), yOf(series.value(s)))
			}
			d.DrawPath("D")
		}
		if len(dated) <= 60 {
			for _, s := range dated {
				d.Circle(xOf(s.PayDateTime()), yOf(series.value(s)), 0.55, "F")
			}
		}
	}
	ly := y + h - 4
	for i, l := range []struct {
		c    [3]int
		name string
	}{{gross, "Gross pay"}, {netCol, "Net pay"}} {
		lx := px + float64(i)*32
		d.color(l.c, "fill")
		d.Rect(lx, ly+1, 6, 2, "F")
		d.SetXY(lx+7, ly)
		d.text(7.5, "", ink)
		d.CellFormat(24, 4, l.name, "", 0, "L", false, 0, "")
	}
	d.SetY(y + h + 2)
}

// axisStep picks the y axis for values up to most cents: a step of 1,
// 2, 2.5 or 5 times a power of ten (dollars at least), and the number of
// steps (4 to 6) to reach at or above most: the smallest such step, so
// the data fills as much of the height as it can.
func axisStep(most int64) (step, lines int64) {
	if most <= 0 {
		return 100, 4
	}
	for p := int64(100); ; p *= 10 {
		for _, m := range []int64{10, 20, 25, 50} { // tenths of p
			step := p * m / 10
			if n := (most + step - 1) / step; n <= 6 {
				return step, max(n, 4)
			}
		}
	}
}

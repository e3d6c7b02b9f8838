package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

var handFonts = [][2]string{
	{"Breip", "/usr/share/fonts/truetype/breip/Breip.ttf"},
	{"Dkg", "/usr/share/fonts/truetype/fifthhorseman/dkg.ttf"},
	{"Femke", "/usr/share/fonts/truetype/femkeklaver/femkeklaver.ttf"},
}

// A pay book stub: a preprinted grid (green ink) filled in by hand.
func layoutPaybook(s0 *Stub, r *rand.Rand, withYTD bool, employer string) ([]byte, *View) {
	j := s0.Job
	s := relabel(s0, func(cat string, l Line) string {
		switch cat {
		case "tax":
			switch {
			case l.Code == "FIT":
				return "Fed. W/H"
			case l.Code == "SS":
				return "FICA"
			case l.Code == "MED":
				return "Medicare"
			case strings.HasPrefix(l.Code, "SIT_"):
				return "State"
			}
		case "earn":
			return "Gross Pay"
		case "ded":
			return "Other"
		}
		return ""
	})
	emp := j.P.First + " " + j.P.Last
	v := &View{S: s, Employer: employer, Employee: emp,
		Show: Show{EmployerName: true, EmployeeName: true, PayDate: true, PeriodEnd: true, LineYTD: withYTD, GrossYTD: withYTD, NetYTD: withYTD}}
	W, H := 540.0, 252.0
	p := newPSize(W, H, s.Pay.Add(time.Duration(between(r, 10, 18))*time.Hour), "Scan")
	hf := pick(r, handFonts...)
	p.addTTF(hf[0], hf[1])
	p.AddPage()
	green := [3]int{30, 110, 80}
	if r.IntN(2) == 0 {
		green = [3]int{40, 80, 150}
	}
	p.SetDrawColor(green[0], green[1], green[2])
	p.SetTextColor(green[0], green[1], green[2])
	p.SetLineWidth(0.8)
	p.Rect(14, 14, W-28, H-28, "D")
	p.font("Helvetica", "B", 9)
	p.T(24, 30, "EMPLOYEE'S EARNINGS STATEMENT")
	p.font("Helvetica", "", 6)
	p.R(W-24, 30, "DETACH AND RETAIN FOR YOUR RECORDS")
	// header boxes
	p.SetLineWidth(0.5)
	hy := 40.0
	boxes := []struct {
		label string
		x, w  float64
	}{{"EMPLOYEE", 24, 214}, {"PERIOD ENDING", 244, 100}, {"DATE", 350, 90}, {"CHECK NO.", 446, 70}}
	for _, b := range boxes {
		p.Rect(b.x, hy, b.w, 32, "D")
		p.font("Helvetica", "", 5.5)
		p.T(b.x+3, hy+7, b.label)
	}
	// grid
	cols := []string{"HOURS", "RATE", "GROSS PAY", "FED. W/H", "FICA", "MEDICARE", "STATE", "OTHER", "NET PAY"}
	gx, gy := 24.0, 84.0
	lw := 62.0
	cw := (W - 48 - lw) / float64(len(cols))
	p.Rect(gx, gy, W-48, 110, "D")
	p.Line(gx, gy+18, W-24, gy+18)
	p.Line(gx, gy+64, W-24, gy+64)
	for i, c := range cols {
		x := gx + lw + float64(i)*cw
		p.Line(x, gy, x, gy+110)
		p.font("Helvetica", "B", 5.8)
		p.C(x+cw/2, gy+11, c)
	}
	p.font("Helvetica", "B", 5.8)
	p.T(gx+4, gy+44, "THIS PERIOD")
	p.T(gx+4, gy+90, "YEAR TO DATE")
	p.font("Helvetica", "", 5.5)
	p.T(24, H-26, "FORM 62-SP  PAYROLL RECORD")
	p.R(W-24, H-26, "THIS IS A STATEMENT OF EARNINGS AND DEDUCTIONS FOR THE PERIOD SHOWN")

	// employer stamp
	p.SetTextColor(95, 45, 120)
	p.font("Courier", "B", 10)
	p.TransformBegin()
	p.TransformRotate(fbetween(r, -2.5, 2.5), 250, 22)
	p.C(250, 24, strings.ToUpper(employer))
	p.TransformEnd()

	// handwriting
	ink := pick(r, [3]int{20, 30, 110}, [3]int{25, 25, 30}, [3]int{10, 40, 140})
	p.SetTextColor(ink[0], ink[1], ink[2])
	size := fbetween(r, 12.5, 15)
	dollar := r.IntN(3) == 0
	hand := func(x, y float64, txt string, center bool) {
		sz := size * fbetween(r, 0.92, 1.06)
		p.font(hf[0], "", sz)
		for center && p.GetStringWidth(txt) > cw-5 && sz > 6 {
			sz -= 0.5
			p.font(hf[0], "", sz)
		}
		p.TransformBegin()
		p.TransformRotate(fbetween(r, -3, 3), x, y)
		y += fbetween(r, -1.5, 1.5)
		if center {
			p.C(x, y, txt)
		} else {
			p.T(x, y, txt)
		}
		p.TransformEnd()
	}
	money := func(c Cents) string {
		s := fmt.Sprintf("%d.%02d", c/100, c%100)
		if c >= 100000 && r.IntN(2) == 0 {
			s = NumFmt{Commas: true}.pos(c)
		}
		if dollar {
			s = "$" + s
		}
		return s
	}
	hand(boxes[0].x+10, hy+25, emp, false)
	hd := pick(r, "mdyy", "mdY", "mdyy")
	hand(boxes[1].x+boxes[1].w/2, hy+25, dfmt(s.End, hd), true)
	hand(boxes[2].x+boxes[2].w/2, hy+25, dfmt(s.Pay, hd), true)
	hand(boxes[3].x+boxes[3].w/2, hy+25, fmt.Sprint(s.CheckNo), true)
	var reg Line
	for _, l := range s.Earn {
		if l.Cur {
			reg = l
		}
	}
	tax := func(code string) Line {
		for _, l := range s.Tax {
			if l.Code == code || (code == "SIT" && strings.HasPrefix(l.Code, "SIT_")) {
				return l
			}
		}
		return Line{}
	}
	var other, otherY Cents
	for _, l := range s.Ded {
		other += l.Amount
		otherY += l.YTD
	}
	cur := []string{reg.Hours.String(), reg.Rate.r2(), money(s.Gross), money(tax("FIT").Amount), money(tax("SS").Amount), money(tax("MED").Amount), money(tax("SIT").Amount), "", money(s.Net)}
	if strings.HasSuffix(cur[0], ".00") && r.IntN(2) == 0 {
		cur[0] = strings.TrimSuffix(cur[0], ".00")
	}
	if other > 0 {
		cur[7] = money(other)
	} else {
		cur[7] = "-"
	}
	ytd := []string{"", "", money(s.GrossYTD), money(tax("FIT").YTD), money(tax("SS").YTD), money(tax("MED").YTD), money(tax("SIT").YTD), "", money(s.NetYTD)}
	if otherY > 0 {
		ytd[7] = money(otherY)
	}
	for i := range cols {
		x := gx + lw + float64(i)*cw + cw/2
		hand(x, gy+46, cur[i], true)
		if withYTD && ytd[i] != "" {
			hand(x, gy+92, ytd[i], true)
		}
	}
	return p.bytes(), v
}

package main

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"time"
)

// Cents is an amount of money in US cents. All payroll arithmetic is done in Cents.
type Cents int64

// Hours are hundredths of an hour (80.00 h = 8000).
type Hours int64

// Rate is an hourly rate in ten-thousandths of a dollar (36.4000 = 364000).
type Rate int64

// pay returns hours × rate rounded half up to the cent.
func pay(h Hours, r Rate) Cents {
	p := int64(h) * int64(r) // 1e-6 dollars
	if p >= 0 {
		return Cents((p + 5000) / 10000)
	}
	return -Cents((-p + 5000) / 10000)
}

// pct returns c × bp / 10000 (bp in hundredths of a percent) rounded half up.
func pct(c Cents, bp int64) Cents {
	p := int64(c) * bp
	if p >= 0 {
		return Cents((p + 5000) / 10000)
	}
	return -Cents((-p + 5000) / 10000)
}

// pctf returns c × f rounded half up, for rates with more precision than basis points.
func pctf(c Cents, micro int64) Cents { // micro = rate × 1e6
	p := int64(c) * micro
	return Cents((p + 500000) / 1000000)
}

func abs(c Cents) Cents {
	if c < 0 {
		return -c
	}
	return c
}

// plain returns "1628.54" (the truth notation).
func (c Cents) plain() string {
	c = abs(c)
	return fmt.Sprintf("%d.%02d", c/100, c%100)
}

func commas(n int64) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, ch := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(ch)
	}
	return b.String()
}

// NumFmt describes how a layout writes amounts.
type NumFmt struct {
	Commas   bool
	Dollar   bool   // "$" before every amount
	Neg      string // how deductions are written: "" (bare), "lead" (-180.31), "paren" ((180.31)), "trail" (180.31-), "cr" (180.31 DR)
	NoLeadZ  bool   // ".45" instead of "0.45"
	SpaceDol bool   // "$ 1,234.56"
}

func (f NumFmt) abs(c Cents) string {
	c = abs(c)
	whole := int64(c / 100)
	var w string
	if f.Commas {
		w = commas(whole)
	} else {
		w = fmt.Sprint(whole)
	}
	if whole == 0 && f.NoLeadZ {
		w = ""
	}
	s := fmt.Sprintf("%s.%02d", w, c%100)
	if f.Dollar {
		if f.SpaceDol {
			s = "$ " + s
		} else {
			s = "$" + s
		}
	}
	return s
}

// pos writes a positive figure (earnings, gross, net).
func (f NumFmt) pos(c Cents) string {
	if f.Neg == "cr" {
		return f.abs(c) + " CR"
	}
	return f.abs(c)
}

// neg writes a figure that is taken away (tax, deduction) in the layout's notation.
func (f NumFmt) neg(c Cents) string {
	s := f.abs(c)
	if c == 0 && f.Neg != "cr" {
		return s
	}
	switch f.Neg {
	case "lead":
		return "-" + s
	case "paren":
		return "(" + s + ")"
	case "trail":
		return s + "-"
	case "cr":
		return s + " DR"
	}
	return s
}

func (h Hours) String() string { return fmt.Sprintf("%d.%02d", h/100, h%100) }

func (h Hours) fmt(commas_ bool) string {
	if commas_ {
		return commas(int64(h/100)) + fmt.Sprintf(".%02d", h%100)
	}
	return h.String()
}

// r4 writes a rate with four decimals ("36.4000").
func (r Rate) r4() string { return fmt.Sprintf("%d.%04d", r/10000, r%10000) }

// r2 writes a rate with two decimals when it has no more precision, else four.
func (r Rate) r2() string {
	if r%100 == 0 {
		return fmt.Sprintf("%d.%02d", r/10000, (r%10000)/100)
	}
	return r.r4()
}

// r3 writes a rate with three decimals when exact (mileage 0.700), else four.
func (r Rate) r3() string {
	if r%10 == 0 {
		return fmt.Sprintf("%d.%03d", r/10000, (r%10000)/10)
	}
	return r.r4()
}

// Date notations.
var months3 = []string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}

func dfmt(t time.Time, style string) string {
	switch style {
	case "mdy": // 01/20/2026
		return t.Format("01/02/2006")
	case "mdyy": // 1/20/26
		return t.Format("1/2/06")
	case "mdY": // 1/20/2026
		return t.Format("1/2/2006")
	case "mdy2": // 01/20/26
		return t.Format("01/02/06")
	case "mon": // Jan 20, 2026
		return t.Format("Jan 2, 2006")
	case "month": // January 20, 2026
		return t.Format("January 2, 2006")
	case "dmon": // 20-JAN-2026
		return fmt.Sprintf("%02d-%s-%d", t.Day(), months3[t.Month()-1], t.Year())
	case "dmony": // 20-Jan-26
		return t.Format("02-Jan-06")
	case "iso":
		return t.Format("2006-01-02")
	case "dotted": // 01.20.2026
		return t.Format("01.02.2006")
	}
	panic("date style " + style)
}

func iso(t time.Time) string { return t.Format("2006-01-02") }

func date(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC) }

// seeded returns a generator that depends only on the given key.
func seeded(key string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(key))
	return rand.New(rand.NewPCG(h.Sum64(), 0x5eed2026))
}

func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

func between(r *rand.Rand, lo, hi int) int { return lo + r.IntN(hi-lo+1) }

func fbetween(r *rand.Rand, lo, hi float64) float64 { return lo + r.Float64()*(hi-lo) }

// Words for check amounts.
var ones = []string{"", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
	"Eleven", "Twelve", "Thirteen", "Fourteen", "Fifteen", "Sixteen", "Seventeen", "Eighteen", "Nineteen"}
var tens = []string{"", "", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety"}

func words3(n int) string {
	var parts []string
	if n >= 100 {
		parts = append(parts, ones[n/100]+" Hundred")
		n %= 100
	}
	if n >= 20 {
		t := tens[n/10]
		if n%10 != 0 {
			t += "-" + ones[n%10]
		}
		parts = append(parts, t)
	} else if n > 0 {
		parts = append(parts, ones[n])
	}
	return strings.Join(parts, " ")
}

func amountWords(c Cents) string {
	d := int(c / 100)
	var parts []string
	if d >= 1000 {
		parts = append(parts, words3(d/1000)+" Thousand")
		d %= 1000
	}
	if d > 0 {
		parts = append(parts, words3(d))
	}
	if len(parts) == 0 {
		parts = []string{"Zero"}
	}
	return fmt.Sprintf("%s and %02d/100", strings.Join(parts, " "), c%100)
}

func esc(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
	return r.Replace(s)
}

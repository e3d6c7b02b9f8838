package main

import (
	"bytes"
	"time"

	"codeberg.org/go-pdf/fpdf"
)

// P wraps an fpdf document in points, y from the top.
type P struct {
	*fpdf.Fpdf
	tr func(string) string
}

// marks: where a layout drew its key figures (x, y of the baseline's left,
// width, font size), for the forgeries that paint over them.
var marks = map[string][4]float64{}

func newP(orientation, producer string, created time.Time) P {
	return newPSized(fpdf.New(orientation, "pt", "Letter", ""), producer, created)
}

// newPSlip is a page the size of a pay-book slip.
func newPSlip(producer string, created time.Time) P {
	return newPSized(fpdf.NewCustom(&fpdf.InitType{OrientationStr: "P", UnitStr: "pt", Size: fpdf.SizeType{Wd: 612, Ht: 372}}), producer, created)
}

func newPSized(pdf *fpdf.Fpdf, producer string, created time.Time) P {
	pdf.SetCreationDate(created)
	pdf.SetModificationDate(created)
	pdf.SetProducer(producer, false)
	pdf.SetCreator(producer, false)
	pdf.SetCatalogSort(true)
	pdf.SetAutoPageBreak(false, 0)
	pdf.AddPage()
	marks = map[string][4]float64{}
	return P{Fpdf: pdf, tr: pdf.UnicodeTranslatorFromDescriptor("")}
}

func (p P) font(family, style string, size float64) { p.SetFont(family, style, size) }

// L, R and C write text with its baseline at y, left at x, right at x or
// centred on x.
func (p P) L(x, y float64, s string) { p.Text(x, y, p.tr(s)) }
func (p P) R(x, y float64, s string) { p.Text(x-p.GetStringWidth(p.tr(s)), y, p.tr(s)) }
func (p P) C(x, y float64, s string) { p.Text(x-p.GetStringWidth(p.tr(s))/2, y, p.tr(s)) }

// Rm writes right-aligned text and remembers where, under key.
func (p P) Rm(key string, x, y float64, s string) {
	w := p.GetStringWidth(p.tr(s))
	size, _ := p.GetFontSize()
	marks[key] = [4]float64{x - w, y, w, size}
	p.R(x, y, s)
}

func (p P) hline(x1, x2, y, width float64) {
	p.SetLineWidth(width)
	p.Line(x1, y, x2, y)
}

func (p P) box(x, y, w, h, width float64) {
	p.SetLineWidth(width)
	p.Rect(x, y, w, h, "D")
}

func (p P) fill(x, y, w, h float64, r, g, b int) {
	p.SetFillColor(r, g, b)
	p.Rect(x, y, w, h, "F")
}

func (p P) bytes() []byte {
	var b bytes.Buffer
	must(p.Output(&b))
	return b.Bytes()
}

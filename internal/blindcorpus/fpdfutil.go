package main

import (
	"bytes"
	"os"
	"strings"
	"time"

	"codeberg.org/go-pdf/fpdf"
)

// P wraps fpdf with points as units and a few text helpers.
type P struct {
	*fpdf.Fpdf
	tr func(string) string
}

func newP(orient string, when time.Time, title string) *P {
	f := fpdf.New(orient, "pt", "Letter", "")
	f.SetCreationDate(when)
	f.SetModificationDate(when)
	f.SetTitle(title, true)
	f.SetAutoPageBreak(false, 0)
	f.SetMargins(0, 0, 0)
	f.SetCatalogSort(true) // resources in a fixed order: the same run writes the same bytes
	return &P{Fpdf: f, tr: f.UnicodeTranslatorFromDescriptor("")}
}

// font sets a core font (Helvetica, Times, Courier) or a registered UTF-8 font.
func (p *P) font(fam, style string, size float64) { p.SetFont(fam, style, size) }

func (p *P) T(x, y float64, s string) { p.Text(x, y, p.enc(s)) }

func (p *P) R(x, y float64, s string) {
	s = p.enc(s)
	p.Text(x-p.GetStringWidth(s), y, s)
}

func (p *P) C(x, y float64, s string) {
	s = p.enc(s)
	p.Text(x-p.GetStringWidth(s)/2, y, s)
}

var utf8Fonts = map[string]bool{}

func (p *P) enc(s string) string {
	fam := p.GetFontFamily()
	if utf8Fonts[strings.ToLower(fam)] {
		return s
	}
	return p.tr(s)
}

func (p *P) addTTF(fam, file string) {
	b, err := os.ReadFile(file)
	if err != nil {
		fatalf("%v", err)
	}
	p.AddUTF8FontFromBytes(fam, "", b)
	utf8Fonts[strings.ToLower(fam)] = true
}

func (p *P) bytes() []byte {
	var b bytes.Buffer
	if err := p.Output(&b); err != nil {
		fatalf("fpdf: %v", err)
	}
	return b.Bytes()
}

func (p *P) drawGray(g int) { p.SetDrawColor(g, g, g) }
func (p *P) fillGray(g int) { p.SetFillColor(g, g, g) }

func newPSize(w, h float64, when time.Time, title string) *P {
	f := fpdf.NewCustom(&fpdf.InitType{OrientationStr: "P", UnitStr: "pt", Size: fpdf.SizeType{Wd: w, Ht: h}})
	f.SetCreationDate(when)
	f.SetModificationDate(when)
	f.SetTitle(title, true)
	f.SetAutoPageBreak(false, 0)
	f.SetMargins(0, 0, 0)
	f.SetCatalogSort(true) // resources in a fixed order: the same run writes the same bytes
	return &P{Fpdf: f, tr: f.UnicodeTranslatorFromDescriptor("")}
}

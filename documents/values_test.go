package documents

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"payline/domain"
)

func TestParseAmount(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"$1,234.56", 123456, true}, {"1234.56", 123456, true}, {"(12.34)", -1234, true}, {"-12.34", -1234, true},
		{"12.34-", -1234, true}, {"$0.00", 0, true}, {"$ 5.00", 500, true}, {"-$5.00", -500, true}, {"100,532.57", 10053257, true},
		{"1.234,56", 0, false}, {"12.3", 0, false}, {"1,23.45", 0, false}, {"(12.34", 0, false}, {"12", 0, false},
		{"01/15/2026", 0, false}, {"401(k)", 0, false}, {"1e3.00", 0, false}, {"99999999999999999.99", 0, false},
	} {
		got, ok := parseAmount(c.in)
		if ok != c.ok || got != c.want {
			t.Errorf("parseAmount(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestParseDate(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"01/15/2026", "2026-01-15"}, {"1/15/26", "2026-01-15"}, {"Jan 15, 2026", "2026-01-15"}, {"January 15 2026", "2026-01-15"},
		{"2026-01-15", "2026-01-15"}, {"15-Jan-2026", "2026-01-15"}, {"Sept. 3, 2025", "2025-09-03"}, {"02/30/2026", ""},
		{"13/01/2026", ""}, {"2026", ""}, {"Foo 15, 2026", ""},
	} {
		got, _ := parseDate(c.in)
		if got != c.want {
			t.Errorf("parseDate(%q) = %q; want %q", c.in, got, c.want)
		}
	}
	if got := findDates("Pay Period: 01/01/2026 - 01/15/2026"); len(got) != 2 || got[0] != "2026-01-01" || got[1] != "2026-01-15" {
		t.Errorf("a period gives %v", got)
	}
	if got := findDates("01/01/2026-01/15/2026"); len(got) != 2 {
		t.Errorf("a period without spaces gives %v", got)
	}
}

func TestMatchLabel(t *testing.T) {
	for _, c := range []struct {
		in  string
		f   field
		ytd bool
	}{
		{"Gross Pay", fieldGross, false}, {"YTD Gross", fieldGross, true}, {"Gross Pay YTD", fieldGross, true},
		{"Year-to-Date Net Pay", fieldNet, true}, {"Y-T-D Net", fieldNet, true}, {"Net Check", fieldNet, false},
		{"Take Home", fieldNet, false}, {"Check Date:", fieldPayDate, false}, {"Pay Date: 01/15/2026", fieldPayDate, false},
		{"Period Beginning:", fieldPeriodStart, false}, {"Employee ID:", fieldNone, false}, {"Net Pay Distribution", fieldNone, false},
		{"Employee Name: Jane Doe", fieldEmployee, false}, {"Total Earnings", fieldGross, false}, {"FEIN: 12-3456789", fieldEIN, false},
	} {
		f, ytd, _ := matchLabel(c.in)
		if f != c.f || ytd != c.ytd {
			t.Errorf("matchLabel(%q) = %v, %v; want %v, %v", c.in, f, ytd, c.f, c.ytd)
		}
	}
}

// FuzzReadPDF feeds the reader arbitrary bytes as a PDF, seeded with
// corpus stubs and broken PDFs: it never panics, and its only error is
// the inflation bound.
func FuzzReadPDF(f *testing.F) {
	for _, name := range []string{"dev/fpdf-classic-01.pdf", "dev/html-cards-01.pdf", "forged/edited-after-creation.pdf"} {
		b, err := os.ReadFile(filepath.Join(corpusRoot, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Add([]byte("%PDF-1.4\n1 0 obj << /Producer (\\376\\377) /CreationDate (D:2026) >>\nstream\nx\x9c\nendstream\n%%EOF"))
	f.Add([]byte("<</BaseFont /ABCDEF+ /Producer <FEFF00>>> stream\r\n"))
	r := NewReader(WithMaxPages(1))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := r.Read(context.Background(), domain.DocumentPaystub, "application/pdf", data)
		if err != nil && !errors.Is(err, domain.ErrUploadInflatesTooLarge) {
			t.Errorf("error %v", err)
		}
	})
}

// FuzzInterpret feeds the interpreter arbitrary text laid out as words
// on lines (one line a row, words spaced by their length): it never
// panics, whatever labels, figures and dates the text holds.
func FuzzInterpret(f *testing.F) {
	f.Add("Acme\nGross Pay  1,000.00  12,000.00\nNet Pay 800.00\nPay Period 01/01/2026 - 01/15/2026\nEarnings Hours Rate Current YTD\nRegular 80.00 12.50 1,000.00 2,000.00\nTotal")
	f.Add("Gross Pay\nTaxes Current YTD\n$\n( (\n1 Wages, tips, other compensation\n5.00\nc Employer's name\nW-2 2025")
	f.Fuzz(func(t *testing.T, text string) {
		var words []word
		for y, line := range strings.Split(text, "\n") {
			x := 0.0
			for _, w := range strings.Fields(line) {
				words = append(words, word{text: w, x0: x, x1: x + 5*float64(len(w)), y0: 12 * float64(y), y1: 12*float64(y) + 10, page: 1, conf: 1})
				x += 5*float64(len(w)) + 4
			}
		}
		doc := buildLayout(deskew(words), textGap)
		readPaystub(doc, false)
		readW2(doc, false)
	})
}

// TestW2TaxByStatutoryRate: a tax box whose figure the layout did not
// place (here printed on the caption line of another box, out of its
// own) is the one figure on the page at its wages' statutory rate; a
// box read as a figure its wages contradict is replaced by it; with two
// candidates nothing is decided.
func TestW2TaxByStatutoryRate(t *testing.T) {
	read := func(text string) *domain.W2Boxes {
		t.Helper()
		var words []word
		for y, line := range strings.Split(text, "\n") {
			x := 0.0
			for _, w := range strings.Split(line, " ") {
				if w == "" {
					x += 20
					continue
				}
				words = append(words, word{text: w, x0: x, x1: x + 5*float64(len(w)), y0: 12 * float64(y), y1: 12*float64(y) + 10, page: 1, conf: 1})
				x += 5*float64(len(w)) + 4
			}
		}
		w, _, _, _ := readW2(buildLayout(deskew(words), textGap), false)
		return w.Boxes
	}
	form := "3 Social security wages\n50,000.00\n5 Medicare wages and tips\n50,000.00\n%s"
	b := read(fmt.Sprintf(form, "Summary 3,100.00 725.00"))
	if b.Box4 == nil || *b.Box4 != 310000 || b.Box6 == nil || *b.Box6 != 72500 {
		t.Errorf("box 4 %v and box 6 %v, want 3,100.00 and 725.00 by their rates", b.Box4, b.Box6)
	}
	b = read(fmt.Sprintf(form, "Summary 3,100.00 3,100.01 725.00"))
	if b.Box4 != nil {
		t.Errorf("box 4 %v of two candidates, want none", *b.Box4)
	}
}

func TestBox12CaptionEnd(t *testing.T) {
	for _, c := range []struct {
		text, letter string
		want         int
	}{
		{"12a See instructions for box 12", "a", 1}, {"12 b", "b", 2}, {"Box 12c.", "c", 2}, {"l2d D 5.00", "d", 1},
		{"12a", "b", -1}, {"112a", "a", -1}, {"12", "a", -1},
	} {
		if got := box12CaptionEnd(strings.Fields(c.text), c.letter); got != c.want {
			t.Errorf("box12CaptionEnd(%q, %s) = %d, want %d", c.text, c.letter, got, c.want)
		}
	}
}

func TestDeclaredPixels(t *testing.T) {
	for dict, want := range map[string]int64{
		"/Type /XObject /Subtype /Image /Width 2000 /Height 3000": 6_000_000,
		"/Width 5 0 R /Height 3000":                               0,
		"/Width 9999999999999999999999 /Height 9999999999999999":  1_000_000 * 1_000_000,
		"/Height 40": 0,
	} {
		if got := declaredPixels([]byte(dict)); got != want {
			t.Errorf("declaredPixels(%q) = %d, want %d", dict, got, want)
		}
	}
}

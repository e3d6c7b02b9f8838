// Command corpusgen writes the paystub corpus the documents reader is
// measured on (testdata/documents): synthetic people and employers whose
// figures hold together, rendered in several layouts by different means
// (fpdf in several fonts and arrangements, HTML printed by headless
// Chromium, Payline's own renderer, and scanned-looking pictures of
// them), each file beside its truth in JSON. It is run by hand from the
// repository's root, never by tests:
//
//	go run ./documents/internal/corpusgen
//
// It needs chromium, libreoffice-writer and poppler-utils (pdftoppm). The same run writes
// the same files, but Chromium's own bytes may change with its version.
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"payline/domain"
	"payline/reports"
)

// layout is one way of drawing a paystub.
type layout struct {
	name, means string
	render      func(s stub, dir string) ([]byte, error)
	// scanOf, for pictures: the layout photographed, at what resolution,
	// as JPEG or PNG.
	ext string
}

func main() {
	root := filepath.Join("testdata", "documents")
	for _, d := range []string{"dev", "heldout", "forged", "w2"} {
		if err := os.RemoveAll(filepath.Join(root, d)); err != nil {
			log.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			log.Fatal(err)
		}
	}
	work, err := os.MkdirTemp("", "corpusgen-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(work)

	classic := layout{name: "fpdf-classic", means: "fpdf, Helvetica", ext: "pdf",
		render: func(s stub, _ string) ([]byte, error) { return renderClassic(s, "01/02/2006") }}
	boxes := layout{name: "fpdf-boxes", means: "fpdf, Times", ext: "pdf", render: func(s stub, _ string) ([]byte, error) { return renderBoxes(s) }}
	mono := layout{name: "fpdf-mono", means: "fpdf, Courier", ext: "pdf", render: func(s stub, _ string) ([]byte, error) { return renderMono(s) }}
	own := layout{name: "payline", means: "Payline's reports.RenderPaystub (fpdf)", ext: "pdf", render: renderOwn}
	cards := layout{name: "html-cards", means: "HTML printed by headless Chromium", ext: "pdf",
		render: func(s stub, dir string) ([]byte, error) { return printHTML(htmlCards(s), dir, s.PayDate) }}
	summary := layout{name: "html-summary", means: "HTML printed by headless Chromium", ext: "pdf",
		render: func(s stub, dir string) ([]byte, error) { return printHTML(htmlSummary(s), dir, s.PayDate) }}
	writer := layout{name: "writer-advice", means: "HTML converted by LibreOffice Writer (soffice --headless)", ext: "pdf",
		render: func(s stub, dir string) ([]byte, error) { return convertWithWriter(writerAdvice(s), dir, s.PayDate) }}
	side := layout{name: "fpdf-side-by-side", means: "fpdf, Times and Helvetica, landscape", ext: "pdf",
		render: func(s stub, _ string) ([]byte, error) { return renderSideBySide(s) }}
	public := layout{name: "html-public", means: "HTML printed by headless Chromium", ext: "pdf",
		render: func(s stub, dir string) ([]byte, error) { return printHTML(htmlPublic(s), dir, s.PayDate) }}
	scan := func(name string, of layout, dpi int, jpeg bool) layout {
		ext := "png"
		if jpeg {
			ext = "jpg"
		}
		return layout{name: name, means: fmt.Sprintf("%s, rasterized at %d dpi by pdftoppm, turned, softened and speckled (%s)", of.name, dpi, ext), ext: ext,
			render: func(s stub, dir string) ([]byte, error) {
				pdf, err := of.render(s, dir)
				if err != nil {
					return nil, err
				}
				return photocopy(pdf, dir, dpi, uint64(s.PayDate.Unix()), jpeg)
			}}
	}
	// Dev layouts put three files in dev and one in heldout; the held-out
	// layouts appear only in heldout.
	plan := []struct {
		l            layout
		dev, heldout int
	}{
		{classic, 3, 1}, {boxes, 3, 1}, {mono, 3, 1}, {own, 3, 1}, {cards, 3, 1}, {summary, 3, 1},
		{scan("scan-classic", classic, 200, false), 2, 1}, {scan("scan-cards", cards, 200, true), 2, 1},
		{side, 0, 4}, {public, 0, 4}, {scan("scan-public", public, 200, true), 0, 2},
		{writer, 3, 1}, // last, so adding it left the earlier files as they were
	}
	seed := uint64(0)
	for _, p := range plan {
		for i := range p.dev + p.heldout {
			seed++
			r := rand.New(rand.NewPCG(seed, 40))
			s := newStub(r, 1+r.IntN(20))
			dir := "dev"
			if i >= p.dev {
				dir = "heldout"
			}
			name := fmt.Sprintf("%s-%02d", p.l.name, i+1)
			t := s.truth(p.l.name, p.l.means)
			if p.l.name == "payline" {
				t.Employee, t.EmployerEIN = "", "" // Payline's stub prints neither
			}
			write(filepath.Join(root, dir, name), p.l, s, t, work)
		}
	}
	forge(filepath.Join(root, "forged"), classic, work)
	writeW2s(filepath.Join(root, "w2"), work)
}

// write renders a stub in a layout and writes the file and its truth.
func write(base string, l layout, s stub, t truth, work string) {
	data, err := l.render(s, work)
	if err != nil {
		log.Fatalf("%s: %v", base, err)
	}
	if err := os.WriteFile(base+"."+l.ext, data, 0o644); err != nil {
		log.Fatal(err)
	}
	writeTruth(base, t)
}

func writeTruth(base string, t truth) { writeTruthOf(base, t) }

func writeTruthOf(base string, t any) {
	b, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(base+".json", append(b, '\n'), 0o644); err != nil {
		log.Fatal(err)
	}
}

// renderOwn draws the stub with Payline's own paystub renderer.
func renderOwn(s stub, _ string) ([]byte, error) {
	conv := func(ls []line, cat func(string) string) []domain.PayLine {
		var out []domain.PayLine
		for _, l := range ls {
			if l.Amount == 0 {
				continue
			}
			out = append(out, domain.PayLine{Name: l.Name, Category: cat(l.Name), Amount: domain.USD(l.Amount)})
		}
		return out
	}
	cat := func(n string) string { return strings.ToLower(strings.ReplaceAll(n, " ", "_")) }
	d := func(t time.Time) domain.Date { return domain.Date(t.Format(time.DateOnly)) }
	return reports.RenderPaystub(domain.Paystub{ID: "corpus-" + s.EmployeeID, EmployerName: s.Employer, PayDate: d(s.PayDate),
		PayPeriodStart: d(s.Start), PayPeriodEnd: d(s.End), Currency: domain.CurrencyUSD, CreatedAt: s.PayDate,
		GrossPayAmount: domain.USD(s.Gross), NetPayAmount: domain.USD(s.Net), GrossPayYTD: domain.USD(s.GrossYTD), NetPayYTD: domain.USD(s.NetYTD),
		TotalTaxes: domain.USD(s.TaxesTotal), TotalDeductions: domain.USD(s.DedsTotal),
		Earnings: conv(s.Earnings, cat), Taxes: conv(s.Taxes, cat), Deductions: conv(s.Deds, cat)})
}

// classicNetY is where renderClassic draws the period's net pay, in
// points from the top.
func classicNetY(s stub) float64 {
	y := 160.0
	for _, n := range []int{len(s.Earnings), len(s.Taxes), len(s.Deds)} {
		y += 18 + 13*float64(n) + 14
	}
	return y + 18 + 3*13
}

// forge writes stubs whose figures or files give them away, each with
// the reason code the domain's forgery checks should give.
func forge(dir string, l layout, work string) {
	person := func(seed uint64, k int) stub { return newStub(rand.New(rand.NewPCG(seed, 41)), k) }
	one := func(name, code string, s stub) {
		t := s.truth(l.name, l.means)
		t.Fraud = code
		write(filepath.Join(dir, name), l, s, t, work)
	}
	pair := func(name, code string, a, b stub) {
		ta, tb := a.truth(l.name, l.means), b.truth(l.name, l.means)
		ta.Pair, tb.Pair, tb.Fraud = name+"-b.pdf", name+"-a.pdf", code
		write(filepath.Join(dir, name+"-a"), l, a, ta, work)
		write(filepath.Join(dir, name+"-b"), l, b, tb, work)
	}

	s := person(1, 6)
	s.Net += 25000 // net no longer gross - taxes - deductions
	s.NetYTD += 25000
	one("arithmetic", "ARITHMETIC_MISMATCH", s)

	s = person(2, 1)
	s.GrossYTD = s.Gross - 40000
	one("period-exceeds-ytd", "PERIOD_EXCEEDS_YTD", s)

	a, b := person(3, 7), person(3, 8)
	b.GrossYTD, b.NetYTD = a.GrossYTD, a.NetYTD // the next stub's YTD did not grow
	pair("ytd-not-cumulative", "YTD_NOT_CUMULATIVE", a, b)

	a, b = person(4, 4), person(4, 5)
	b.PayDate = a.PayDate.AddDate(0, 0, 9) // nine days after the last, on a biweekly or semimonthly schedule
	pair("pay-date-off-schedule", "PAY_DATE_OFF_SCHEDULE", a, b)

	s = person(5, 3)
	s.Employer, s.EIN, s.Address = "Zenith Offshore Holdings Ltd", "00-0000000", "PO Box 1, Road Town"
	one("employer-unknown", "EMPLOYER_UNKNOWN", s)

	s = person(6, 9)
	s.Net += 50000
	s.NetFont = "Courier"
	one("fonts-inconsistent", "FONTS_INCONSISTENT", s)

	s = person(7, 5)
	pdf, err := l.render(s, work)
	if err != nil {
		log.Fatal(err)
	}
	edited, err := appendEdit(pdf, 400, classicNetY(s), "$"+money(s.Net+80000), "PDF Editor Pro 9.1", s.PayDate, s.PayDate.AddDate(0, 0, 3))
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "edited-after-creation.pdf"), edited, 0o644); err != nil {
		log.Fatal(err)
	}
	// The truth is what a person sees: the net the update drew over the
	// white box, $800 more; the text layer keeps the original under it.
	t := s.truth(l.name, l.means+", then an incremental update that paints over the net pay and draws another")
	t.Net += 80000
	t.Fraud = "TEXT_LAYER_MISMATCH"
	writeTruth(filepath.Join(dir, "edited-after-creation"), t)

	a = person(8, 10)
	b = a
	b.PayDate, b.Start, b.End = a.PayDate.AddDate(0, 0, 14), a.Start.AddDate(0, 0, 14), a.End.AddDate(0, 0, 14)
	pair("figures-reused", "FIGURES_REUSED", a, b)
}

package documents

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"payline/domain"
)

// TestW2Corpus: every W-2 of the corpus (Payline's rendering, the IRS
// form's grid, a scan of it) gives boxes 1, 2, 3 and 5 to the cent, the
// employer, its EIN where printed, and the tax year.
func TestW2Corpus(t *testing.T) {
	r := NewReader()
	requirePoppler(t, r)
	truths, _ := filepath.Glob(filepath.Join(corpusRoot, "w2", "*.json"))
	if len(truths) == 0 {
		t.Fatal("no W-2s in the corpus")
	}
	for _, tp := range truths {
		t.Run(filepath.Base(tp), func(t *testing.T) {
			var want struct {
				Employer, EmployerEIN, TaxYear string
				Box1                           int64  `json:"box1_wages"`
				Box2                           int64  `json:"box2_federal_tax"`
				Box3                           int64  `json:"box3_social_security_wages"`
				Box5                           int64  `json:"box5_medicare_wages"`
				EIN                            string `json:"employer_ein"`
				Year                           string `json:"tax_year"`
			}
			b, _ := os.ReadFile(tp)
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			base := strings.TrimSuffix(tp, ".json")
			path, ct := base+".pdf", "application/pdf"
			if _, err := os.Stat(base + ".jpg"); err == nil {
				path, ct = base+".jpg", "image/jpeg"
				requireOCR(t, r)
			}
			data, _ := os.ReadFile(path)
			got, err := r.Read(context.Background(), domain.DocumentW2, ct, data)
			if err != nil || got.Data.W2 == nil {
				t.Fatalf("read %v, %v", got, err)
			}
			w := got.Data.W2
			for _, c := range []struct{ name, want, got string }{
				{"box 1", domain.USD(want.Box1).Decimal(), w.TotalWages.Decimal()},
				{"box 2", domain.USD(want.Box2).Decimal(), w.FederalTaxes.Decimal()},
				{"box 3", domain.USD(want.Box3).Decimal(), w.SocialSecurityWages.Decimal()},
				{"box 5", domain.USD(want.Box5).Decimal(), w.MedicareWages.Decimal()},
				{"employer", want.Employer, w.EmployerName},
				{"EIN", want.EIN, w.EmployerEIN},
				{"tax year", want.Year, w.TaxYear},
			} {
				if c.want != c.got {
					t.Errorf("%s: want %q, got %q", c.name, c.want, c.got)
				}
			}
		})
	}
}

// TestPictureWithoutOCR: a reader whose tesseract is missing answers a
// picture, and a scanned PDF, with no data and a warning that OCR is not
// installed.
func TestPictureWithoutOCR(t *testing.T) {
	r := NewReader(WithTesseract(filepath.Join(t.TempDir(), "no-tesseract-here")))
	if r.OCR() {
		t.Fatal("a reader with a missing tesseract says it has OCR")
	}
	pic, err := os.ReadFile(filepath.Join(corpusRoot, "dev", "scan-classic-01.png"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Read(context.Background(), domain.DocumentPaystub, "image/png", pic)
	if err != nil || got.Data.Read() || got.File.OCR {
		t.Fatalf("got %+v, %v; want nothing read", got, err)
	}
	if len(got.Warnings) != 1 || got.Warnings[0].Field != "parsed_data" || got.Warnings[0].Status != "unparsable" ||
		!strings.Contains(got.Warnings[0].Message, "OCR is not installed on this server") {
		t.Errorf("warnings %+v; want one on parsed_data saying OCR is not installed", got.Warnings)
	}
}

// inflatingPDF is a PDF of n streams that each inflate to size bytes of
// zeros from a few kilobytes: a decompression bomb when n*size is large.
func inflatingPDF(n, size int) []byte {
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	_, _ = w.Write(make([]byte, size))
	_ = w.Close()
	var pdf bytes.Buffer
	pdf.WriteString("%PDF-1.4\n")
	for i := range n {
		fmt.Fprintf(&pdf, "%d 0 obj << /Length %d /Filter /FlateDecode >>\nstream\n", i+1, z.Len())
		pdf.Write(z.Bytes())
		pdf.WriteString("\nendstream\nendobj\n")
	}
	return pdf.Bytes()
}

// TestInflationIsBounded: a PDF of many small streams that inflate to
// megabytes each is read only up to domain.MaxUploadInflatedBytes in all
// and answered with ErrUploadInflatesTooLarge; one that inflates to the
// bound exactly is read (as nothing: it is no paystub).
func TestInflationIsBounded(t *testing.T) {
	r := NewReader()
	bomb := inflatingPDF(12, 8<<20) // 96 MiB inflated, from under 100 KB
	scan, err := scanPDF(bomb, domain.MaxUploadInflatedBytes)
	if !errors.Is(err, domain.ErrUploadInflatesTooLarge) || scan.inflated > domain.MaxUploadInflatedBytes+1 {
		t.Errorf("a %d-byte PDF inflated %d bytes (bound %d): %v", len(bomb), scan.inflated, domain.MaxUploadInflatedBytes, err)
	}
	if got, err := r.Read(context.Background(), domain.DocumentPaystub, "application/pdf", bomb); !errors.Is(err, domain.ErrUploadInflatesTooLarge) || got.Data.Read() {
		t.Errorf("the bomb read as %+v, %v", got.Data, err)
	}
	under := inflatingPDF(2, domain.MaxUploadInflatedBytes/2)
	if got, err := r.Read(context.Background(), domain.DocumentPaystub, "application/pdf", under); err != nil || got.Data.Read() {
		t.Errorf("a PDF inflating to the bound: %+v, %v", got.Data, err)
	}
}

// TestForgedFileFacts: the reader fills the file facts the domain's
// forgery checks read: a figure redrawn in another font shows two font
// families; an incremental update shows a revision, the editor among the
// producers and a modification after creation; an untouched stub shows
// none of these. The forged figures themselves are read as printed.
func TestForgedFileFacts(t *testing.T) {
	r := NewReader()
	requirePoppler(t, r)
	read := func(name string) domain.ParsedUpload {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(corpusRoot, "forged", name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.Read(context.Background(), domain.DocumentPaystub, "application/pdf", data)
		if err != nil || got.Data.Paystub == nil {
			t.Fatalf("%s: %+v, %v", name, got, err)
		}
		return got
	}
	fonts := read("fonts-inconsistent.pdf").File.Fonts
	if !slices.Contains(fonts, "Helvetica") || !slices.Contains(fonts, "Courier") {
		t.Errorf("fonts of the redrawn stub: %v; want Helvetica and Courier", fonts)
	}
	edited := read("edited-after-creation.pdf").File
	if edited.Revisions != 1 || !slices.Contains(edited.Producers, "PDF Editor Pro 9.1") || len(edited.Producers) < 2 ||
		edited.Producer != "PDF Editor Pro 9.1" || !edited.Modified.After(edited.Created) {
		t.Errorf("edited stub's facts: %+v; want one revision, the editor as the latest of two producers, modified after created", edited)
	}
	plain := read("arithmetic.pdf")
	if f := plain.File; f.Revisions != 0 || len(f.Producers) != 1 || len(f.Fonts) != 2 || f.Created.IsZero() || f.OCR {
		t.Errorf("a stub made in one go: %+v; want no revision, one producer, Helvetica in two weights, a creation date", f)
	}
	p := plain.Data.Paystub
	if p.GrossPayAmount == nil || p.NetPayAmount == nil || p.TotalTaxes == nil || p.TotalDeductions == nil ||
		*p.GrossPayAmount-*p.TotalTaxes-*p.TotalDeductions == *p.NetPayAmount {
		t.Errorf("the arithmetic forgery reads as adding up: %+v", p)
	}
}

// TestForgedCorpusReads: every forged file reads, with the figures its
// truth prints (the forgery is in the figures, not in the reading).
func TestForgedCorpusReads(t *testing.T) {
	r := NewReader()
	for _, f := range loadCorpus(t, "forged") {
		got := readCorpusFile(t, r, f)
		for _, fr := range scoredFields(f.truth, got.Data.Paystub) {
			if !fr.ok() {
				t.Errorf("%s: %s want %q got %q", filepath.Base(f.path), fr.name, fr.want, fr.got)
			}
		}
		if p := got.Data.Paystub; p.TotalTaxes == nil || *p.TotalTaxes != f.truth.TotalTaxes || p.TotalDeductions == nil || *p.TotalDeductions != f.truth.TotalDeductions {
			t.Errorf("%s: totals %s, %s; want %d, %d", filepath.Base(f.path), cents(p.TotalTaxes), cents(p.TotalDeductions), f.truth.TotalTaxes, f.truth.TotalDeductions)
		}
	}
}

// TestUnreadable: what is not a paystub or W-2 in a readable file gives
// no data and a warning on parsed_data, never an error.
func TestUnreadable(t *testing.T) {
	r := NewReader()
	for _, c := range []struct {
		name, docType, ct string
		data              []byte
	}{
		{"garbage PDF", domain.DocumentPaystub, "application/pdf", []byte("%PDF-1.4\nnot really\n%%EOF")},
		{"text file", domain.DocumentPaystub, "text/plain", []byte("hello")},
		{"deposit form", "direct_deposit_form", "application/pdf", []byte("%PDF-1.4")},
	} {
		got, err := r.Read(context.Background(), c.docType, c.ct, c.data)
		if err != nil || got.Data.Read() || len(got.Warnings) == 0 || got.Warnings[0].Field != "parsed_data" {
			t.Errorf("%s: %+v, %v", c.name, got, err)
		}
	}
}

// TestMissingFieldsWarn: a paystub that prints no pay date or YTD is read
// for what it has, with a warning naming each missing field.
func TestMissingFieldsWarn(t *testing.T) {
	doc := buildLayout([]word{
		{text: "Acme", x0: 10, y0: 10, x1: 40, y1: 20, page: 1, conf: 1}, {text: "Corp", x0: 43, y0: 10, x1: 70, y1: 20, page: 1, conf: 1},
		{text: "Gross", x0: 10, y0: 40, x1: 40, y1: 50, page: 1, conf: 1}, {text: "Pay", x0: 43, y0: 40, x1: 60, y1: 50, page: 1, conf: 1},
		{text: "$1,000.00", x0: 200, y0: 40, x1: 250, y1: 50, page: 1, conf: 1},
		{text: "Net", x0: 10, y0: 60, x1: 30, y1: 70, page: 1, conf: 1}, {text: "Pay", x0: 33, y0: 60, x1: 50, y1: 70, page: 1, conf: 1},
		{text: "800.00", x0: 210, y0: 60, x1: 250, y1: 70, page: 1, conf: 1},
	}, textGap)
	read := readPaystub(doc, false)
	p, warnings := read.stub, read.warnings
	if p.EmployerName != "Acme Corp" || cents(p.GrossPayAmount) != "1000.00" || cents(p.NetPayAmount) != "800.00" {
		t.Errorf("read %+v", p)
	}
	var fields []string
	for _, w := range warnings {
		fields = append(fields, w.Field)
	}
	for _, f := range []string{"pay_date", "gross_pay_ytd", "net_pay_ytd", "employee_name"} {
		if !slices.Contains(fields, f) {
			t.Errorf("no warning for %s: %v", f, fields)
		}
	}
	if slices.Contains(fields, "gross_pay_amount") {
		t.Errorf("a warning for a field that was read: %v", fields)
	}
}

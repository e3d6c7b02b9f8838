package documents

import (
	"bytes"
	"context"
	"fmt"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"payline/domain"
)

// scannedPDF wraps a JPEG in a one-page PDF that draws only the picture:
// what a scanner or a phone's "save as PDF" makes.
func scannedPDF(t *testing.T, jpg []byte) []byte {
	t.Helper()
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(jpg))
	if err != nil {
		t.Fatal(err)
	}
	content := "q 612 0 0 792 0 0 cm /Im0 Do Q"
	var b bytes.Buffer
	offsets := []int{}
	obj := func(body string, stream []byte) {
		offsets = append(offsets, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s\n", len(offsets), body)
		if stream != nil {
			b.WriteString("stream\n")
			b.Write(stream)
			b.WriteString("\nendstream\n")
		}
		b.WriteString("endobj\n")
	}
	b.WriteString("%PDF-1.4\n")
	obj("<< /Type /Catalog /Pages 2 0 R >>", nil)
	obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>", nil)
	obj("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>", nil)
	obj(fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode /Length %d >>",
		cfg.Width, cfg.Height, len(jpg)), jpg)
	obj(fmt.Sprintf("<< /Length %d >>", len(content)), []byte(content))
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, o := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)
	return b.Bytes()
}

// TestScannedPDF: a PDF that draws no text, only a scan, is rendered by
// pdftoppm and read through OCR, to the same figures as the picture.
func TestScannedPDF(t *testing.T) {
	r := NewReader()
	requirePoppler(t, r)
	requireOCR(t, r)
	f := corpusFile{path: filepath.Join(corpusRoot, "dev", "scan-cards-01.jpg")}
	for _, c := range loadCorpus(t, "dev") {
		if c.path == f.path {
			f = c
		}
	}
	jpg, err := os.ReadFile(f.path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Read(context.Background(), domain.DocumentPaystub, "application/pdf", scannedPDF(t, jpg))
	if err != nil || got.Data.Paystub == nil || !got.File.OCR {
		t.Fatalf("read %+v, %v; want a paystub read by OCR", got, err)
	}
	var misses []string
	for _, fr := range scoredFields(f.truth, got.Data.Paystub) {
		if !fr.ok() {
			misses = append(misses, fmt.Sprintf("%s want %q got %q", fr.name, fr.want, fr.got))
		}
	}
	if len(misses) > 0 {
		t.Errorf("the scanned PDF: %s", strings.Join(misses, "; "))
	}
	without := NewReader(WithTesseract(filepath.Join(t.TempDir(), "none")))
	got, err = without.Read(context.Background(), domain.DocumentPaystub, "application/pdf", scannedPDF(t, jpg))
	if err != nil || got.Data.Read() || len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0].Message, "OCR is not installed") {
		t.Errorf("a scanned PDF without tesseract: %+v, %v", got, err)
	}
}

package documents

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"payline/domain"
)

// benchRead reads one corpus file b.N times: the whole of ParseUpload,
// programs included. Each file is one page, so ns/op is per page.
func benchRead(b *testing.B, r *Reader, name, contentType string) {
	data, err := os.ReadFile(filepath.Join(corpusRoot, name))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	before := cpuTime()
	for b.Loop() {
		got, err := r.Read(context.Background(), domain.DocumentPaystub, contentType, data)
		if err != nil || got.Data.Paystub == nil || got.Data.Paystub.NetPayAmount == nil {
			b.Fatalf("%s: %+v, %v", name, got, err)
		}
	}
	// Wall time (ns/op) waits on a shared machine's other work; CPU time,
	// this process's and the programs it ran, is the page's own cost.
	b.ReportMetric(float64(cpuTime()-before)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the user and system time of this process and of its
// finished children.
func cpuTime() time.Duration {
	var self, children syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children)
	var total time.Duration
	for _, tv := range []syscall.Timeval{self.Utime, self.Stime, children.Utime, children.Stime} {
		total += time.Duration(tv.Nano())
	}
	return total
}

// BenchmarkReadTextPDF: a one-page paystub with a text layer (fpdf and
// Chromium's): pdftotext and the interpreter.
func BenchmarkReadTextPDF(b *testing.B) {
	r := NewReader()
	b.Run("fpdf", func(b *testing.B) { benchRead(b, r, "dev/fpdf-classic-01.pdf", "application/pdf") })
	b.Run("chromium", func(b *testing.B) { benchRead(b, r, "dev/html-cards-01.pdf", "application/pdf") })
}

// BenchmarkReadOCR: a one-page scanned paystub picture (1700x2200, 200
// dpi): tesseract on one thread and the interpreter.
func BenchmarkReadOCR(b *testing.B) {
	r := NewReader()
	requireOCR(b, r)
	b.Run("png", func(b *testing.B) { benchRead(b, r, "dev/scan-classic-01.png", "image/png") })
	b.Run("jpeg", func(b *testing.B) { benchRead(b, r, "dev/scan-cards-01.jpg", "image/jpeg") })
}

// BenchmarkInterpretPage: the reader's own work on a text page, without
// the programs: the bounded scan of the PDF's bytes, and the layout and
// interpretation of its words (extracted once by pdftotext).
func BenchmarkInterpretPage(b *testing.B) {
	r := NewReader()
	path := filepath.Join(corpusRoot, "dev", "html-cards-01.pdf")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	words, _, err := r.textLayerWords(b.Context(), path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := scanPDF(data, domain.MaxUploadInflatedBytes); err != nil {
			b.Fatal(err)
		}
		if p := readPaystub(buildLayout(words, textGap), false).stub; p.NetPayAmount == nil {
			b.Fatal("no net pay")
		}
	}
}

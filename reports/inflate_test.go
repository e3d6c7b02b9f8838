package reports

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"testing"

	"payline/domain"
)

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

// TestUploadInflationIsBounded: an uploaded PDF of many small streams that
// each inflate to megabytes of zeros (once up to 8 MiB per stream, for any
// number of streams) is read only up to domain.MaxUploadInflatedBytes in
// all and refused with ErrUploadInflatesTooLarge; one that inflates to
// just under the bound is read (as nothing: it is no paystub), and a real
// paystub PDF still parses.
func TestUploadInflationIsBounded(t *testing.T) {
	bomb := inflatingPDF(12, 8<<20) // 96 MiB inflated, from under 100 KB
	texts, inflated, err := pdfTexts(bomb, domain.MaxUploadInflatedBytes)
	if !errors.Is(err, domain.ErrUploadInflatesTooLarge) || inflated > domain.MaxUploadInflatedBytes+1 || texts != nil {
		t.Errorf("a %d-byte upload inflated %d bytes (bound %d), gave %d texts and %v", len(bomb), inflated, domain.MaxUploadInflatedBytes, len(texts), err)
	}
	svc := &Service{}
	if got, err := svc.ParseUpload(domain.DocumentPaystub, "application/pdf", bomb); !errors.Is(err, domain.ErrUploadInflatesTooLarge) || got.Data.Read() {
		t.Errorf("the bomb parsed as %v, %v", got, err)
	}
	under := inflatingPDF(2, domain.MaxUploadInflatedBytes/2) // exactly the bound
	if got, err := svc.ParseUpload(domain.DocumentPaystub, "application/pdf", under); err != nil || got.Data.Read() {
		t.Errorf("a PDF inflating to the bound: %v, %v", got, err)
	}
	stub := domain.Paystub{ID: "p", EmployerName: "Acme", PayDate: "2026-01-15", PayPeriodStart: "2026-01-01", PayPeriodEnd: "2026-01-14",
		Currency: "USD", GrossPayAmount: domain.USD(200000), NetPayAmount: domain.USD(150000), GrossPayYTD: domain.USD(200000), NetPayYTD: domain.USD(150000)}
	pdf, err := RenderPaystub(stub)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := svc.ParseUpload(domain.DocumentPaystub, "application/pdf", pdf); err != nil || !got.Data.Read() {
		t.Errorf("a paystub PDF: %v, %v", got, err)
	}
}

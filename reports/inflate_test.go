package reports

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"testing"

	"payline/domain"
)

// TestUploadInflationIsBounded: an uploaded PDF of many small streams that
// each inflate to megabytes of zeros is read within maxInflated in all
// (it once inflated up to 8 MiB per stream, for any number of streams),
// and then reads as unparsed; a real paystub PDF still parses.
func TestUploadInflationIsBounded(t *testing.T) {
	var bomb bytes.Buffer
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	_, _ = w.Write(make([]byte, 8<<20))
	_ = w.Close()
	bomb.WriteString("%PDF-1.4\n")
	for i := range 12 { // 96 MiB inflated, from under 100 KB
		fmt.Fprintf(&bomb, "%d 0 obj << /Length %d /Filter /FlateDecode >>\nstream\n", i+1, z.Len())
		bomb.Write(z.Bytes())
		bomb.WriteString("\nendstream\nendobj\n")
	}
	texts, inflated := pdfTextsWithin(bomb.Bytes(), maxInflated)
	if inflated > maxInflated+1 || texts != nil {
		t.Errorf("a %d-byte upload inflated %d bytes (bound %d) and gave %d texts", bomb.Len(), inflated, maxInflated, len(texts))
	}
	if got := (&Service{}).ParseUpload(domain.DocumentPaystub, "application/pdf", bomb.Bytes()); got.Data != nil {
		t.Errorf("the bomb parsed as %v", got)
	}
}

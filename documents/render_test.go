package documents

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"os"
	"testing"

	"payline/domain"
)

// TestRenderPage draws a corpus PDF's page as a PNG of the size its dpi
// asks, refuses a page past the last, and gives a picture back as it is.
func TestRenderPage(t *testing.T) {
	r := NewReader()
	if r.pdftoppm == "" {
		t.Skip("poppler-utils is not installed")
	}
	data, err := os.ReadFile("../testdata/documents/dev/fpdf-classic-01.pdf")
	if err != nil {
		t.Fatal(err)
	}
	img, ct, err := r.RenderPage(context.Background(), "application/pdf", data, 1, 72)
	if err != nil || ct != "image/png" {
		t.Fatalf("RenderPage: %s, %v", ct, err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(img))
	if err != nil || cfg.Width != 612 || cfg.Height != 792 {
		t.Errorf("a letter page at 72 dpi is %dx%d (%v), want 612x792", cfg.Width, cfg.Height, err)
	}
	if _, _, err := r.RenderPage(context.Background(), "application/pdf", data, 2, 72); !errors.Is(err, domain.ErrNoSuchPage) {
		t.Errorf("page 2 of a one-page PDF: %v, want ErrNoSuchPage", err)
	}
	pic := []byte("\x89PNG not really")
	if got, ct, err := r.RenderPage(context.Background(), "image/png", pic, 1, 100); err != nil || ct != "image/png" || !bytes.Equal(got, pic) {
		t.Errorf("a picture's page: %s, %v", ct, err)
	}
}

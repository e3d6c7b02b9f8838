package reports_test

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// How far a rendered page may stray from its committed PNG: a pixel
// counts as changed when a colour channel moves by more than
// pixelTolerance (a shade of anti-aliasing), and at most maxChangedPixels
// of them are let through: a few glyph edges, where one changed letter of
// a name (A to W) changes far more (TestPDFPictures checks that it is
// caught). The same poppler renders the same page to the same pixels;
// another poppler may need -update, after a look at the pictures.
const (
	pixelTolerance   = 64
	maxChangedPixels = 25
)

// pictureDiff compares two PNGs pixel by pixel: the number of pixels that
// differ by more than pixelTolerance in any channel, and the box holding
// them. Pictures of different sizes differ everywhere.
func pictureDiff(t *testing.T, want, got []byte) (int, image.Rectangle) {
	t.Helper()
	a, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		t.Fatalf("committed PNG: %v", err)
	}
	b, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		t.Fatalf("rendered PNG: %v", err)
	}
	if a.Bounds() != b.Bounds() {
		return a.Bounds().Dx() * a.Bounds().Dy(), a.Bounds()
	}
	changed, box := 0, image.Rectangle{}
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			if max(absDiff(r1, r2), absDiff(g1, g2), absDiff(b1, b2))>>8 > pixelTolerance {
				changed++
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return changed, box
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// comparePicture checks a rendered page against its committed PNG under
// testdata (rewriting it with -update). On a mismatch the rendered page is
// kept in the temporary directory to look at.
func comparePicture(t *testing.T, name string, got []byte) {
	t.Helper()
	committed := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(committed, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(committed)
	if err != nil {
		t.Fatalf("%s is not committed: run go test ./reports -run %s -update and look at it", committed, t.Name())
	}
	if changed, box := pictureDiff(t, want, got); changed > maxChangedPixels {
		kept := filepath.Join(os.TempDir(), "payline-got-"+name)
		_ = os.WriteFile(kept, got, 0o644)
		t.Errorf("%s: %d pixels changed (at most %d may), within %v; the rendered page is %s. If the change is on purpose, look at it and rerun with -update",
			name, changed, maxChangedPixels, box, kept)
	}
}

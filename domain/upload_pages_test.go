package domain

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"testing"
)

func encodePNG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// page is a picture w by h of a white page with dark lines of "text" a
// few pixels high, lit at level (255 is full light).
func page(w, h int, level uint8) *image.Gray {
	img := image.NewGray(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := level
			if (y/4)%3 == 0 && (x/3)%2 == 0 {
				v = level / 8
			}
			img.SetGray(x, y, color.Gray{Y: v})
		}
	}
	return img
}

// TestCombinePages: the pages of one document become one picture, the
// pages one below the other at the narrowest page's width.
func TestCombinePages(t *testing.T) {
	a, b := encodePNG(t, page(800, 1000, 240)), encodePNG(t, page(400, 300, 240))
	out, err := combinePages([][]byte{a, b})
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Bounds(); got.Dx() != 400 || got.Dy() != 500+300 {
		t.Errorf("combined picture is %v; want 400x800 (the first page halved, the second as it is)", got)
	}
	if _, err := combinePages([][]byte{a, []byte("%PDF-1.7")}); err == nil {
		t.Error("a page that is no picture was combined")
	}
}

// TestMeasurePicture: the measure tells a sharp, well-lit page from a dark
// one and a blurred one, on drawn pages and on a photo of the corpus.
func TestMeasurePicture(t *testing.T) {
	sharp, ok := MeasurePicture(encodePNG(t, page(1200, 1600, 235)))
	if !ok || sharp.TooDark() || sharp.Blurred() {
		t.Errorf("a sharp page measured %+v", sharp)
	}
	dark, _ := MeasurePicture(encodePNG(t, page(1200, 1600, 60)))
	if !dark.TooDark() {
		t.Errorf("a dark page measured %+v", dark)
	}
	flat := image.NewGray(image.Rect(0, 0, 1200, 1600))
	for i := range flat.Pix {
		flat.Pix[i] = 200
	}
	blurred, _ := MeasurePicture(encodePNG(t, flat))
	if blurred.TooDark() || !blurred.Blurred() {
		t.Errorf("a page without edges measured %+v", blurred)
	}
	photo, err := os.ReadFile("../testdata/documents/wild/dev-adp-05.jpg")
	if err != nil {
		t.Fatal(err)
	}
	if q, ok := MeasurePicture(photo); !ok || q.TooDark() || q.Blurred() {
		t.Errorf("a sharp photo of the corpus measured %+v", q)
	}
	if _, ok := MeasurePicture([]byte("%PDF-1.7")); ok {
		t.Error("a PDF was measured as a picture")
	}
}

package domain

import (
	"bytes"
	"image"
	_ "image/jpeg" // pictures arrive as JPEG or PNG
	_ "image/png"
)

// A picture of a document taken with a phone is asked again when it is
// too dark or too blurred to read, measured, not guessed: the picture is
// scaled to PictureSide pixels on its longer side (an average of each
// box of pixels), made grey (Rec. 601 luma, 0-255), and
//
//   - its brightness is the mean grey level;
//   - its sharpness is the variance of its Laplacian (4 times a pixel
//     minus its four neighbours): edges of printed text give large
//     values, a blurred picture has none.
//
// Link's modal measures the same on a canvas before sending (pictures.js);
// the server measures pictures that arrive without the modal's check.
// The thresholds were measured on the document corpus's photos, sharp,
// blurred and darkened with ImageMagick (docs/link.md has the numbers).
const (
	PictureSide = 640
	// MinPictureBrightness: below it a picture is too dark.
	MinPictureBrightness = 80
	// MinPictureSharpness: below it a picture is too blurred.
	MinPictureSharpness = 200
)

// PictureQuality is what was measured of a picture.
type PictureQuality struct {
	Brightness float64
	Sharpness  float64
}

// TooDark and Blurred say whether the picture should be taken again.
func (q PictureQuality) TooDark() bool { return q.Brightness < MinPictureBrightness }

// Blurred is judged only on a picture bright enough to show its edges.
func (q PictureQuality) Blurred() bool { return !q.TooDark() && q.Sharpness < MinPictureSharpness }

// MeasurePicture measures a JPEG or PNG; ok is false for anything else
// (a PDF) or a picture that does not decode.
func MeasurePicture(data []byte) (PictureQuality, bool) {
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return PictureQuality{}, false
	}
	grey, w, h := greyScaled(img, PictureSide)
	if w < 3 || h < 3 {
		return PictureQuality{}, false
	}
	var sum float64
	for _, v := range grey {
		sum += v
	}
	var lsum, lsq float64
	n := 0
	for y := 1; y < h-1; y++ {
		for x := 1; x < w-1; x++ {
			i := y*w + x
			l := 4*grey[i] - grey[i-1] - grey[i+1] - grey[i-w] - grey[i+w]
			lsum += l
			lsq += l * l
			n++
		}
	}
	mean := lsum / float64(n)
	return PictureQuality{Brightness: sum / float64(len(grey)), Sharpness: lsq/float64(n) - mean*mean}, true
}

// greyScaled is img's grey levels scaled so its longer side is at most
// side pixels, each the mean of the box of pixels it covers.
func greyScaled(img image.Image, side int) ([]float64, int, int) {
	b := img.Bounds()
	sw, sh := b.Dx(), b.Dy()
	w, h := sw, sh
	if long := max(sw, sh); long > side {
		w, h = max(1, sw*side/long), max(1, sh*side/long)
	}
	sums := make([]float64, w*h)
	counts := make([]float64, w*h)
	for y := 0; y < sh; y++ {
		ty := y * h / sh
		for x := 0; x < sw; x++ {
			r, g, bl, _ := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
			i := ty*w + x*w/sw
			sums[i] += (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(bl)) / 257
			counts[i]++
		}
	}
	for i := range sums {
		sums[i] /= counts[i]
	}
	return sums, w, h
}

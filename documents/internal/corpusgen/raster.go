package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
)

// photocopy renders a PDF's first page at dpi with pdftoppm, then makes
// it look scanned: turned by a fraction of a degree, softened, and
// speckled, the same way for the same seed. It encodes it as PNG or JPEG.
func photocopy(pdf []byte, dir string, dpi int, seed uint64, asJPEG bool) ([]byte, error) {
	in := filepath.Join(dir, "scan.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		return nil, err
	}
	out := filepath.Join(dir, "scan")
	if b, err := exec.Command("pdftoppm", "-r", fmt.Sprint(dpi), "-gray", "-png", "-singlefile", in, out).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("pdftoppm: %w: %s", err, b)
	}
	f, err := os.Open(out + ".png")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := png.Decode(f)
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, 7))
	img := rotate(src, (r.Float64()-0.5)*1.2*math.Pi/180)
	img = soften(img)
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			v := int(img.GrayAt(x, y).Y)
			switch p := r.IntN(4000); {
			case p == 0:
				v = 40 // a speck of dust
			case p < 3 && v < 128:
				v = 200 // a dropout in a stroke
			}
			img.SetGray(x, y, color.Gray{Y: uint8(v)})
		}
	}
	var buf bytes.Buffer
	if asJPEG {
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 60})
	} else {
		err = (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img)
	}
	return buf.Bytes(), err
}

// rotate turns an image by angle radians about its center on a white
// ground (nearest neighbour).
func rotate(src image.Image, angle float64) *image.Gray {
	b := src.Bounds()
	dst := image.NewGray(b)
	cx, cy := float64(b.Dx())/2, float64(b.Dy())/2
	sin, cos := math.Sin(angle), math.Cos(angle)
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			dx, dy := float64(x)-cx, float64(y)-cy
			sx, sy := int(cos*dx+sin*dy+cx), int(-sin*dx+cos*dy+cy)
			v := uint8(255)
			if sx >= 0 && sy >= 0 && sx < b.Dx() && sy < b.Dy() {
				g := color.GrayModel.Convert(src.At(b.Min.X+sx, b.Min.Y+sy)).(color.Gray)
				v = g.Y
			}
			dst.SetGray(x, y, color.Gray{Y: v})
		}
	}
	return dst
}

// soften blends each pixel with its right and lower neighbours: the blur
// of a cheap scanner.
func soften(src *image.Gray) *image.Gray {
	b := src.Bounds()
	dst := image.NewGray(b)
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			v := 2 * int(src.GrayAt(x, y).Y)
			n := 2
			if x+1 < b.Dx() {
				v += int(src.GrayAt(x+1, y).Y)
				n++
			}
			if y+1 < b.Dy() {
				v += int(src.GrayAt(x, y+1).Y)
				n++
			}
			dst.SetGray(x, y, color.Gray{Y: uint8(v / n)})
		}
	}
	return dst
}

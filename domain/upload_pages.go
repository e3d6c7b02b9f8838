package domain

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
)

// A document photographed page by page (a two-page paystub taken with a
// phone) arrives as one file and its further pages (UploadFile.Pages),
// pictures all. It is kept and read as one document: the pages, scaled to
// one width, one below the other in one picture, which the reader reads
// from the top, the first page's lines before the second's.

// MaxPageWidth bounds the combined picture's width: a phone's photo is
// read as well at it, and two pages of 12 megapixels would otherwise make
// a picture of a hundred megabytes in memory.
const MaxPageWidth = 2000

// combinePages draws the pictures one below the other at the width of the
// narrowest (at most MaxPageWidth), as a PNG: lossless, since a second
// JPEG compression of a photo already compressed once costs the reader
// figures (a corpus photo cut in two and put back as JPEG of quality 90
// lost its net pay; as PNG it reads as the photo does). Errors: a page that does
// not decode, named by its index.
func combinePages(pages [][]byte) ([]byte, error) {
	imgs := make([]image.Image, len(pages))
	width := MaxPageWidth
	for i, p := range pages {
		img, _, err := image.Decode(bytes.NewReader(p))
		if err != nil {
			return nil, fmt.Errorf("page %d: %w", i+1, err)
		}
		imgs[i] = img
		width = min(width, img.Bounds().Dx())
	}
	heights := make([]int, len(imgs))
	total := 0
	for i, img := range imgs {
		b := img.Bounds()
		heights[i] = max(1, b.Dy()*width/b.Dx())
		total += heights[i]
	}
	out := image.NewRGBA(image.Rect(0, 0, width, total))
	top := 0
	for i, img := range imgs {
		drawScaled(out, image.Rect(0, top, width, top+heights[i]), img)
		top += heights[i]
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// drawScaled draws src into r of dst, each destination pixel the mean of
// the box of source pixels it covers (pages are only ever scaled down or
// kept).
func drawScaled(dst *image.RGBA, r image.Rectangle, src image.Image) {
	sb := src.Bounds()
	w, h := r.Dx(), r.Dy()
	for y := 0; y < h; y++ {
		y0, y1 := sb.Min.Y+y*sb.Dy()/h, sb.Min.Y+max((y+1)*sb.Dy()/h, y*sb.Dy()/h+1)
		for x := 0; x < w; x++ {
			x0, x1 := sb.Min.X+x*sb.Dx()/w, sb.Min.X+max((x+1)*sb.Dx()/w, x*sb.Dx()/w+1)
			var rs, gs, bs, n uint64
			for sy := y0; sy < y1; sy++ {
				for sx := x0; sx < x1; sx++ {
					cr, cg, cb, _ := src.At(sx, sy).RGBA()
					rs, gs, bs, n = rs+uint64(cr), gs+uint64(cg), bs+uint64(cb), n+1
				}
			}
			dst.SetRGBA(r.Min.X+x, r.Min.Y+y, color.RGBA{R: uint8(rs / n >> 8), G: uint8(gs / n >> 8), B: uint8(bs / n >> 8), A: 255})
		}
	}
}

// combineUploadPages makes each file of several pages one picture of
// them all (combinePages) and measures every picture's pages, keeping the
// worst page's brightness and sharpness per file. Errors: INVALID_FIELDS
// for a page that does not decode.
func combineUploadPages(files []UploadFile, types []string) ([]UploadFile, []PictureQuality, error) {
	quality := make([]PictureQuality, len(files))
	for i, f := range files {
		if types[i] == "application/pdf" {
			continue
		}
		pages := [][]byte{f.Data}
		for _, pg := range f.Pages {
			pages = append(pages, pg.Data)
		}
		worst := PictureQuality{Brightness: 255, Sharpness: -1}
		for _, pg := range pages {
			if q, ok := MeasurePicture(pg); ok {
				worst.Brightness = min(worst.Brightness, q.Brightness)
				if worst.Sharpness < 0 || q.Sharpness < worst.Sharpness {
					worst.Sharpness = q.Sharpness
				}
			}
		}
		quality[i] = worst
		if len(f.Pages) == 0 {
			continue
		}
		combined, err := combinePages(pages)
		if err != nil {
			return nil, nil, Errorf(KindInvalid, CodeInvalidFields, "files[%d] (%s): %v: it is not a picture that can be read", i, f.Name, err)
		}
		files[i].Data, files[i].Size, files[i].Pages, types[i] = combined, int64(len(combined)), nil, "image/png"
	}
	return files, quality, nil
}

package documents

import (
	"bytes"
	"context"

	"fmt"
	"image"
	"image/color"
	_ "image/jpeg" // pictures people upload
	"image/png"
	"os"
	"path/filepath"
	"payline/domain"
	"slices"
	"strconv"
)

// Pictures are prepared for OCR in Go before tesseract reads them: grey,
// the page's light evened out (a shadow across a phone photo, a yellowed
// scan), its contrast stretched, and enlarged when its text is small.
// Tesseract binarizes a page with one threshold; a page lit unevenly
// loses its dark half's words to it.

const (
	// maxOCRPixels bounds a picture the reader prepares: a 10 MB JPEG
	// can hold 60 million pixels; a page at 300 dpi holds 8.4 million.
	maxOCRPixels = 40_000_000
	// ocrTargetWidth is the width a page is brought to for tesseract:
	// a letter page at about 260 dpi, where its 9-point text is about 20
	// pixels high, which tesseract reads well and three passes read within
	// the bar of 3 s of CPU a page.
	ocrTargetWidth = 2200
	// maxOCRScale bounds the enlargement: past it, pixels only blur.
	maxOCRScale = 2.5
)

// errTooManyPixels is the answer for a picture larger than maxOCRPixels.
var errTooManyPixels = fmt.Errorf("the picture has more than %d million pixels", maxOCRPixels/1_000_000)

// ocrPass is one reading of a prepared picture: a page segmentation mode,
// on the picture as prepared or with its ruled lines erased.
type ocrPass struct {
	mode   string
	erased bool
}

// ocrPasses are the readings each picture gets: tesseract reading the
// page as one block of lines (6), which keeps a table's rows whole; its
// layout analysis (3) of the picture with a form's rules erased, which
// finds the words a box's edges hide; and its sparse reading (11), which
// finds words the others merge. No one pass reads every layout best
// (docs/documents.md, "Pictures"): pairs of them are merged word by word
// (ocrCombos) and the pair whose reading holds together best is kept.
var ocrPasses = []ocrPass{{mode: "6"}, {mode: "3", erased: true}, {mode: "11"}}

// ocrCombos are the pairs of passes whose merged words are tried.
var ocrCombos = [][2]int{{0, 1}, {0, 2}, {1, 2}}

// prepareForOCR decodes a picture and gives it back grey, evened out and
// scaled by the factor it returns, as it is and with its rules erased.
func prepareForOCR(data []byte) (plain, erased []byte, scale float64, size image.Point, err error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, nil, 0, image.Point{}, err
	}
	if cfg.Width*cfg.Height > maxOCRPixels {
		return nil, nil, 0, image.Point{}, errTooManyPixels
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, nil, 0, image.Point{}, err
	}
	grey := toGrey(img)
	size = grey.Rect.Size()
	evenLight(grey)
	stretch(grey)
	scale = min(maxOCRScale, max(1, float64(ocrTargetWidth)/float64(size.X)))
	if scale > 1.05 {
		grey = resize(grey, scale)
	} else {
		scale = 1
	}
	encode := func(g *image.Gray) ([]byte, error) {
		var buf bytes.Buffer
		err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, g)
		return buf.Bytes(), err
	}
	if plain, err = encode(grey); err != nil {
		return nil, nil, 0, image.Point{}, err
	}
	eraseRules(grey)
	if erased, err = encode(grey); err != nil {
		return nil, nil, 0, image.Point{}, err
	}
	return plain, erased, scale, size, nil
}

// toGrey is a picture's luminance, read straight from the planes of the
// kinds decoders give (a JPEG's Y, a grey PNG) and through the colour
// model otherwise.
func toGrey(img image.Image) *image.Gray {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	grey := image.NewGray(image.Rect(0, 0, w, h))
	switch src := img.(type) {
	case *image.YCbCr:
		for y := 0; y < h; y++ {
			copy(grey.Pix[y*grey.Stride:y*grey.Stride+w], src.Y[(b.Min.Y+y-src.Rect.Min.Y)*src.YStride+(b.Min.X-src.Rect.Min.X):])
		}
	case *image.Gray:
		for y := 0; y < h; y++ {
			copy(grey.Pix[y*grey.Stride:y*grey.Stride+w], src.Pix[(y+b.Min.Y-src.Rect.Min.Y)*src.Stride+(b.Min.X-src.Rect.Min.X):])
		}
	default:
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				grey.Pix[y*grey.Stride+x] = color.GrayModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.Gray).Y
			}
		}
	}
	return grey
}

// evenLight divides each pixel by the page's light around it: the
// lightest of a coarse grid's cells and their neighbours (text is dark
// and thin, so the lightest nearby is paper), smoothed. Paper becomes
// white wherever it is in shadow.
func evenLight(g *image.Gray) {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	cell := max(8, min(w, h)/40)
	cw, ch := (w+cell-1)/cell, (h+cell-1)/cell
	// The 90th percentile of each cell: paper, not a speck.
	light := make([]float64, cw*ch)
	hist := make([]int, 256)
	for cy := 0; cy < ch; cy++ {
		for cx := 0; cx < cw; cx++ {
			clear(hist)
			n := 0
			for y := cy * cell; y < min(h, (cy+1)*cell); y++ {
				row := g.Pix[y*g.Stride:]
				for x := cx * cell; x < min(w, (cx+1)*cell); x++ {
					hist[row[x]]++
					n++
				}
			}
			k, acc := 255, 0
			for k = 255; k > 0; k-- {
				acc += hist[k]
				if acc*10 >= n {
					break
				}
			}
			light[cy*cw+cx] = float64(k)
		}
	}
	// A cell full of dark print takes its lightest neighbour's light.
	spread := slices.Clone(light)
	for cy := 0; cy < ch; cy++ {
		for cx := 0; cx < cw; cx++ {
			m := light[cy*cw+cx]
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					if x, y := cx+dx, cy+dy; x >= 0 && y >= 0 && x < cw && y < ch {
						m = max(m, light[y*cw+x])
					}
				}
			}
			spread[cy*cw+cx] = max(m, 24)
		}
	}
	// Bilinear between cell centres.
	at := func(cx, cy int) float64 {
		cx, cy = min(max(cx, 0), cw-1), min(max(cy, 0), ch-1)
		return spread[cy*cw+cx]
	}
	for y := 0; y < h; y++ {
		fy := (float64(y)+0.5)/float64(cell) - 0.5
		y0 := int(fy)
		if fy < 0 {
			y0 = -1
		}
		ty := fy - float64(y0)
		row := g.Pix[y*g.Stride:]
		for x := 0; x < w; x++ {
			fx := (float64(x)+0.5)/float64(cell) - 0.5
			x0 := int(fx)
			if fx < 0 {
				x0 = -1
			}
			tx := fx - float64(x0)
			bg := (at(x0, y0)*(1-tx)+at(x0+1, y0)*tx)*(1-ty) + (at(x0, y0+1)*(1-tx)+at(x0+1, y0+1)*tx)*ty
			v := float64(row[x]) * 255 / bg
			row[x] = uint8(min(255, v))
		}
	}
}

// eraseRules whitens a form's ruled lines: runs of dark pixels along a row
// or a column longer than any stroke of text (a fortieth of the page's
// width, at least 40 pixels). Text that touches a box's edge, or sits in
// a grid, is read as a word and not as a line's edge.
func eraseRules(g *image.Gray) {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	minRun := max(40, w/40)
	const dark = 110
	erase := make([]bool, len(g.Pix))
	for y := 0; y < h; y++ {
		row := g.Pix[y*g.Stride:]
		start := -1
		for x := 0; x <= w; x++ {
			if x < w && row[x] < dark {
				if start < 0 {
					start = x
				}
				continue
			}
			if start >= 0 && x-start >= minRun {
				for k := start; k < x; k++ {
					erase[y*g.Stride+k] = true
				}
			}
			start = -1
		}
	}
	for x := 0; x < w; x++ {
		start := -1
		for y := 0; y <= h; y++ {
			if y < h && g.Pix[y*g.Stride+x] < dark {
				if start < 0 {
					start = y
				}
				continue
			}
			if start >= 0 && y-start >= minRun {
				for k := start; k < y; k++ {
					erase[k*g.Stride+x] = true
				}
			}
			start = -1
		}
	}
	for i, e := range erase {
		if e {
			g.Pix[i] = 255
		}
	}
}

// stretch spreads the picture's greys from its 1st to its 99th
// percentile over the whole range.
func stretch(g *image.Gray) {
	hist := make([]int, 256)
	for _, v := range g.Pix {
		hist[v]++
	}
	n := len(g.Pix)
	lo, hi, acc := 0, 255, 0
	for lo = 0; lo < 255; lo++ {
		acc += hist[lo]
		if acc*100 >= n {
			break
		}
	}
	acc = 0
	for hi = 255; hi > 0; hi-- {
		acc += hist[hi]
		if acc*100 >= n {
			break
		}
	}
	if hi-lo < 32 {
		return
	}
	var lut [256]uint8
	for i := range lut {
		lut[i] = uint8(min(255, max(0, (i-lo)*255/(hi-lo))))
	}
	for i, v := range g.Pix {
		g.Pix[i] = lut[v]
	}
}

// resize enlarges a grey picture by a factor, bilinearly.
func resize(g *image.Gray, scale float64) *image.Gray {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	nw, nh := int(float64(w)*scale), int(float64(h)*scale)
	out := image.NewGray(image.Rect(0, 0, nw, nh))
	for y := 0; y < nh; y++ {
		fy := (float64(y)+0.5)/scale - 0.5
		y0 := max(0, int(fy))
		y1 := min(h-1, y0+1)
		ty := max(0, fy-float64(y0))
		r0, r1 := g.Pix[y0*g.Stride:], g.Pix[y1*g.Stride:]
		dst := out.Pix[y*out.Stride:]
		for x := 0; x < nw; x++ {
			fx := (float64(x)+0.5)/scale - 0.5
			x0 := max(0, int(fx))
			x1 := min(w-1, x0+1)
			tx := max(0, fx-float64(x0))
			v := (float64(r0[x0])*(1-tx)+float64(r0[x1])*tx)*(1-ty) + (float64(r1[x0])*(1-tx)+float64(r1[x1])*tx)*ty
			dst[x] = uint8(v + 0.5)
		}
	}
	return out
}

// ocrPicture reads the words of one picture (PNG or JPEG bytes) as a
// document of the type uploaded: it is prepared (prepareForOCR) and read
// by tesseract in the first two of ocrPasses, merged; when that reading
// does not hold together (readingQuality below goodReading), the third
// pass is read too and the pair of passes whose merged reading holds
// together best is kept. Boxes are in the picture's own pixels.
func (r *Reader) ocrPicture(ctx context.Context, dir string, data []byte, page int, documentType string) ([]word, [2]float64, error) {
	plain, erased, scale, size, err := prepareForOCR(data)
	if err != nil {
		return nil, [2]float64{}, err
	}
	dims := [2]float64{float64(size.X), float64(size.Y)}
	paths := map[bool]string{false: filepath.Join(dir, "ocr-"+strconv.Itoa(page)+".png"), true: filepath.Join(dir, "ocr-"+strconv.Itoa(page)+"-erased.png")}
	for e, b := range map[bool][]byte{false: plain, true: erased} {
		if err := os.WriteFile(paths[e], b, 0o600); err != nil {
			return nil, [2]float64{}, err
		}
	}
	passes := make([][]word, len(ocrPasses))
	read := func(i int) error {
		out, err := r.run(ctx, r.tesseract, paths[ocrPasses[i].erased], "stdout", "--psm", ocrPasses[i].mode, "tsv")
		if err != nil {
			return err
		}
		ws, _ := parseTesseractTSV(out, page)
		for k := range ws {
			ws[k].x0 /= scale
			ws[k].x1 /= scale
			ws[k].y0 /= scale
			ws[k].y1 /= scale
		}
		passes[i] = ws
		return nil
	}
	var best []word
	bestScore := -1e9
	try := func(c [2]int) {
		ws := deskew(mergeReadings(mergeReadings(nil, passes[c[0]]), passes[c[1]]))
		doc := buildLayout(ws, ocrGap)
		doc.sizes = map[int][2]float64{page: dims}
		if q := readingQuality(doc, documentType); q > bestScore {
			best, bestScore = ws, q
		}
	}
	for i := range ocrCombos[0] {
		if err := read(ocrCombos[0][i]); err != nil {
			return nil, [2]float64{}, err
		}
	}
	try(ocrCombos[0])
	if bestScore >= goodReading(documentType) {
		return best, dims, nil
	}
	for i := range passes {
		if passes[i] == nil {
			if err := read(i); err != nil {
				return nil, [2]float64{}, err
			}
		}
	}
	for _, c := range ocrCombos[1:] {
		try(c)
	}
	return best, dims, nil
}

// goodReading is the readingQuality above which a picture is not read a
// third time: a paystub whose figures close with six of its seven main
// fields found; a W-2 whose six money boxes, names and year were read,
// with no doubt.
func goodReading(documentType string) float64 {
	if documentType == domain.DocumentW2 {
		return 8
	}
	return 10
}

// mergeReadings adds a second reading's words to a first's: a word that
// overlaps one already read replaces it when it was read more surely,
// and is dropped otherwise; a word in a place the first reading missed
// is added.
func mergeReadings(a, b []word) []word {
	out := slices.Clone(a)
	for _, w := range b {
		found := false
		for i, v := range out {
			ix := min(w.x1, v.x1) - max(w.x0, v.x0)
			iy := min(w.y1, v.y1) - max(w.y0, v.y0)
			h := max(w.height(), v.height())
			sameWord := w.text == v.text && abs((w.x0+w.x1)/2-(v.x0+v.x1)/2) < h && abs((w.y0+w.y1)/2-(v.y0+v.y1)/2) < h/2
			if !sameWord && (ix <= 0 || iy <= 0 || ix*iy < 0.4*min((w.x1-w.x0)*(w.y1-w.y0), (v.x1-v.x0)*(v.y1-v.y0))) {
				continue
			}
			found = true
			if w.conf > v.conf && len(w.text) >= len(v.text)/2 {
				out[i] = w
			}
			break
		}
		if !found {
			out = append(out, w)
		}
	}
	return out
}

package documents

import (
	"bytes"
	"context"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"payline/domain"
)

// A PDF's text layer is what a program reads; its page is what a person
// sees. An editor can make them differ: a white box painted over a
// figure and another typed on top, a text annotation over it. Where the
// file gives a reason to look (something painted after the text over a
// figure, an annotation, two different words at one place), the reader
// draws the page, reads those places by OCR, reads the paystub as it is
// seen, and records each difference (domain.TextMismatch), which the
// domain's checks take as evidence. A place OCR cannot read surely is a
// doubt, never evidence.

const (
	// checkDPI is the resolution a page is drawn at to read a figure by
	// OCR: vector text at 300 dpi reads almost without error.
	checkDPI = 300
	// maxChecks bounds the places one file has checked.
	maxChecks = 24
	// sureOCR is the word confidence (0–1) above which OCR's reading of a
	// drawn figure is trusted to differ from the text layer's.
	sureOCR = 0.8
)

// suspectPlace is a figure of the text layer the page may not show, and
// the region to read it in: the word and what covers it, in the words'
// units (points from the page's top left).
type suspectPlace struct {
	index          int // in the words
	w              word
	x0, y0, x1, y1 float64
}

// suspectPlaces lists the figure words of the text layer that something
// painted after the text, or an annotation, covers, and the figures two
// different words print at one place.
func suspectPlaces(words []word, covers []rect, sizes map[int][2]float64) []suspectPlace {
	var out []suspectPlace
	at := map[int]int{}
	add := func(i int, x0, y0, x1, y1 float64) {
		w := words[i]
		// The region is the word and its cover, at most three words wide.
		x0, x1 = max(x0, w.x0-(w.x1-w.x0)), min(x1, w.x1+(w.x1-w.x0))
		y0, y1 = max(y0, w.y0-(w.y1-w.y0)), min(y1, w.y1+(w.y1-w.y0))
		if k, ok := at[i]; ok {
			p := &out[k]
			p.x0, p.y0, p.x1, p.y1 = min(p.x0, x0), min(p.y0, y0), max(p.x1, x1), max(p.y1, y1)
			return
		}
		if len(out) < maxChecks {
			at[i] = len(out)
			out = append(out, suspectPlace{index: i, w: w, x0: min(w.x0, x0), y0: min(w.y0, y0), x1: max(w.x1, x1), y1: max(w.y1, y1)})
		}
	}
	for i, w := range words {
		if _, ok := parseNumber(w.text); !ok && len(findDates(w.text)) == 0 {
			continue
		}
		h := sizes[w.page][1]
		if h == 0 {
			h = 792
		}
		for _, c := range covers {
			// Covers are in user space, y up; words from the top.
			top, bottom := h-c.y1, h-c.y0
			ix := min(w.x1, c.x1) - max(w.x0, c.x0)
			iy := min(w.y1, bottom) - max(w.y0, top)
			if ix > 0.3*(w.x1-w.x0) && iy > 0.3*(w.y1-w.y0) {
				add(i, c.x0, top, c.x1, bottom)
			}
		}
		for j, v := range words {
			if j == i || v.page != w.page || v.text == w.text {
				continue
			}
			ix := min(w.x1, v.x1) - max(w.x0, v.x0)
			iy := min(w.y1, v.y1) - max(w.y0, v.y0)
			if ix > 0.5*(w.x1-w.x0) && iy > 0.5*(w.y1-w.y0) {
				add(i, v.x0, v.y0, v.x1, v.y1)
			}
		}
	}
	return out
}

// seenOnPage reads the suspect places as the page shows them: each page
// with places is drawn at checkDPI, the places' crops are stacked into
// one picture and read by OCR at once. It returns the words as a person
// sees them (a figure shown in place of the text layer's, none where the
// page shows nothing) with the differences, and the places OCR could not
// settle.
func (r *Reader) seenOnPage(ctx context.Context, dir, pdf string, words []word, places []suspectPlace) (seen []word, mismatches []domain.TextMismatch, unsure []word, err error) {
	byPage := map[int][]suspectPlace{}
	for _, p := range places {
		byPage[p.w.page] = append(byPage[p.w.page], p)
	}
	replaced := map[int]*string{}
	for pg, ps := range byPage {
		img, err := r.drawPage(ctx, dir, pdf, pg)
		if err != nil {
			return nil, nil, nil, err
		}
		shown, err := r.readCrops(ctx, dir, img, ps)
		if err != nil {
			return nil, nil, nil, err
		}
		for k, p := range ps {
			s := shown[k]
			switch {
			case s.blank:
				empty := ""
				replaced[p.index] = &empty
				mismatches = append(mismatches, domain.TextMismatch{Page: pg, Layer: p.w.text})
			case s.text == "" || s.conf < sureOCR:
				unsure = append(unsure, p.w)
			case sameFigure(s.text, p.w.text):
			default:
				t := s.text
				replaced[p.index] = &t
				mismatches = append(mismatches, domain.TextMismatch{Page: pg, Layer: p.w.text, Shown: s.text})
			}
		}
	}
	for i, w := range words {
		if t, ok := replaced[i]; ok {
			if *t == "" {
				continue
			}
			w.text = *t
		}
		// Two words at one place that now say the same: one is enough.
		if dup := len(seen) > 0 && overlapsSame(seen, w); dup {
			continue
		}
		seen = append(seen, w)
	}
	return seen, dedupeMismatches(mismatches), unsure, nil
}

func overlapsSame(ws []word, w word) bool {
	for _, v := range ws {
		if v.page == w.page && v.text == w.text && min(w.x1, v.x1)-max(w.x0, v.x0) > 0.5*(w.x1-w.x0) &&
			min(w.y1, v.y1)-max(w.y0, v.y0) > 0.5*(w.y1-w.y0) {
			return true
		}
	}
	return false
}

func dedupeMismatches(ms []domain.TextMismatch) []domain.TextMismatch {
	var out []domain.TextMismatch
	for _, m := range ms {
		dup := false
		for _, o := range out {
			dup = dup || o == m
		}
		if !dup {
			out = append(out, m)
		}
	}
	return out
}

// sameFigure says whether OCR's reading of a place is the text layer's
// figure: the same digits (OCR may drop a $ or a comma).
func sameFigure(ocr, layer string) bool {
	digits := func(s string) string {
		var b strings.Builder
		for _, r := range s {
			if r >= '0' && r <= '9' {
				b.WriteRune(r)
			}
		}
		return b.String()
	}
	return digits(ocr) == digits(layer)
}

// drawPage draws one page of a PDF as a grey PNG at checkDPI.
func (r *Reader) drawPage(ctx context.Context, dir, pdf string, pg int) (image.Image, error) {
	n := strconv.Itoa(pg)
	out := filepath.Join(dir, "check-"+n)
	args := append([]string{"-f", n, "-l", n, "-r", strconv.Itoa(checkDPI), "-gray", "-png", "-singlefile"}, pageCrop(checkDPI)...)
	if _, err := r.run(ctx, r.pdftoppm, append(args, pdf, out)...); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(out + ".png")
	if err != nil {
		return nil, err
	}
	return png.Decode(bytes.NewReader(b))
}

// shownText is what OCR read at one place, and whether the place shows
// no ink at all.
type shownText struct {
	text  string
	conf  float64
	blank bool
}

// readCrops reads each place's crop of a drawn page: crops stacked, each
// on a band of white, read by one OCR pass, each band's words its
// place's reading.
func (r *Reader) readCrops(ctx context.Context, dir string, img image.Image, ps []suspectPlace) ([]shownText, error) {
	scale := float64(checkDPI) / 72
	out := make([]shownText, len(ps))
	type band struct{ y0, y1 int }
	var crops []image.Rectangle
	width, height := 0, 0
	for _, p := range ps {
		pad := (p.w.y1 - p.w.y0) * scale * 0.15
		rc := image.Rect(int(p.x0*scale-pad), int(p.y0*scale-pad), int(p.x1*scale+pad), int(p.y1*scale+pad)).Intersect(img.Bounds())
		crops = append(crops, rc)
		width = max(width, rc.Dx()+40)
		height += rc.Dy() + 60
	}
	if width == 0 {
		return out, nil
	}
	sheet := image.NewGray(image.Rect(0, 0, width, height))
	draw.Draw(sheet, sheet.Bounds(), image.White, image.Point{}, draw.Src)
	bands := make([]band, len(crops))
	y := 30
	for i, rc := range crops {
		draw.Draw(sheet, image.Rect(20, y, 20+rc.Dx(), y+rc.Dy()), img, rc.Min, draw.Src)
		bands[i] = band{y, y + rc.Dy()}
		out[i].blank = inkless(img, rc)
		y += rc.Dy() + 60
	}
	path := filepath.Join(dir, "crops.png")
	var buf bytes.Buffer
	if err := png.Encode(&buf, sheet); err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		return nil, err
	}
	tsv, err := r.run(ctx, r.tesseract, path, "stdout", "--psm", "6", "tsv")
	if err != nil {
		return nil, err
	}
	words, _ := parseTesseractTSV(tsv, 1)
	// Each band's reading is its longest figure (a region may hold a
	// dollar sign or a neighbour's edge besides).
	for i, b := range bands {
		for _, w := range words {
			c := (w.y0 + w.y1) / 2
			if c < float64(b.y0) || c > float64(b.y1) {
				continue
			}
			if _, ok := parseNumber(w.text); (ok || len(findDates(w.text)) > 0) && len(w.text) > len(out[i].text) {
				out[i].text, out[i].conf = w.text, w.conf
			}
		}
	}
	return out, nil
}

// inkless says whether a region of a drawn page is paper only: no pixel
// darker than light grey.
func inkless(img image.Image, rc image.Rectangle) bool {
	for y := rc.Min.Y; y < rc.Max.Y; y++ {
		for x := rc.Min.X; x < rc.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if (r+g+b)/3 < 0xB000 {
				return false
			}
		}
	}
	return true
}

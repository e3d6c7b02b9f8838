package documents

import (
	"slices"
	"sort"
	"unicode/utf8"
)

// phrase is a run of words on one line close enough to read as one
// item: a label, a value, a table cell.
type phrase struct {
	text           string
	x0, y0, x1, y1 float64
	line           int
	page           int
	// conf is how surely its words were read: the least of their
	// confidences (1 for a text layer).
	conf float64
	// words are the words it holds, with their boxes.
	words []word
	// label is the field the phrase labels from its start (matchLabel),
	// found once, with whether it asks for the year to date and the
	// words the label takes.
	label      field
	labelYTD   bool
	labelWords int
}

func (p phrase) center() float64 { return (p.x0 + p.x1) / 2 }

// textLine is the phrases that share a baseline, left to right.
type textLine struct {
	page    int
	y0, y1  float64
	phrases []phrase
}

func (l textLine) height() float64 { return l.y1 - l.y0 }

// page is the positioned text of a document: its lines top to bottom,
// pages in order, and each page's width and height in its units.
type page struct {
	lines []textLine
	sizes map[int][2]float64
}

// pageWidth and pageHeight are a page's size; a page whose size the
// source did not give is as large as its words reach.
func (in *interpreter) pageWidth(n int) float64 {
	if s, ok := in.doc.sizes[n]; ok && s[0] > 0 {
		return s[0]
	}
	return in.extent(n, false)
}

func (in *interpreter) pageHeight(n int) float64 {
	if s, ok := in.doc.sizes[n]; ok && s[1] > 0 {
		return s[1]
	}
	return in.extent(n, true)
}

func (in *interpreter) extent(n int, vertical bool) float64 {
	m := 1.0
	for _, l := range in.doc.lines {
		if l.page != n {
			continue
		}
		for _, p := range l.phrases {
			if vertical {
				m = max(m, p.y1*1.05)
			} else {
				m = max(m, p.x1*1.05)
			}
		}
	}
	return m
}

// buildLayout groups words into lines by their vertical position and each
// line into phrases by the gaps between words. gapFactor is the gap, in
// line heights, that separates two phrases (columns are further apart
// than words: a text layer's boxes are about an em high, OCR's only as
// high as the ink).
func buildLayout(words []word, gapFactor float64) page {
	ws := slices.Clone(words)
	sort.SliceStable(ws, func(i, j int) bool {
		if ws[i].page != ws[j].page {
			return ws[i].page < ws[j].page
		}
		return ws[i].y0+ws[i].y1 < ws[j].y0+ws[j].y1
	})
	// A word joins the line it shares most of its height with, among the
	// last few lines: half the shorter height in common when the line
	// has a word near it, three quarters when the nearest is columns
	// away (a column's lines need not align with its neighbour's).
	var groups [][]word
	for _, w := range ws {
		best, bestOverlap := -1, 0.0
		for gi := len(groups) - 1; gi >= 0 && gi >= len(groups)-6; gi-- {
			g := groups[gi]
			if g[0].page != w.page {
				break
			}
			y0, y1 := lineCore(g)
			overlap := (min(w.y1, y1) - max(w.y0, y0)) / max(1e-9, min(y1-y0, w.height()))
			need := 0.5
			if nearestGap(g, w) > 3*max(w.height(), y1-y0) {
				need = 0.75
			}
			if overlap >= need && overlap > bestOverlap {
				best, bestOverlap = gi, overlap
			}
		}
		if best >= 0 {
			groups[best] = append(groups[best], w)
			continue
		}
		groups = append(groups, []word{w})
	}
	// Lines in reading order: top to bottom by their cores.
	sort.SliceStable(groups, func(i, j int) bool {
		if groups[i][0].page != groups[j][0].page {
			return groups[i][0].page < groups[j][0].page
		}
		a0, a1 := lineCore(groups[i])
		b0, b1 := lineCore(groups[j])
		return a0+a1 < b0+b1
	})
	var doc page
	for _, g := range groups {
		sort.SliceStable(g, func(i, j int) bool { return g[i].x0 < g[j].x0 })
		l := textLine{page: g[0].page, y0: g[0].y0, y1: g[0].y1}
		hs := make([]float64, len(g))
		for i, w := range g {
			l.y0, l.y1 = min(l.y0, w.y0), max(l.y1, w.y1)
			hs[i] = w.height()
		}
		slices.Sort(hs)
		gap := gapFactor * hs[len(hs)/2]
		var cur *phrase
		var prev word
		for _, w := range g {
			// A "|" printed between cells parts them.
			if w.text == "|" {
				cur = nil
				continue
			}
			// A space is about a character wide in a monospaced font and
			// half one in others; a column gap is wider than either.
			if cur != nil && w.x0-cur.x1 <= max(gap, 1.5*(charWidth(prev)+charWidth(w))/2) {
				prev = w
				cur.text += " " + w.text
				cur.x1 = max(cur.x1, w.x1)
				cur.y0, cur.y1 = min(cur.y0, w.y0), max(cur.y1, w.y1)
				cur.conf = min(cur.conf, w.conf)
				cur.words = append(cur.words, w)
				continue
			}
			prev = w
			l.phrases = append(l.phrases, phrase{text: w.text, x0: w.x0, y0: w.y0, x1: w.x1, y1: w.y1, line: len(doc.lines),
				page: w.page, conf: w.conf, words: []word{w}})
			cur = &l.phrases[len(l.phrases)-1]
		}
		for i := range l.phrases {
			p := &l.phrases[i]
			p.label, p.labelYTD, p.labelWords = matchLabel(p.text)
		}
		doc.lines = append(doc.lines, l)
	}
	return doc
}

// nearestGap is the horizontal distance from a word to the nearest word
// of a line (0 when they overlap).
func nearestGap(g []word, w word) float64 {
	d := 1e18
	for _, v := range g {
		d = min(d, max(0, max(v.x0-w.x1, w.x0-v.x1)))
	}
	return d
}

// charWidth is a word's mean character width.
func charWidth(w word) float64 {
	n := utf8.RuneCountInString(w.text)
	if n == 0 {
		return 0
	}
	return (w.x1 - w.x0) / float64(n)
}

// lineCore is the typical extent of a line's words: their median centre
// give or take half their median height, so one odd box does not stretch
// the line.
func lineCore(g []word) (y0, y1 float64) {
	cs, hs := make([]float64, len(g)), make([]float64, len(g))
	for i, w := range g {
		cs[i], hs[i] = (w.y0+w.y1)/2, w.height()
	}
	slices.Sort(cs)
	slices.Sort(hs)
	c, h := cs[len(cs)/2], hs[len(hs)/2]
	return c - h/2, c + h/2
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// deskew straightens the words of a picture taken at a slight angle:
// the page's slope is taken out of every word's height, so a label and
// its figure far to the right stay on one line. The slope is measured
// twice: first between each word and its neighbours (within three word
// heights), then, with that first slope taken out, between words far
// apart on the same line, which measures it finely.
func deskew(words []word) []word {
	m, ok := pageSlope(words, 0, 0, 3)
	if !ok {
		return words
	}
	if fine, ok := pageSlope(words, m, 8, 1e9); ok {
		m = fine
	}
	out := make([]word, len(words))
	for i, w := range words {
		dy := m * (w.x0 + w.x1) / 2
		w.y0, w.y1 = w.y0-dy, w.y1-dy
		out[i] = w
	}
	return out
}

// pageSlope is the median slope between pairs of words on one line of a
// page tilted by about m: each word and the words to its right between
// minDX and maxDX of its heights away whose centres, tilt taken out, are
// within half a height. ok is false with fewer than five pairs.
func pageSlope(words []word, m, minDX, maxDX float64) (float64, bool) {
	var slopes []float64
	for _, a := range words {
		h := a.height()
		ax, ay := (a.x0+a.x1)/2, (a.y0+a.y1)/2
		for _, b := range words {
			if b.page != a.page || b.x0 <= a.x1 {
				continue
			}
			bx, by := (b.x0+b.x1)/2, (b.y0+b.y1)/2
			gap := b.x0 - a.x1
			if gap < minDX*h || gap > maxDX*h || abs((by-m*bx)-(ay-m*ax)) > 0.5*h {
				continue
			}
			slopes = append(slopes, (by-ay)/(bx-ax))
		}
	}
	if len(slopes) < 5 {
		return 0, false
	}
	slices.Sort(slopes)
	return slopes[len(slopes)/2], true
}

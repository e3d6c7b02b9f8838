package documents

import (
	"slices"
	"strings"
	"unicode"
)

// figure is a number read at a place on a page.
type figure struct {
	number
	text           string
	x0, y0, x1, y1 float64
	page, line     int
	conf           float64
}

func (f figure) center() float64 { return (f.x0 + f.x1) / 2 }

// figuresIn lists the figures a phrase holds, each with the box of its
// words.
func figuresIn(p phrase) []figure {
	return figuresOf(p, 0)
}

// figuresOf lists the figures of a phrase's words from word `from` on.
func figuresOf(p phrase, from int) []figure {
	if from >= len(p.words) {
		return nil
	}
	ws := p.words[from:]
	texts := make([]string, len(ws))
	for i, w := range ws {
		texts[i] = w.text
	}
	nums, starts := figureWords(texts)
	out := make([]figure, len(nums))
	for i, n := range nums {
		end := len(ws)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		// The figure's own words: from its start to the word that ends it
		// (a figure is one to three words: "$", "1,234.56", "CR").
		last := starts[i]
		for k := starts[i]; k < end && k < starts[i]+3; k++ {
			if _, ok := parseNumber(strings.Join(texts[starts[i]:k+1], "")); ok {
				last = k
			}
		}
		f := figure{number: n, page: p.page, line: p.line, conf: 1, x0: ws[starts[i]].x0, x1: ws[last].x1,
			y0: ws[starts[i]].y0, y1: ws[starts[i]].y1}
		for k := starts[i]; k <= last; k++ {
			f.text = strings.TrimSpace(f.text + " " + ws[k].text)
			f.conf = min(f.conf, ws[k].conf)
			f.y0, f.y1 = min(f.y0, ws[k].y0), max(f.y1, ws[k].y1)
		}
		out[i] = f
	}
	return out
}

// amounts keeps the figures that are money (two decimals).
func amounts(fs []figure) []figure {
	var out []figure
	for _, f := range fs {
		if f.isAmount() {
			out = append(out, f)
		}
	}
	return out
}

// interpreter reads one page range's positioned text.
type interpreter struct {
	doc page
	// ocr: the words came from OCR (boxes as high as the ink, values
	// less sure).
	ocr bool
}

// lineHeight is a line's typical height, for gaps measured in lines.
func (in *interpreter) lineHeight(li int) float64 {
	h := in.doc.lines[li].height()
	if h <= 0 {
		return 10
	}
	return h
}

// cellsBelow lists the phrases under the span [x0, x1] of line li over the
// next few lines on the page, stopping at a gap, a label under it, or
// more than maxLines lines; each marked with whether its row says year
// to date (its first phrase does, as in a "YTD" row of a summary).
func (in *interpreter) cellsBelow(li int, x0, x1 float64, maxLines int) []cellBelow {
	lines := in.doc.lines
	h := in.lineHeight(li)
	var out []cellBelow
	ytdBand := false
	for i := li + 1; i < len(lines) && i <= li+maxLines && lines[i].page == lines[li].page; i++ {
		if lines[i].y0-lines[i-1].y1 > 3*h {
			break
		}
		rowYTD, rowCurrent := rowSays(lines[i])
		if rowYTD && !slices.ContainsFunc(lines[i].phrases, func(p phrase) bool { return len(figuresIn(p)) > 0 }) {
			ytdBand = true // a "Year to date" caption over the rows that follow
			continue
		}
		rowYTD = rowYTD || ytdBand
		for _, p := range lines[i].phrases {
			if p.x1 < x0-h || p.x0 > x1+h {
				continue
			}
			if p.label != fieldNone && len(figuresIn(p)) == 0 {
				return out
			}
			out = append(out, cellBelow{p, rowYTD, rowCurrent})
		}
	}
	return out
}

// cellBelow is a phrase under a label, and what its row's first phrase
// says it holds.
type cellBelow struct {
	phrase
	rowYTD, rowCurrent bool
}

// rowSays tells whether a line's first phrase names its row year to date
// or current ("YTD", "Year To Date", "Current", "This Period").
func rowSays(l textLine) (ytd, current bool) {
	if len(l.phrases) == 0 {
		return false, false
	}
	first := l.phrases[0]
	ws := first.words
	var lead []string
	for _, w := range ws {
		if hasDigitStart(w.text) {
			break
		}
		lead = append(lead, w.text)
	}
	switch squash(strings.Join(lead, " ")) {
	case "ytd", "yeartodate", "ytdtotal", "ytdtotals", "ytdamount", "yeartodatetotals":
		return true, false
	case "current", "thisperiod", "currentperiod", "thispay", "thischeck", "currentamount":
		return false, true
	}
	return false, false
}

// cleanName trims what is not part of a name from a value read after a
// label.
func cleanName(s string) string {
	// Marks OCR reads at a name's edges (a speck as ‘ or ©) and the
	// punctuation that separates it from its label are no part of it.
	s = strings.TrimLeftFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	s = strings.TrimRightFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' && r != ')'
	})
	if s == "" || !strings.ContainsFunc(s, unicode.IsLetter) {
		return ""
	}
	return strings.Join(strings.Fields(s), " ")
}

// textAfter reads a text value a label names: after its words in the same
// phrase, else the next phrase to the right, else the phrase below.
func (in *interpreter) textAfter(li, pi int) (string, phrase) {
	l := in.doc.lines[li]
	p := l.phrases[pi]
	if p.labelWords > 0 && p.labelWords < len(p.words) {
		rest := phrase{text: wordsText(p.words[p.labelWords:]), words: p.words[p.labelWords:], page: p.page, line: p.line, conf: p.conf,
			x0: p.words[p.labelWords].x0, x1: p.x1, y0: p.y0, y1: p.y1}
		return strings.TrimSpace(strings.TrimLeft(rest.text, ":")), rest
	}
	if _, after, ok := strings.Cut(p.text, ":"); ok && strings.TrimSpace(after) != "" {
		return strings.TrimSpace(after), p
	}
	if pi+1 < len(l.phrases) && l.phrases[pi+1].label == fieldNone && !namesSomething(l.phrases[pi+1].text) {
		return l.phrases[pi+1].text, l.phrases[pi+1]
	}
	lines := in.doc.lines
	for i := li + 1; i < len(lines) && i <= li+2 && lines[i].page == l.page; i++ {
		for _, q := range lines[i].phrases {
			if q.x1 >= p.x0-2 && q.x0 <= p.x1+2 {
				if q.label != fieldNone {
					return "", phrase{}
				}
				return q.text, q
			}
		}
	}
	return "", phrase{}
}

func wordsText(ws []word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.text
	}
	return strings.Join(parts, " ")
}

// namesSomething says whether a phrase is itself a label or heading (it
// ends in a colon, or heads a table or column), so never a value of the
// label on its left.
func namesSomething(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasSuffix(t, ":") || sectionOf(t) != sectionNone || columnHeaders[squash(t)] != columnNone
}

// isTitle says whether a text is one of a paystub's own headings.
func isTitle(text string) bool {
	n := normalize(text)
	sq := squash(text)
	for _, t := range titles {
		if n == t || strings.HasPrefix(n, t+" ") || sq == squash(t) {
			return true
		}
	}
	return false
}

package documents

import (
	"slices"
	"strings"
)

// candidate is one reading of a money field: a figure found for it, how
// (a label beside it, a table's total, the sum of lines) and how surely.
type candidate struct {
	field  field
	ytd    bool
	cents  int64
	weight float64
	at     figure
	// derived: a sum of lines, not a figure printed.
	derived bool
}

// occurrence is a label found in a phrase: where its words start, how
// many it takes, and what it labels.
type occurrence struct {
	start, n int
	entry    labelEntry
}

// occurrences finds the labels of a phrase: the one it starts with, and
// further money or date labels inside it that a value follows at once
// ("Year To Date: Gross 55,350.00 Net 40,708.44", "Pay stub for period
// Jan 1, 2026 – Jan 15, 2026").
func occurrences(p phrase) []occurrence {
	texts := make([]string, len(p.words))
	for i, w := range p.words {
		texts[i] = w.text
	}
	var out []occurrence
	for i := 0; i < len(texts); {
		e, n := labelAt(texts, i)
		if n == 0 || e.field == fieldNone {
			i++
			continue
		}
		if e.field == fieldOther {
			i += n
			continue
		}
		if i > 0 && (!(e.field.money() || e.field.date()) || i+n >= len(texts) || !valueLike(texts[i+n:])) {
			i++
			continue
		}
		if i == 0 && p.label == fieldNone {
			// The phrase's own start is no label (matchLabel refused it:
			// "Net Pay Distribution"); inside it, only a label a value
			// follows counts.
			if i+n >= len(texts) || !valueLike(texts[i+n:]) {
				i += n
				continue
			}
		}
		out = append(out, occurrence{start: i, n: n, entry: e})
		i += n
	}
	return out
}

// ytdContext says whether a phrase's labels all ask for the year to
// date: it starts "Year To Date" or "YTD" (the inline summary).
func ytdContext(p phrase) bool {
	key := ""
	for _, w := range p.words {
		key += squash(w.text)
		if len(key) >= 10 {
			break
		}
	}
	return strings.HasPrefix(key, "ytd") || strings.HasPrefix(key, "yeartodate")
}

// readings are what the label scan found beside labels: money, dates
// and text values.
type readings struct {
	money []candidate
	dates []dateReading
	texts []textReading
}

// dateReading is dates found after a date label.
type dateReading struct {
	field  field
	dates  []string
	weight float64
	at     phrase
}

// textReading is a name or number found after a label.
type textReading struct {
	field  field
	text   string
	weight float64
	at     phrase
}

// labelReadings reads the value of every label of the document.
func (in *interpreter) labelReadings(tabs []table) readings {
	var out readings
	lines := in.doc.lines
	for li, l := range lines {
		header := in.headerRow(li) != nil
		lineYTD, _ := rowSays(l)
		for pi, p := range l.phrases {
			if header && isHeading(p) {
				continue // a table's headings label its columns, not values
			}
			occs := occurrences(p)
			ytdAll := lineYTD || ytdContext(p)
			for k, o := range occs {
				end := len(p.words)
				if k+1 < len(occs) {
					end = occs[k+1].start
				}
				value := subPhrase(p, o.start+o.n, end)
				alone := k == len(occs)-1 && o.start == 0 // the phrase is the label and its value
				switch {
				case o.entry.field.money():
					in.moneyReadings(&out, tabs, li, pi, p, o, value, alone, ytdAll)
				case o.entry.field.date():
					in.dateReadings(&out, li, pi, p, o, value, alone)
				case o.start == 0:
					text, at := in.textAfter(li, pi)
					if o.entry.field == fieldEIN {
						text = findEIN(p.text + " " + text)
					}
					if text != "" {
						out.texts = append(out.texts, textReading{field: o.entry.field, text: text, weight: o.entry.weight, at: at})
					}
				}
			}
		}
	}
	return out
}

// isHeading says whether a phrase's words are all headings of columns or
// titles of tables.
func isHeading(p phrase) bool {
	hs, unknown := splitHeadings(p)
	return len(hs) > 0 && unknown == 0
}

// subPhrase is the words [from, to) of a phrase as a phrase of its own.
func subPhrase(p phrase, from, to int) phrase {
	if from >= to || from >= len(p.words) {
		return phrase{page: p.page, line: p.line}
	}
	ws := p.words[from:to]
	q := phrase{text: wordsText(ws), words: ws, page: p.page, line: p.line, conf: 1, x0: ws[0].x0, x1: ws[len(ws)-1].x1, y0: p.y0, y1: p.y1}
	for _, w := range ws {
		q.conf = min(q.conf, w.conf)
	}
	return q
}

// moneyReadings reads a money label's figures: in its phrase after it,
// then (for a phrase that is the label alone) the phrases to its right
// up to the next label, placed by the columns of the table it is in or
// the header row above; else the figures under it (a box, a summary's
// Current and YTD rows).
func (in *interpreter) moneyReadings(out *readings, tabs []table, li, pi int, p phrase, o occurrence, value phrase, alone, ytdAll bool) {
	figs := amounts(figuresIn(value))
	if alone {
		for _, q := range in.phrasesRight(li, pi) {
			figs = append(figs, amounts(figuresIn(q))...)
		}
	}
	// A label that is a row of a table reads its figures in the table.
	for _, t := range tabs {
		if p.center() < t.x0 || p.center() >= t.x1 || !slices.ContainsFunc(t.rows, func(r tableRow) bool { return r.line == li }) {
			continue
		}
		figs = slices.DeleteFunc(figs, func(f figure) bool { return f.center() < t.x0 || f.center() >= t.x1 })
		break
	}
	w := o.entry.weight
	add := func(f figure, ytd bool, weight float64) {
		out.money = append(out.money, candidate{field: o.entry.field, ytd: ytd, cents: f.cents(), weight: weight * f.conf, at: f})
		if in.ocr {
			if v, ok := dollarMisread(f); ok {
				// A second reading: OCR may have read the dollar sign as a
				// digit. The arithmetic decides between the two.
				out.money = append(out.money, candidate{field: o.entry.field, ytd: ytd, cents: v, weight: 0.7 * weight * f.conf, at: f})
			}
		}
	}
	ytdLabel := o.entry.ytd || ytdAll
	if len(figs) > 0 {
		switch {
		case ytdLabel:
			add(figs[0], true, w)
			return
		case len(figs) == 1:
			add(figs[0], false, w)
			return
		}
		if cols := in.columnsFor(tabs, li, figs); cols != nil {
			placed := false
			for _, f := range figs {
				switch columnOf(cols, f.x0, f.x1) {
				case columnCurrent:
					add(f, false, w)
					placed = true
				case columnYTD:
					add(f, true, w)
					placed = true
				}
			}
			if placed {
				return
			}
		}
		// Two figures are the period's and the year's; with more, the
		// last two are, likeliest (hours come first), or the first two.
		n := len(figs)
		add(figs[n-2], false, w*0.9)
		add(figs[n-1], true, w*0.9)
		if n > 2 {
			add(figs[0], false, w*0.4)
			add(figs[1], true, w*0.4)
		}
		return
	}
	if o.start != 0 || !alone {
		return
	}
	// Figures under the label: a box or a summary's rows.
	first := true
	for _, c := range in.cellsBelow(li, p.x0, p.x1, 4) {
		for _, f := range amounts(figuresIn(c.phrase)) {
			switch {
			case c.rowYTD || ytdLabel || strings.Contains(normalize(c.text), "ytd"):
				add(f, true, w*0.95)
			case first || c.rowCurrent:
				add(f, false, w*0.95)
				first = false
			}
		}
	}
}

// columnsFor are the columns that place figures on line li: those of the
// table the line is a row of, else of the nearest header row above whose
// columns span the figures.
func (in *interpreter) columnsFor(tabs []table, li int, figs []figure) []column {
	for _, t := range tabs {
		if len(t.cols) == 0 || figs[0].center() < t.x0 || figs[len(figs)-1].center() >= t.x1 {
			continue
		}
		for _, r := range t.rows {
			if r.line == li {
				return t.cols
			}
		}
	}
	lines := in.doc.lines
	for i := li - 1; i >= 0 && i >= li-30 && lines[i].page == lines[li].page; i-- {
		for _, hs := range in.headerRow(i) {
			x0, x1 := hs[0].x0, hs[len(hs)-1].x1
			if figs[0].x1 >= x0 && figs[len(figs)-1].x0 <= x1+40 {
				cols := make([]column, len(hs))
				for k, h := range hs {
					cols[k] = column{kind: h.kind, x0: h.x0, x1: h.x1}
				}
				return cols
			}
		}
	}
	return nil
}

// phrasesRight are the phrases to the right of phrase pi of line li, up
// to the next label: on its line, or on the line above or below when
// they sit at its height (OCR's boxes put a value a little above or
// below its label, and lines group them apart).
func (in *interpreter) phrasesRight(li, pi int) []phrase {
	lines := in.doc.lines
	p := lines[li].phrases[pi]
	h := p.y1 - p.y0
	var out []phrase
	for i := max(0, li-1); i <= li+1 && i < len(lines); i++ {
		if lines[i].page != lines[li].page {
			continue
		}
		for k, q := range lines[i].phrases {
			if i == li && k <= pi {
				continue
			}
			c := (q.y0 + q.y1) / 2
			if q.x0 < p.x1-2 || c < p.y0-0.5*h || c > p.y1+0.5*h {
				continue
			}
			out = append(out, q)
		}
	}
	slices.SortStableFunc(out, func(a, b phrase) int { return cmpFloat(a.x0, b.x0) })
	// The value ends at the next label (a phrase's figures before a label
	// run into it are still this one's), or at words after it that are
	// no value (another column's row beside it: "Totl Hrs Worked 80.00").
	for k, q := range out {
		if q.label != fieldNone || len(occurrences(q)) > 0 {
			return out[:k]
		}
		if at := labelInside(q); at > 0 {
			return append(out[:k], subPhrase(q, 0, at))
		}
		if k > 0 && len(figuresIn(q)) == 0 && len(findDates(q.text)) == 0 && letters(q.text) > 2 {
			return out[:k]
		}
	}
	return out
}

// labelInside is the word at which a label starts inside a phrase after
// its first word, 0 when none does.
func labelInside(p phrase) int {
	texts := make([]string, len(p.words))
	for i, w := range p.words {
		texts[i] = w.text
	}
	for i := 1; i < len(texts); i++ {
		if e, n := labelAt(texts, i); n > 0 && e.field != fieldNone && e.field != fieldOther {
			return i
		}
	}
	return 0
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// dateReadings reads a date label's dates: after it in its phrase, then
// to its right up to the next label, else under it.
func (in *interpreter) dateReadings(out *readings, li, pi int, p phrase, o occurrence, value phrase, alone bool) {
	text := value.text
	at := value
	if alone {
		for _, q := range in.phrasesRight(li, pi) {
			if text == "" {
				at = q
			}
			text += " " + q.text
		}
	}
	ds := findDates(text)
	if len(ds) == 0 && alone && o.start == 0 {
		var below []string
		for _, c := range in.cellsBelow(li, p.x0, p.x1, 2) {
			if len(findDates(c.text)) > 0 && len(below) == 0 {
				at = c.phrase
			}
			below = append(below, c.text)
			if len(findDates(strings.Join(below, " "))) > 0 {
				break
			}
		}
		ds = findDates(strings.Join(below, " "))
	}
	if len(ds) > 0 {
		out.dates = append(out.dates, dateReading{field: o.entry.field, dates: ds, weight: o.entry.weight * max(at.conf, 0.5), at: at})
	}
}

// tableReadings are the candidates a document's tables give: each
// segment's total row (gross from earnings, total taxes, total
// deductions), and the sums of its lines.
func tableReadings(tabs []table) []candidate {
	var out []candidate
	for _, t := range tabs {
		for _, r := range t.rows {
			if !r.total || r.label != fieldNone && r.label != fieldGross && r.label != fieldTaxes && r.label != fieldDeductions {
				continue
			}
			f := fieldForSection(r.kind)
			if r.label != fieldNone {
				continue // read as a label already (labelReadings)
			}
			if f == fieldNone {
				continue
			}
			w := 0.8
			if r.name == "" {
				w = 0.6 // a total without a label
			}
			if r.cur != nil {
				out = append(out, candidate{field: f, cents: r.cur.cents(), weight: w * r.cur.conf, at: *r.cur})
			}
			if r.ytd != nil {
				out = append(out, candidate{field: f, ytd: true, cents: r.ytd.cents(), weight: w * r.ytd.conf, at: *r.ytd})
			}
		}
	}
	return out
}

func fieldForSection(k sectionKind) field {
	switch k {
	case sectionEarnings:
		return fieldGross
	case sectionTaxes:
		return fieldTaxes
	case sectionDeductions:
		return fieldDeductions
	case sectionReimbursements:
		return fieldReimbursements
	}
	return fieldNone
}

// dollarMisread reads a figure OCR may have read with its dollar sign as
// a digit ("$542.45" as "9542.45" or "8542.45"): no dollar sign, no
// thousands separator, four digits or more before the point, the first of
// them one a "$" is mistaken for. It gives the figure without that digit.
func dollarMisread(f figure) (int64, bool) {
	t := strings.TrimLeft(f.text, "(-")
	if f.dollar || strings.Contains(t, ",") || len(t) < 7 || !strings.ContainsRune("9853", rune(t[0])) {
		return 0, false
	}
	whole, _, ok := strings.Cut(t[1:], ".")
	if !ok || len(whole) < 3 {
		return 0, false
	}
	n, ok := parseNumber(t[1:])
	if !ok || !n.isAmount() {
		return 0, false
	}
	return n.cents(), true
}

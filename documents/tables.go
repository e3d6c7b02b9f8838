package documents

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// heading is one heading of a header row: a column's, or a table's title.
type heading struct {
	text    string
	kind    columnKind
	section sectionKind
	x0, x1  float64
}

// column is a table's column: what it holds and where.
type column struct {
	kind   columnKind
	x0, x1 float64
}

// table is a table of pay lines: a header row of columns, then rows,
// in segments where a title line switches what the rows are (ADP's
// "Statutory Deductions" and "Voluntary Deductions" under one header).
type table struct {
	header int // the header row's line; -1 for a table of a title alone
	page   int
	x0, x1 float64
	cols   []column
	kind   sectionKind
	rows   []tableRow
}

// tableRow is one row of a table: its name and its figures by column.
type tableRow struct {
	line int
	kind sectionKind // the segment it is in
	name string
	// label is the field its name labels (Gross Pay, Net Pay, Total
	// Taxes), fieldNone for a pay line.
	label field
	// total: its name says total, or it has no name but figures (the
	// foot of a column, printed without a label).
	total                         bool
	cur, ytd, hours, rate, ytdHrs *figure
	figs                          []figure
}

// splitHeadings splits a phrase into the headings its words spell,
// longest first; unknown counts the words that spell none.
func splitHeadings(p phrase) (out []heading, unknown int) {
	ws := p.words
	for i := 0; i < len(ws); {
		best, bestN := heading{}, 0
		for n := min(5, len(ws)-i); n >= 1; n-- {
			text := wordsText(ws[i : i+n])
			key := squash(text)
			if key == "" {
				continue
			}
			h := heading{text: text, x0: ws[i].x0, x1: ws[i+n-1].x1}
			if k, ok := columnHeaders[key]; ok {
				h.kind = k
			} else if s := sectionHeaders[key]; s != sectionNone {
				h.kind, h.section = columnDescription, s
			} else {
				continue
			}
			best, bestN = h, n
			break
		}
		if bestN == 0 {
			if squash(ws[i].text) != "" {
				unknown++
			}
			i++
			continue
		}
		out = append(out, best)
		i += bestN
	}
	return out, unknown
}

// headerRow reads line li as a table's header row: the headings of its
// phrases, with at least one column of money (current or year to date)
// and another heading, no figure, and few words that are no heading.
// Headings after a table's money columns that title a table start
// another table beside it. It returns the tables' headings, left to
// right, nil when the line is no header row.
func (in *interpreter) headerRow(li int) [][]heading {
	l := in.doc.lines[li]
	var all []heading
	unknown, words, labelled := 0, 0, 0
	for _, p := range l.phrases {
		if len(figuresIn(p)) > 0 || len(findDates(p.text)) > 0 {
			return nil
		}
		// Labels of fields that title no table ("Total Taxes", "Net
		// Amount") make a band of a summary's labels, not a header row.
		if p.label != fieldNone && sectionOf(p.text) == sectionNone && columnHeaders[squash(p.text)] == columnNone {
			if labelled++; labelled >= 2 {
				return nil
			}
		}
		hs, u := splitHeadings(p)
		all = append(all, hs...)
		// A table's title cell may say more than its title ("Employer Paid
		// (not in net pay)"): its other words are no doubt of the row.
		if len(all) == len(hs) && len(hs) > 0 && hs[0].kind == columnDescription && hs[0].section != sectionNone {
			u = 0
		}
		unknown += u
		words += len(p.words)
	}
	if len(all) < 2 || unknown*3 > words {
		return nil
	}
	// A line of titles alone ("EARNINGS  TAXES  DEDUCTIONS") titles
	// tables side by side; it heads no columns.
	if !slices.ContainsFunc(all, func(h heading) bool { return h.kind != columnDescription }) {
		return nil
	}
	// Split side-by-side tables: a description or title after a money
	// column starts the next table. Inside a table, a title word after
	// its description ("Earnings" under PeopleSoft's Current group) is
	// an amount column.
	var tables [][]heading
	var cur []heading
	hasMoney, hasDesc := false, false
	moneyAfter := func(i int) bool {
		return slices.ContainsFunc(all[i+1:], func(h heading) bool { return h.kind == columnCurrent || h.kind == columnYTD })
	}
	for i, h := range all {
		if h.kind == columnDescription {
			if hasMoney && moneyAfter(i) {
				tables = append(tables, cur)
				cur, hasMoney, hasDesc = nil, false, false
			} else if hasDesc {
				h.kind, h.section = columnCurrent, sectionNone
			}
		}
		if h.kind == columnDescription {
			hasDesc = true
		}
		if h.kind == columnCurrent || h.kind == columnYTD {
			hasMoney = true
		}
		cur = append(cur, h)
	}
	tables = append(tables, cur)
	money := 0
	for _, hs := range tables {
		for _, h := range hs {
			if h.kind == columnCurrent || h.kind == columnYTD {
				money++
			}
		}
	}
	if money == 0 {
		return nil
	}
	return tables
}

// groupRow reads line li as a row of column groups over a header row
// ("Current" over Rate, Hours, Earnings; "YTD" over Hours, Earnings): at
// least two headings, each Current or YTD, nothing else.
func (in *interpreter) groupRow(li int) []heading {
	l := in.doc.lines[li]
	var out []heading
	for _, p := range l.phrases {
		hs, u := splitHeadings(p)
		if u > 0 {
			return nil
		}
		for _, h := range hs {
			if h.kind != columnCurrent && h.kind != columnYTD {
				return nil
			}
			out = append(out, h)
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// applyGroups reads a header's columns under their groups: under a
// year-to-date group, hours are year-to-date hours and amounts
// year-to-date amounts.
func applyGroups(cols []column, groups []heading) {
	for i := range cols {
		c := (cols[i].x0 + cols[i].x1) / 2
		g := groups[0]
		for k := 1; k < len(groups); k++ {
			if c >= (groups[k-1].x1+groups[k].x0)/2 {
				g = groups[k]
			}
		}
		if g.kind != columnYTD {
			continue
		}
		switch cols[i].kind {
		case columnHours:
			cols[i].kind = columnYTDHours
		case columnCurrent:
			cols[i].kind = columnYTD
		case columnRate:
			cols[i].kind = columnOther
		}
	}
}

// titleOf reads a line (or the part of it in [x0, x1)) as a table's
// title: a phrase that titles a section, with no figure beside it in
// the part.
func (in *interpreter) titleOf(li int, x0, x1 float64) (sectionKind, bool) {
	kind := sectionNone
	for _, p := range in.doc.lines[li].phrases {
		if c := p.center(); c < x0 || c >= x1 {
			continue
		}
		if len(figuresIn(p)) > 0 {
			return sectionNone, false
		}
		if k := sectionOf(p.text); k != sectionNone && kind == sectionNone {
			kind = k
		}
	}
	return kind, kind != sectionNone
}

// tables finds the document's tables of pay lines.
func (in *interpreter) tables() []table {
	lines := in.doc.lines
	var out []table
	covered := map[int]bool{} // lines read as a table's rows
	for li := range lines {
		groups := in.headerRow(li)
		if groups == nil {
			continue
		}
		if li+1 < len(lines) && lines[li+1].page == lines[li].page && in.groupRow(li) != nil && in.headerRow(li+1) != nil {
			continue // the groups over the header row below
		}
		var above []heading
		if li > 0 && lines[li-1].page == lines[li].page {
			above = in.groupRow(li - 1)
		}
		titles := in.titlesAbove(li)
		var owners []int // the title each group is under
		if len(titles) >= 2 {
			groups, owners = splitByTitles(groups, titles)
		}
		for gi, hs := range groups {
			// A table reaches a little past its last heading (figures are
			// right-aligned under headings that may be shorter), not to a
			// column of something else beside it.
			lh := in.lineHeight(li)
			t := table{header: li, page: lines[li].page, x0: hs[0].x0 - lh, x1: hs[len(hs)-1].x1 + 4*lh}
			if gi+1 < len(groups) {
				t.x1 = min(t.x1, groups[gi+1][0].x0-lh/2)
			} else if beside := in.nextPhraseRight(li, hs[len(hs)-1].x1); beside < t.x1 {
				t.x1 = beside - lh/2
			}
			for _, h := range hs {
				t.cols = append(t.cols, column{kind: h.kind, x0: h.x0, x1: h.x1})
				if h.section != sectionNone && t.kind == sectionNone {
					t.kind = h.section
				}
			}
			if above != nil {
				applyGroups(t.cols, above)
			}
			if owners != nil {
				// The title over this part of the header row spans it: its
				// rows' codes may stand left of the first heading.
				k := owners[gi]
				t.kind, t.x0 = titles[k].section, titles[k].x0-lh/2
				if k+1 < len(titles) {
					t.x1 = titles[k+1].x0 - lh/2
				}
			}
			if t.kind == sectionNone {
				t.kind = in.titleAbove(li, t.x0, t.x1)
			}
			in.readRows(&t, covered)
			out = append(out, t)
		}
	}
	// Tables with a title and no header row of their own: their rows
	// take the columns of the header row above them, if one spans them.
	for li := range lines {
		if covered[li] || in.headerRow(li) != nil {
			continue
		}
		ps := lines[li].phrases
		for pi, p := range ps {
			kind := sectionOf(p.text)
			if kind == sectionNone || len(figuresIn(p)) > 0 || strings.Contains(p.text, ":") {
				continue
			}
			t := table{header: li, page: lines[li].page, x0: p.x0 - in.lineHeight(li), x1: 1e18, kind: kind}
			if pi+1 < len(ps) {
				t.x1 = ps[pi+1].x0 - in.lineHeight(li)/2
			}
			t.cols = in.columnsAbove(li, t.x0, t.x1)
			in.readRows(&t, covered)
			if len(t.rows) > 0 {
				out = append(out, t)
			}
		}
	}
	return out
}

// columnsAbove are the columns of the nearest header row above line li
// on its page whose columns fall in [x0, x1).
func (in *interpreter) columnsAbove(li int, x0, x1 float64) []column {
	lines := in.doc.lines
	for i := li - 1; i >= 0 && lines[i].page == lines[li].page; i-- {
		for _, hs := range in.headerRow(i) {
			var cols []column
			for _, h := range hs {
				if c := (h.x0 + h.x1) / 2; c >= x0 && c < x1 {
					cols = append(cols, column{kind: h.kind, x0: h.x0, x1: h.x1})
				}
			}
			if len(cols) >= 2 {
				return cols
			}
		}
	}
	return nil
}

// nextPhraseRight is where the first phrase of line li that starts right
// of x begins, past the page's edge when none does.
func (in *interpreter) nextPhraseRight(li int, x float64) float64 {
	for _, p := range in.doc.lines[li].phrases {
		if p.x0 > x {
			return p.x0
		}
	}
	return 1e18
}

// titlesAbove are the titles of tables side by side on the line just
// above a header row (or the one above it): phrases that title a section,
// with no figure on the line.
func (in *interpreter) titlesAbove(li int) []heading {
	lines := in.doc.lines
	for i := li - 1; i >= 0 && i >= li-2 && lines[i].page == lines[li].page; i-- {
		var out []heading
		for _, p := range lines[i].phrases {
			if len(figuresIn(p)) > 0 {
				return nil
			}
			if k := sectionOf(p.text); k != sectionNone {
				out = append(out, heading{text: p.text, kind: columnDescription, section: k, x0: p.x0, x1: p.x1})
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// splitByTitles splits a header row's headings into tables by the titles
// side by side above it: each title's table runs from it to the next. It
// returns the groups and the title each is under.
func splitByTitles(groups [][]heading, titles []heading) ([][]heading, []int) {
	byTitle := make([][]heading, len(titles))
	for _, hs := range groups {
		for _, h := range hs {
			c := (h.x0 + h.x1) / 2
			k := 0
			for i, tt := range titles {
				if c >= tt.x0-5 {
					k = i
				}
			}
			byTitle[k] = append(byTitle[k], h)
		}
	}
	var out [][]heading
	var owners []int
	for k, hs := range byTitle {
		if len(hs) > 0 {
			out, owners = append(out, hs), append(owners, k)
		}
	}
	return out, owners
}

// titleAbove is the title of the table whose header row is line li,
// printed on its own line just above (within two lines).
func (in *interpreter) titleAbove(li int, x0, x1 float64) sectionKind {
	lines := in.doc.lines
	for i := li - 1; i >= 0 && i >= li-2 && lines[i].page == lines[li].page; i-- {
		if k, ok := in.titleOf(i, x0, x1); ok {
			return k
		}
		if in.groupRow(i) == nil && len(lines[i].phrases) > 0 {
			break
		}
	}
	return sectionNone
}

// maxTableRows bounds a table's rows.
const maxTableRows = 40

// readRows reads a table's rows: the lines under its header, within its
// span, to a gap of more than two and a half lines, another header row
// over it, or the end of the page. A title line switches what the rows
// are.
func (in *interpreter) readRows(t *table, covered map[int]bool) {
	lines := in.doc.lines
	kind := t.kind
	last := t.header
	var gaps []float64
	for i := t.header + 1; i < len(lines) && i <= t.header+maxTableRows && lines[i].page == t.page; i++ {
		// A gap wider than a line and a half, and than three of the
		// table's own gaps between rows, ends it.
		// (measured from the line above, which a table beside this one
		// may hold)
		gap := lines[i].y0 - lines[i-1].y1
		if lines[i].y0-lines[last].y1 > 3.5*in.lineHeight(i) {
			break
		}
		typical := 0.0
		if len(gaps) > 0 {
			sorted := slices.Clone(gaps)
			slices.Sort(sorted)
			typical = sorted[len(sorted)/2]
		}
		if gap > 2.5*in.lineHeight(i) || (len(gaps) >= 2 && gap > max(1.5*in.lineHeight(i), 3*typical+1)) {
			break
		}
		if hs := in.headerRow(i); hs != nil && overlapsTables(hs, t.x0, t.x1) {
			break
		}
		cells := clipLine(lines[i], t.x0, t.x1)
		if len(cells) == 0 {
			continue
		}
		if labelBand(lines[i].phrases) {
			break // a band of labels over their values: a summary below the table
		}
		if k, ok := in.titleOf(i, t.x0, t.x1); ok {
			kind = k
			covered[i] = true
			gaps, last = append(gaps, max(0, gap)), i
			continue
		}
		row, ok := in.readRow(t, i, cells, kind)
		if !ok {
			continue
		}
		gaps, last = append(gaps, max(0, gap)), i
		covered[i] = true
		t.rows = append(t.rows, row)
		if row.label == fieldNet {
			break // net pay ends gross-to-net: what follows is where it went
		}
	}
	closeByTotals(t)
}

// closeByTotals gives the rows of a table without titles the kind of the
// total that closes them: the rows above "Total Gross Pay" are earnings,
// above "Total Taxes" taxes, above "Total Deductions" deductions (one
// Description / Amount table of a word processor's advice).
func closeByTotals(t *table) {
	from := 0
	for i, r := range t.rows {
		if !r.total {
			continue
		}
		kind := sectionNone
		switch r.label {
		case fieldGross:
			kind = sectionEarnings
		case fieldTaxes:
			kind = sectionTaxes
		case fieldDeductions, fieldPreTax, fieldPostTax:
			kind = sectionDeductions
		}
		if kind != sectionNone {
			for k := from; k < i; k++ {
				if !t.rows[k].total && (t.rows[k].kind == sectionNone || t.kind == sectionNone) {
					t.rows[k].kind = kind
				}
			}
		}
		from = i + 1
	}
}

// clipLine is a line's part within [x0, x1): its phrases' words whose
// centres fall there, regrouped into phrases (a text layer may run a
// figure of one table and the name of the next into one phrase).
func clipLine(l textLine, x0, x1 float64) []phrase {
	var out []phrase
	for _, p := range l.phrases {
		from := -1
		prevIn := false
		for k, w := range p.words {
			c := (w.x0 + w.x1) / 2
			in := c >= x0 && c < x1
			// A figure's mark (CR, DR, *) goes where its figure goes.
			if k > 0 && figureMark(w.text) && hasDigitStart(p.words[k-1].text) {
				in = prevIn
			}
			prevIn = in
			switch {
			case in && from < 0:
				from = k
			case !in && from >= 0:
				out = append(out, clipped(p, from, k))
				from = -1
			}
		}
		if from >= 0 {
			out = append(out, clipped(p, from, len(p.words)))
		}
	}
	return out
}

// figureMark says whether a word is a mark a figure is printed with.
func figureMark(w string) bool {
	switch strings.ToUpper(w) {
	case "CR", "DR", "*", "**", "-":
		return true
	}
	return false
}

// clipped is words [from, to) of a phrase as a phrase, its label found
// anew.
func clipped(p phrase, from, to int) phrase {
	if from == 0 && to == len(p.words) {
		return p
	}
	q := subPhrase(p, from, to)
	q.label, q.labelYTD, q.labelWords = matchLabel(q.text)
	return q
}

// labelBand says whether a row's cells are labels without figures, two
// or more: the headings of a summary box, not a table's row.
func labelBand(cells []phrase) bool {
	labels := 0
	for _, c := range cells {
		if len(figuresIn(c)) > 0 {
			return false
		}
		if c.label != fieldNone {
			labels++
		}
	}
	return labels >= 2
}

func overlapsTables(groups [][]heading, x0, x1 float64) bool {
	for _, hs := range groups {
		for _, h := range hs {
			if c := (h.x0 + h.x1) / 2; c >= x0 && c < x1 {
				return true
			}
		}
	}
	return false
}

// readRow reads one row of a table: its name (the words before its first
// figure) and its figures placed in the table's columns.
func (in *interpreter) readRow(t *table, li int, cells []phrase, kind sectionKind) (tableRow, bool) {
	row := tableRow{line: li, kind: kind}
	var name []string
	for _, c := range cells {
		figs := figuresIn(c)
		if len(figs) == 0 {
			if len(row.figs) == 0 && len(findDates(c.text)) == 0 {
				name = append(name, c.text)
			}
			continue
		}
		// The name's words before the first figure in the phrase.
		if len(row.figs) == 0 {
			for _, w := range c.words {
				if w.x0 >= figs[0].x0-0.1 {
					break
				}
				name = append(name, w.text)
			}
		}
		row.figs = append(row.figs, figs...)
	}
	row.name = cleanName(strings.Join(name, " "))
	if len(row.figs) == 0 {
		return row, false
	}
	if ytd, current := rowSays(in.doc.lines[li]); ytd || current {
		// A summary's "YTD" or "Current" row: its figure is a total.
		row.total = true
		if f := amounts(row.figs); len(f) > 0 {
			if ytd {
				row.ytd = &f[0]
			} else {
				row.cur = &f[0]
			}
		}
		return row, true
	}
	if row.name != "" {
		f, _, _ := matchLabel(row.name)
		row.label = f
		n := normalize(row.name)
		// A row named as its table is titled ("Earnings" under Earnings)
		// is the table's total.
		row.total = strings.HasPrefix(n, "total") || n == "totals" || strings.HasSuffix(n, " total") || row.label != fieldNone ||
			(kind != sectionNone && sectionOf(row.name) == kind && squash(row.name) == squash(firstSectionWords(row.name)))
	} else {
		row.total = true
	}
	in.placeFigures(t.cols, &row)
	if row.hours == nil && row.rate == nil {
		// "Regular (76.00 hrs @ 45.52)": the hours and rate in the name.
		if m := hoursAtRate.FindStringSubmatch(row.name); m != nil {
			h, okh := parseNumber(m[1])
			r, okr := parseNumber(m[2])
			if okh && okr {
				row.hours, row.rate = &figure{number: h, text: m[1], conf: 1}, &figure{number: r, text: m[2], conf: 1}
			}
		}
	}
	return row, true
}

// hoursAtRate finds hours and a rate written into a line's name.
var hoursAtRate = regexp.MustCompile(`(?i)(\d[\d,]*\.?\d*)\s*(?:hrs|hours|hr|h)\.?\s*(?:@|x|at)\s*\$?(\d[\d,]*\.\d+)`)

// firstSectionWords is the words of a text that title a section.
func firstSectionWords(text string) string {
	ws := strings.Fields(text)
	for n := len(ws); n >= 1; n-- {
		if sectionHeaders[squash(strings.Join(ws[:n], " "))] != sectionNone {
			return strings.Join(ws[:n], " ")
		}
	}
	return ""
}

// placeFigures puts a row's figures in its table's columns: each in the
// column it overlaps most, else the nearest by its right edge (figures
// are right-aligned; headings are not always). Without columns, or for
// figures no column takes, their kinds place them: a four-decimal figure
// is a rate; of the amounts, hours × rate = amount finds the current
// amount, and the last amount after it is the year to date.
func (in *interpreter) placeFigures(cols []column, row *tableRow) {
	var loose []figure
	for i := range row.figs {
		f := &row.figs[i]
		kind := columnNone
		if len(cols) > 0 {
			kind = columnOf(cols, f.x0, f.x1)
		}
		switch {
		case kind == columnCurrent && f.isAmount() && row.cur == nil:
			row.cur = f
		case kind == columnYTD && f.isAmount() && row.ytd == nil:
			row.ytd = f
		case kind == columnHours && row.hours == nil:
			row.hours = f
		case kind == columnRate && row.rate == nil:
			row.rate = f
		case kind == columnYTDHours:
			row.ytdHrs = f
		case kind == columnOther || kind == columnDescription:
		default:
			loose = append(loose, *f)
		}
	}
	if len(cols) > 0 && (row.cur != nil || row.ytd != nil) {
		return
	}
	placeByKind(row, loose)
}

// placeByKind places figures without columns by what they are.
func placeByKind(row *tableRow, figs []figure) {
	var amts []figure
	for i := range figs {
		f := figs[i]
		switch {
		case f.scale >= 3 && row.rate == nil:
			row.rate = &f
		case f.isAmount():
			amts = append(amts, f)
		case f.scale <= 1 && f.value > 0 && row.hours == nil:
			row.hours = &f
		}
	}
	switch len(amts) {
	case 0:
		return
	case 1:
		row.cur = &amts[0]
		return
	}
	// hours × rate = amount: the amount after the hours and rate is the
	// period's.
	for i := 0; i+2 < len(amts) && row.hours == nil; i++ {
		h, r, a := amts[i], amts[i+1], amts[i+2]
		if closeProduct(h.hours(), r.rateCents(), a.cents()) {
			row.hours, row.rate = &amts[i], &amts[i+1]
			amts = amts[i+2:]
			break
		}
		if closeProduct(r.hours(), h.rateCents(), a.cents()) { // rate before hours
			row.hours, row.rate = &amts[i+1], &amts[i]
			amts = amts[i+2:]
			break
		}
	}
	if row.rate != nil && row.hours == nil && len(amts) >= 2 && closeProduct(amts[0].hours(), row.rate.rateCents(), amts[1].cents()) {
		row.hours = &amts[0]
		amts = amts[1:]
	}
	row.cur = &amts[0]
	if len(amts) >= 2 {
		row.ytd = &amts[len(amts)-1]
	}
}

// closeProduct says whether hours × rate (in cents) is the amount, to
// within the rounding of a four-decimal rate shown to the cent.
func closeProduct(hours float64, rateCents, amount int64) bool {
	if hours <= 0 || rateCents <= 0 {
		return false
	}
	p := hours * float64(rateCents)
	d := p - float64(amount)
	return d < 0.5+hours*0.5 && d > -0.5-hours*0.5
}

// columnOf gives the column a figure sits under: the one its span
// overlaps most, else the nearest by its right edge or centre.
func columnOf(cols []column, x0, x1 float64) columnKind {
	best, bestScore := columnNone, -1e18
	for _, c := range cols {
		overlap := min(x1, c.x1) - max(x0, c.x0)
		score := overlap
		if overlap <= 0 {
			score = -min(abs(x1-c.x1), abs((x0+x1)/2-(c.x0+c.x1)/2))
		}
		if score > bestScore {
			best, bestScore = c.kind, score
		}
	}
	return best
}

// inferKind names a table without a title by its rows: mostly taxes,
// mostly deductions, or earnings.
func inferKind(rows []tableRow) sectionKind {
	taxes, deductions, earnings := 0, 0, 0
	for _, r := range rows {
		if r.total || r.name == "" {
			continue
		}
		switch {
		case taxCategory(r.name) != "other" && deductionCategory(r.name) == "other":
			taxes++
		case deductionCategory(r.name) != "other":
			deductions++
		case earningCategory(r.name, r.hours != nil) != "other":
			earnings++
		}
	}
	switch {
	case taxes > 0 && deductions > 0 && earnings == 0:
		return sectionTaxesAndDeductions
	case taxes > deductions && taxes > earnings:
		return sectionTaxes
	case deductions > earnings:
		return sectionDeductions
	case earnings > 0:
		return sectionEarnings
	}
	return sectionNone
}

func letters(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

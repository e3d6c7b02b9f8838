package reports

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"golang.org/x/text/encoding/charmap"

	"payline/domain"
)

// Layout of every Payline PDF: US Letter, millimetres.
const (
	margin     = 15.0
	lineH      = 5.0
	footerRoom = 18.0
)

// Colours.
var (
	ink    = [3]int{30, 35, 45}
	muted  = [3]int{110, 115, 125}
	brand  = [3]int{22, 52, 94}
	rule   = [3]int{210, 214, 220}
	shade  = [3]int{244, 246, 249}
	gross  = [3]int{22, 110, 170}
	netCol = [3]int{226, 122, 40}
)

// pdfDoc is an fpdf document with Payline's fonts, footer and helpers.
//
// Every document embeds its fonts (fonts.go), as subsets, and is PDF/A-2b
// (pdfa.go). A document whose text is all in Windows-1252 (WinAnsi, which
// covers English and the Western European names payroll data mostly
// holds) sets it in simple fonts, one byte a character, whose subsets are
// built once a process (simple_fonts.go). Text outside it (Łukasz,
// Дмитрий) takes fpdf's UTF-8 path, which subsets the same fonts for each
// document, several times slower. renderPDF draws a document the fast way
// first and again the UTF-8 way when a string did not fit.
type pdfDoc struct {
	*fpdf.Fpdf
	width  float64 // of the text area
	font   string
	encode func(string) (string, error) // nil when the font takes UTF-8
	// unprintable are the runes the fonts lack (CJK, among others),
	// printed as "?" and named at the end of the document.
	unprintable []rune
}

// renderPDF draws a document and returns its bytes. created fixes the
// PDF's dates, so the same input renders the same bytes; footer is the
// left-hand footer text.
func renderPDF(m pdfMeta, created time.Time, footer string, draw func(d *pdfDoc)) ([]byte, error) {
	d := newPDF(m, created, footer, false)
	if !drawFits(d, func(d *pdfDoc) {
		d.str(footer) // drawn as each page closes, the last one after draw
		draw(d)
	}) {
		d = newPDF(m, created, footer, true)
		draw(d)
	}
	if len(d.unprintable) > 0 {
		// No font here has them (a CJK font would weigh more than the
		// rest of the binary): the document says so rather than drop them.
		var names []string
		for _, r := range d.unprintable {
			names = append(names, fmt.Sprintf("U+%04X", r))
		}
		d.Ln(2)
		d.note("This document could not print " + plural(len(names), "character") + " of the data, shown as ? (Unicode " +
			strings.Join(names, ", ") + "): no font it carries has them. The data itself holds them as written.")
	}
	return d.bytes()
}

// drawFits draws a WinAnsi copy and reports whether every string fit.
// The first that does not ends the drawing there (str panics with
// errMisfit, recovered here, as encoding/json unwinds its encoder): the
// copy is thrown away, so nothing after it is worth formatting.
func drawFits(d *pdfDoc, draw func(d *pdfDoc)) (fits bool) {
	defer func() {
		if r := recover(); r != nil {
			if r != errMisfit {
				panic(r)
			}
			fits = false
		}
	}()
	draw(d)
	return true
}

// pdfMeta is a document's information dictionary: its title, what it is
// (subject), and keywords a document system files it by, the document's
// id (or report reference) among them.
type pdfMeta struct {
	Title, Subject string
	Keywords       []string
	// Figures says, in every page's footer, where the figures come from;
	// empty is the payroll platforms named.
	Figures string
}

// printable is m with each control character of its title, subject and
// keywords a space (a tab, a line break) or "?": the XMP packet, which
// PDF/A requires to repeat them, is XML, which cannot hold them.
func (m pdfMeta) printable() pdfMeta {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case r == '\t' || r == '\r' || r == '\n':
				return ' '
			case r < 0x20 || r == 0x7f:
				return '?'
			}
			return r
		}, s)
	}
	m.Title, m.Subject = clean(m.Title), clean(m.Subject)
	m.Keywords = slices.Clone(m.Keywords)
	for i, k := range m.Keywords {
		m.Keywords[i] = clean(k)
	}
	return m
}

// payrollFigures is the footer's word on figures read from payroll.
const payrollFigures = "Figures are as reported by the payroll platforms named, summed by Payline."

func newPDF(m pdfMeta, created time.Time, footer string, unicode bool) *pdfDoc {
	m = m.printable()
	f := fpdf.New("P", "mm", "Letter", "")
	f.SetCatalogSort(true)
	f.SetCreationDate(created)
	f.SetModificationDate(created)
	f.SetCompression(false) // bytes compresses the pages (pdffile.go)
	f.SetTitle(m.Title, true)
	f.SetSubject(m.Subject, true)
	f.SetKeywords(strings.Join(m.Keywords, ", "), true)
	f.SetAuthor("Payline", true)
	f.SetCreator("Payline", true)
	f.SetProducer("Payline", true)
	d := &pdfDoc{Fpdf: f, font: fontFamily}
	for _, t := range typefaces() {
		if unicode {
			f.AddUTF8FontFromBytes(fontFamily, t.style, t.utf8)
		} else {
			f.AddFontFromBytes(fontFamily, t.style, t.winAnsi.definition, nil) // the program: embedFonts
		}
	}
	if !unicode {
		d.encode = charmap.Windows1252.NewEncoder().String
	}
	pdfaConformance(f, m, created)
	f.SetMargins(margin, margin, margin)
	f.SetAutoPageBreak(true, footerRoom+4)
	f.AliasNbPages("{nb}")
	w, _ := f.GetPageSize()
	d.width = w - 2*margin
	f.SetFooterFunc(func() {
		_, h := f.GetPageSize()
		f.SetY(h - footerRoom)
		d.color(rule, "draw")
		f.Line(margin, f.GetY(), margin+d.width, f.GetY())
		f.Ln(1.5)
		d.text(7.5, "", muted)
		d.CellFormat(d.width*0.75, 4, footer, "", 0, "L", false, 0, "")
		d.CellFormat(d.width*0.25, 4, fmt.Sprintf("Page %d of {nb}", f.PageNo()), "", 1, "R", false, 0, "")
		d.MultiCell(d.width, 3.5, "Payline is not a GSE-authorized report supplier: this report is not issued under the Fannie Mae or Freddie Mac "+
			"verification programs. "+cmp.Or(m.Figures, payrollFigures), "", "L", false)
	})
	f.AddPage()
	return d
}

// str is s in the document's encoding. Tabs and carriage returns are
// spaces (no font draws them, and they separate words). A rune the fonts
// lack, or another control character, does not fit WinAnsi's simple
// fonts; in the UTF-8 fonts it is written "?" and remembered, so the
// document can name it.
func (d *pdfDoc) str(s string) string {
	if printableASCII(s) { // both encodings keep it as it is; most cells are
		return s
	}
	s = blanks.Replace(s)
	if d.encode == nil {
		return strings.Map(func(r rune) rune {
			if r == '\n' || printable(r) {
				return r
			}
			if !slices.Contains(d.unprintable, r) {
				d.unprintable = append(d.unprintable, r)
			}
			return '?'
		}, s)
	}
	out, err := d.encode(s)
	if err != nil || strings.ContainsFunc(s, func(r rune) bool { return (r < 0x20 && r != '\n') || r == 0x7f }) {
		panic(errMisfit) // drawFits recovers it and draws in the UTF-8 fonts
	}
	return out
}

// blanks are the control characters text holds as spaces.
var blanks = strings.NewReplacer("\t", " ", "\r", " ")

// errMisfit stops drawing a WinAnsi copy at a rune it lacks.
var errMisfit = errors.New("reports: a rune outside WinAnsi; drawing again in the UTF-8 fonts")

// printableASCII reports whether s is printable ASCII and line breaks.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\n') || c >= 0x7f {
			return false
		}
	}
	return true
}

// CellFormat is fpdf's, with txt in the document's encoding.
func (d *pdfDoc) CellFormat(w, h float64, txt, border string, ln int, align string, fill bool, link int, linkStr string) {
	d.Fpdf.CellFormat(w, h, d.str(txt), border, ln, align, fill, link, linkStr)
}

// MultiCell is fpdf's, with txt in the document's encoding.
func (d *pdfDoc) MultiCell(w, h float64, txt, border, align string, fill bool) {
	d.Fpdf.MultiCell(w, h, d.str(txt), border, align, fill)
}

func (d *pdfDoc) color(c [3]int, what string) {
	switch what {
	case "draw":
		d.SetDrawColor(c[0], c[1], c[2])
	case "fill":
		d.SetFillColor(c[0], c[1], c[2])
	default:
		d.SetTextColor(c[0], c[1], c[2])
	}
}

func (d *pdfDoc) text(size float64, style string, c [3]int) {
	d.SetFont(d.font, style, size)
	d.color(c, "text")
}

// bytes finishes the document.
func (d *pdfDoc) bytes() ([]byte, error) {
	var buf bytes.Buffer
	if err := d.Output(&buf); err != nil {
		return nil, err
	}
	f, err := parsePDF(buf.Bytes())
	if err != nil {
		return nil, err
	}
	if err := f.embedFonts(); err != nil {
		return nil, err
	}
	if err := f.compressStreams(); err != nil {
		return nil, err
	}
	return pdfaFinish(f)
}

// titleBlock is the cover band: the document's name on the left, and on
// the right the facts that identify this copy.
func (d *pdfDoc) titleBlock(title, subtitle string, facts [][2]string) {
	top := d.GetY()
	d.color(brand, "fill")
	d.Rect(margin, top, d.width, 1.2, "F")
	d.SetY(top + 4)
	d.text(15, "B", brand)
	d.CellFormat(d.width*0.6, 8, title, "", 2, "L", false, 0, "")
	d.text(9.5, "", muted)
	d.CellFormat(d.width*0.6, 5, subtitle, "", 0, "L", false, 0, "")
	y := top + 4
	for _, f := range facts {
		d.SetXY(margin+d.width*0.58, y)
		d.text(8, "", muted)
		d.CellFormat(d.width*0.11, 4.6, f[0], "", 0, "R", false, 0, "")
		d.text(7.5, "B", ink)
		d.CellFormat(d.width*0.31, 4.6, f[1], "", 0, "R", false, 0, "")
		y += 4.6
	}
	d.SetY(max(y, top+18) + 4)
}

// section starts a titled section, on a new page when less than need
// millimetres are left.
func (d *pdfDoc) section(title string, need float64) {
	_, h := d.GetPageSize()
	if d.GetY()+need > h-footerRoom-4 {
		d.AddPage()
	}
	d.Ln(3) // sectionH is these three heights
	d.text(11.5, "B", brand)
	d.CellFormat(d.width, 6.5, title, "", 1, "L", false, 0, "")
	d.color(rule, "draw")
	d.SetLineWidth(0.3)
	d.Line(margin, d.GetY(), margin+d.width, d.GetY())
	d.Ln(2)
}

// fields prints label/value pairs in two columns; a value wider than its
// column wraps, and its row grows.
func (d *pdfDoc) fields(pairs [][2]string) {
	colW := d.width / 2
	for row := 0; row < len(pairs); row += 2 {
		d.keepRow(pairs[row:min(row+2, len(pairs))], colW-30-2*d.GetCellMargin())
		y := d.GetY()
		lines := 1
		for i := row; i < min(row+2, len(pairs)); i++ {
			x := margin + float64(i%2)*colW
			d.SetXY(x, y)
			d.text(8, "", muted)
			d.CellFormat(30, lineH, pairs[i][0], "", 0, "L", false, 0, "")
			d.text(9, "", ink)
			values := d.wrap(pairs[i][1], colW-30-2*d.GetCellMargin())
			for k, v := range values {
				d.SetXY(x+30, y+float64(k)*(lineH-0.6))
				d.CellFormat(colW-30, lineH, v, "", 0, "L", false, 0, "")
			}
			lines = max(lines, len(values))
		}
		d.SetXY(margin, y+float64(lines)*(lineH-0.6)+0.6+0.6)
		if lines == 1 {
			d.SetXY(margin, y+lineH+0.6)
		}
	}
	d.Ln(0.4)
}

// keepRow starts a new page when a row of fields would cross the page's
// bottom: fields draws each value line at a fixed offset from the row's
// top, so a row the automatic page break cut would draw its next line
// back at the old page's bottom, and break again, a page a line.
func (d *pdfDoc) keepRow(pairs [][2]string, valueW float64) {
	lines := 1
	d.text(9, "", ink)
	for _, p := range pairs {
		lines = max(lines, len(d.wrap(p[1], valueW)))
	}
	_, h := d.GetPageSize()
	if d.GetY()+float64(lines-1)*(lineH-0.6)+lineH > h-footerRoom-4 {
		d.AddPage()
	}
}

// column of a table: its title, width in millimetres and alignment.
type column struct {
	title string
	width float64
	align string
}

// Table rows: one line of text fills rowH; a cell whose text is wider
// than its column wraps onto lines of wrapH each, and its row grows.
const (
	rowH  = 5.2
	wrapH = 4.2
)

// table prints rows under a header that repeats on every page the table
// spans; continued, when given, names the table above the header on each
// page after the first (which employer's paystubs these are). Text wider
// than its column wraps within it, never over the next.
func (d *pdfDoc) table(cols []column, rows [][]string, continued ...string) {
	d.tableNote(cols, rows, "", continued...)
}

// tableNote is table with a footnote below it, kept with the table: a
// table that fits on a page starts on a new one rather than split, and a
// longer one moves its last row over with the footnote rather than leave
// the footnote alone on the next page.
func (d *pdfDoc) tableNote(cols []column, rows [][]string, note string, continued ...string) {
	l := d.measure(cols, rows, note)
	if d.GetY()+l.total > l.bottom && pageTop+l.total <= l.bottom {
		d.AddPage()
	}
	d.drawTable(cols, rows, note, l, continued)
}

// sectionTable is a section heading with the table under it, kept
// together: the page breaks before the heading, never between it and
// the table, when the table (whole, if it fits a page with its heading;
// else its header and first rows) does not fit below it.
func (d *pdfDoc) sectionTable(title string, cols []column, rows [][]string, note string, continued ...string) {
	l := d.measure(cols, rows, note)
	need := sectionH + l.start
	if pageTop+sectionH+l.total <= l.bottom {
		need = sectionH + l.total
	}
	d.section(title, need)
	d.drawTable(cols, rows, note, l, continued)
}

// pageTop is where a page's content starts, below its header.
const pageTop = margin + 10.0

// sectionH is the height of a section's heading with its rule.
const sectionH = 3 + 6.5 + 2

// tableLayout is a table's measures: each row's height, its footnote's,
// the whole table's, the height it needs at its top to start where it is
// (its header and first rows), and the page's lowest line.
type tableLayout struct {
	heights                     []float64
	noteH, total, start, bottom float64
}

func (d *pdfDoc) measure(cols []column, rows [][]string, note string) tableLayout {
	_, h := d.GetPageSize()
	l := tableLayout{bottom: h - footerRoom - 4, heights: make([]float64, len(rows)), total: 6}
	d.text(8, "", ink)
	for i, row := range rows {
		l.heights[i] = rowH
		for j, c := range cols {
			l.heights[i] = max(l.heights[i], float64(len(d.wrap(row[j], c.width-2*d.GetCellMargin())))*wrapH+1)
		}
		l.total += l.heights[i]
	}
	if note != "" {
		d.text(8, "", muted)
		for _, para := range strings.Split(note, "\n") {
			l.noteH += float64(len(d.wrap(para, d.width-2*d.GetCellMargin()))) * 4
		}
		l.total += l.noteH
	}
	l.start = 6 + min(l.total-6, 12)
	return l
}

// drawTable draws a measured table from where the page is: its header
// repeats on every page it spans, and a page breaks before its header
// when not even its first rows fit.
func (d *pdfDoc) drawTable(cols []column, rows [][]string, note string, l tableLayout, continued []string) {
	bottom, heights, noteH := l.bottom, l.heights, l.noteH
	header := func() {
		d.color(brand, "fill")
		d.text(7.5, "B", [3]int{255, 255, 255})
		for _, c := range cols {
			d.CellFormat(c.width, 6, c.title, "", 0, c.align, true, 0, "")
		}
		d.Ln(-1)
	}
	newPage := func() {
		d.AddPage()
		if len(continued) > 0 {
			d.text(8, "B", muted)
			d.CellFormat(d.width, 5, continued[0]+" (continued)", "", 1, "L", false, 0, "")
		}
		header()
	}
	if d.GetY()+l.start > bottom {
		d.AddPage()
	}
	header()
	for i, row := range rows {
		d.text(8, "", ink)
		cells := make([][]string, len(cols))
		height := heights[i]
		for j, c := range cols {
			cells[j] = d.wrap(row[j], c.width-2*d.GetCellMargin())
		}
		need := height
		if i == len(rows)-1 {
			need += noteH
		}
		if d.GetY()+need > bottom {
			newPage()
			d.text(8, "", ink)
		}
		x, y := d.GetX(), d.GetY()
		if i%2 == 1 {
			d.color(shade, "fill")
			d.Rect(x, y, d.width, height, "F")
		}
		for j, c := range cols {
			if len(cells[j]) == 1 {
				d.SetXY(x, y)
				d.CellFormat(c.width, rowH, cells[j][0], "", 0, c.align, false, 0, "")
			} else {
				for k, line := range cells[j] {
					d.SetXY(x, y+0.5+float64(k)*wrapH)
					d.CellFormat(c.width, wrapH, line, "", 0, c.align, false, 0, "")
				}
			}
			x += c.width
		}
		d.SetXY(margin, y+height)
	}
	if note != "" {
		d.note(note)
	}
	d.Ln(2)
}

// wrap breaks s into lines no wider than w in the current font, at spaces
// where it can and within a word where it must.
func (d *pdfDoc) wrap(s string, w float64) []string {
	fits := func(t string) bool { return d.GetStringWidth(d.str(t)) <= w }
	if fits(s) {
		return []string{s}
	}
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "" && fits(word):
			line = word
		case line != "" && fits(line+" "+word):
			line += " " + word
		default:
			if line != "" {
				lines = append(lines, line)
				line = ""
			}
			for !fits(word) { // a word wider than the column: cut it
				cut := len([]rune(word)) - 1
				for cut > 1 && !fits(string([]rune(word)[:cut])) {
					cut--
				}
				lines = append(lines, string([]rune(word)[:cut]))
				word = string([]rune(word)[cut:])
			}
			line = word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// note prints a paragraph of small text.
func (d *pdfDoc) note(s string) {
	d.text(8, "", muted)
	d.MultiCell(d.width, 4, s, "", "L", false)
}

func money(cents int64) string { return domain.USD(cents).Formatted() }

// day writes a date as "Mar 4, 2025" (see dateAs).
func day(s string) string { return dateAs(s, "Jan 2, 2006") }

// dateAs writes a YYYY-MM-DD date in a time layout; no date as a dash,
// and one that does not parse as "unknown" (a dash would read as none: an
// employment with a garbled end date has still ended).
func dateAs(s, layout string) string {
	t, err := domain.Date(s).Parse()
	switch {
	case s == "":
		return "—"
	case err != nil:
		return "unknown"
	}
	return t.Format(layout)
}

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}

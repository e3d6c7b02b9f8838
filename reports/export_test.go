package reports

import "time"

// AxisStep is axisStep, for the layout tests.
var AxisStep = axisStep

// CompressPages takes an uncompressed document of fpdf's apart,
// compresses its page streams and writes it, as every document is
// finished, for pdfFile's tests.
func CompressPages(pdf []byte) ([]byte, error) {
	f, err := parsePDF(pdf)
	if err != nil {
		return nil, err
	}
	if err := f.compressStreams(); err != nil {
		return nil, err
	}
	return f.bytes(), nil
}

// Unhinted is unhinted, for its tests.
var Unhinted = unhinted

// CharacterSheet renders text in the regular style and again in bold, as
// every document sets text.
func CharacterSheet(text string) ([]byte, error) {
	return renderPDF(pdfMeta{Title: "Characters"}, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), "footer", func(d *pdfDoc) {
		for _, style := range []string{"", "B"} {
			d.text(10, style, ink)
			d.MultiCell(d.width, 6, text, "", "L", false)
		}
	})
}

// TableWithNote renders one page filled down to leave mm millimetres,
// then a table of rows (one column each: the row's text) with a
// footnote, as the verification report draws its tables.
func TableWithNote(mm float64, rows []string, note string) ([]byte, error) {
	return tableAtFoot(mm, rows, func(d *pdfDoc, cols []column, cells [][]string) { d.tableNote(cols, cells, note) })
}

// tableAtFoot renders one page filled down to leave mm millimetres, then
// draws a one-column table of rows there with draw.
func tableAtFoot(mm float64, rows []string, draw func(d *pdfDoc, cols []column, cells [][]string)) ([]byte, error) {
	return renderPDF(pdfMeta{Title: "t"}, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), "footer", func(d *pdfDoc) {
		_, h := d.GetPageSize()
		d.SetY(h - footerRoom - 4 - mm)
		cells := make([][]string, len(rows))
		for i, r := range rows {
			cells[i] = []string{r}
		}
		draw(d, []column{{"Header", d.width, "L"}}, cells)
	})
}

// WithDocuments is withDocuments, for its tests.
var WithDocuments = withDocuments

// DataVersion is dataVersion, for its tests.
var DataVersion = dataVersion

// SectionTable renders one page filled down to leave mm millimetres,
// then a section headed "The heading" with a table of rows under it and
// a footnote, as the verification report draws its paystubs.
func SectionTable(mm float64, rows []string, note string) ([]byte, error) {
	return tableAtFoot(mm, rows, func(d *pdfDoc, cols []column, cells [][]string) { d.sectionTable("The heading", cols, cells, note) })
}

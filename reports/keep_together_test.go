package reports_test

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"payline/reports"
)

// TestTablesKeepTogether: a table that fits on a page is never split
// from its header or its footnote (a three-row table near the bottom of a
// page starts on the next), and a long table moves its last row over
// with its footnote rather than leave the footnote alone on a page.
func TestTablesKeepTogether(t *testing.T) {
	bin := poppler(t, "pdftotext")
	pages := func(pdf []byte) []string {
		path := writePDF(t, "t.pdf", pdf)
		var out []string
		for n := 1; ; n++ {
			text, err := exec.Command(bin, "-f", fmt.Sprint(n), "-l", fmt.Sprint(n), path, "-").Output()
			if err != nil {
				return out
			}
			out = append(out, string(text))
		}
	}
	short, err := reports.TableWithNote(20, []string{"row one", "row two", "row three"}, "the footnote")
	if err != nil {
		t.Fatal(err)
	}
	p := pages(short)
	if len(p) != 2 || strings.Contains(p[0], "Header") || !strings.Contains(p[1], "Header") || !strings.Contains(p[1], "row three") ||
		!strings.Contains(p[1], "the footnote") {
		t.Errorf("a three-row table near the bottom split: %q", p)
	}

	var rows []string
	for i := range 48 {
		rows = append(rows, fmt.Sprintf("row %02d", i))
	}
	note := strings.Repeat("A long footnote that takes several lines. ", 12)
	// Rooms a few millimetres apart put the table's end at every height of
	// its last page, the footnote's awkward one among them.
	for room := 10.0; room < 100; room += 3 {
		long, err := reports.TableWithNote(room, rows, note)
		if err != nil {
			t.Fatal(err)
		}
		for _, page := range pages(long) {
			if strings.Contains(page, "A long footnote") && !strings.Contains(page, "row 47") {
				t.Errorf("%.0f mm: the footnote is on a page without the table's last row:\n%s", room, page)
			}
			if strings.Contains(page, "row ") && !strings.Contains(page, "Header") {
				t.Errorf("%.0f mm: rows on a page without the header:\n%s", room, page)
			}
		}
	}
}

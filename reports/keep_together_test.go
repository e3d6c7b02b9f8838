package reports_test

import (
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/reports"
)

// TestTablesKeepTogether: a table that fits on a page is never split
// from its header or its footnote (a three-row table near the bottom of a
// page starts on the next), and a long table moves its last row over
// with its footnote rather than leave the footnote alone on a page.
func TestTablesKeepTogether(t *testing.T) {
	pages := func(pdf []byte) []string { return pageTexts(t, pdf) }
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

// TestHeadingsKeepTheirTables: a section's heading is never left at the
// foot of a page with its table on the next (a VOIE's "Paystubs ·"
// heading was): the page breaks before the heading when its table does
// not fit under it, whole if it fits a page, else its header and first
// rows. Checked at every height of a page's foot, and on sandbox VOIEs.
func TestHeadingsKeepTheirTables(t *testing.T) {
	pages := func(pdf []byte) []string { return pageTexts(t, pdf) }
	var long []string
	for i := range 48 {
		long = append(long, fmt.Sprintf("row %02d", i))
	}
	for _, rows := range [][]string{long[:3], long[:30], long} {
		for room := 5.0; room < 120; room += 3 {
			pdf, err := reports.SectionTable(room, rows, "the footnote")
			if err != nil {
				t.Fatal(err)
			}
			for _, page := range pages(pdf) {
				if strings.Contains(page, "The heading") && !strings.Contains(page, "row 00") {
					t.Errorf("%d rows, %.0f mm: the heading is on a page without its table:\n%s", len(rows), room, page)
				}
			}
		}
	}

	heading := regexp.MustCompile(`(?m)^Paystubs · .*\(\d+\)$`)
	for i := 0; i < 12; i++ {
		var src []reports.Source
		for j, conn := range []string{"good", "terminated", "good"} {
			if j == 2 && i%2 == 0 {
				continue
			}
			a := domain.Account{ID: fmt.Sprintf("0195f0a0-0000-7000-8000-%012d", 9000+i*10+j), CustomerID: "c", Mode: domain.ModeSandbox,
				EndUserID: fmt.Sprintf("pages-%d", i), EmployerName: fmt.Sprintf("Employer %d", j), Connection: conn, CreatedAt: goldenNow.AddDate(0, 0, -3)}
			src = append(src, sourceOf(a, ""))
		}
		r := reports.Assemble(domain.ReportVOIE, goldenID, src, goldenNow, goldenNow.Add(time.Hour))
		pdf, err := reports.RenderVerification(r, src)
		if err != nil {
			t.Fatal(err)
		}
		for n, page := range pages(pdf) {
			if loc := heading.FindStringIndex(page); loc != nil && !strings.Contains(page[loc[1]:], "Gross YTD") {
				t.Errorf("end user %d, page %d: %q without its table", i, n+1, page[loc[0]:loc[1]])
			}
		}
	}
}

// pageTexts is each page's text of pdf, by pdftotext.
func pageTexts(t *testing.T, pdf []byte) []string {
	t.Helper()
	bin := poppler(t, "pdftotext")
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

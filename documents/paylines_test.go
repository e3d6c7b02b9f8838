package documents

import (
	"path/filepath"
	"testing"

	"payline/domain"
)

// TestPayLinesAddUp: in the development corpus, the earnings, taxes and
// deductions read from each stub's tables add up to its gross pay and
// its totals, every line has a category, and earnings paid by the hour
// carry their hours and rate where the table has columns for them.
// fpdf-mono's one table has no headings and totals only its gross, so
// only its earnings are read and it is left out.
func TestPayLinesAddUp(t *testing.T) {
	r := NewReader()
	for _, f := range loadCorpus(t, "dev") {
		if f.truth.Layout == "fpdf-mono" {
			continue
		}
		if f.picture() {
			requireOCR(t, r)
		}
		p := readCorpusFile(t, r, f).Data.Paystub
		name := filepath.Base(f.path)
		sum := func(ls []domain.PayLine) (total int64) {
			for _, l := range ls {
				total += l.Amount.Amount
				if l.Category == "" {
					t.Errorf("%s: line %q has no category", name, l.Name)
				}
			}
			return total
		}
		for _, c := range []struct {
			what  string
			lines []domain.PayLine
			want  int64
		}{{"earnings", p.Earnings, f.truth.Gross}, {"taxes", p.Taxes, f.truth.TotalTaxes}, {"deductions", p.Deductions, f.truth.TotalDeductions}} {
			if got := sum(c.lines); got != c.want {
				t.Errorf("%s: %s add up to %d, want %d: %+v", name, c.what, got, c.want, c.lines)
			}
		}
		for _, l := range p.Earnings {
			if l.Category == "hourly" && printsHours[f.truth.Layout] && (l.Hours == nil || l.Rate == nil) {
				t.Errorf("%s: hourly line %q without hours or rate", name, l.Name)
			}
		}
	}
}

// printsHours are the layouts whose earnings tables have Hours and Rate
// columns.
var printsHours = map[string]bool{"fpdf-classic": true, "html-cards": true, "scan-classic": true, "scan-cards": true}

// TestPayLinesOfCurrentAndYTDTable: in tables with Current and Y-T-D
// columns, each table's lines are read from the Current column and end
// where the next table's own header row begins, so the earnings add up
// to the gross pay, not its year to date, and the rows of a "Taxes and
// Deductions" table below (a header row of its own, without a blank
// line between) are no earnings. Such a combined table's rows are taxes
// or deductions by their names. (html-public, a held-out layout, read
// its tax and deduction rows as earnings.)
func TestPayLinesOfCurrentAndYTDTable(t *testing.T) {
	for _, c := range []struct {
		name string
		rows []string
	}{
		{"combined taxes and deductions table", []string{
			"Acme Corp",
			"|Gross Earnings|Total Taxes|Total Deductions|Net Amount",
			"Current|2,000.00|229.00|150.00|1,621.00",
			"Y-T-D|14,000.00|1,603.00|1,050.00|11,347.00",
			"Earnings|Hours|Rate|Current|Y-T-D",
			"Salary|||2,000.00|14,000.00",
			"Taxes and Deductions|||Current|Y-T-D",
			"Federal Income Tax|||(200.00)|(1,400.00)",
			"Medicare|||(29.00)|(203.00)",
			"Medical|||(150.00)|(1,050.00)",
		}},
		{"separate tables, two earnings lines", []string{
			"Acme Corp",
			"Earnings|Hours|Rate|Current|YTD",
			"Regular|80.00|20.00|1,600.00|11,200.00",
			"Bonus|||400.00|2,800.00",
			"Taxes|||Current|YTD",
			"Federal Income Tax|||200.00|1,400.00",
			"Medicare|||29.00|203.00",
			"Deductions|||Current|YTD",
			"Medical|||150.00|1,050.00",
			"|Gross Pay|Total Taxes|Total Deductions|Net Pay",
			"Current|2,000.00|229.00|150.00|1,621.00",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := readPaystub(layoutText(c.rows...), false).stub
			sum := func(ls []domain.PayLine) (total int64) {
				for _, l := range ls {
					total += l.Amount.Amount
				}
				return total
			}
			for _, w := range []struct {
				what  string
				lines []domain.PayLine
				want  int64
			}{{"earnings", p.Earnings, 200000}, {"taxes", p.Taxes, 22900}, {"deductions", p.Deductions, 15000}} {
				if got := sum(w.lines); got != w.want {
					t.Errorf("%s add up to %d, want %d: %+v", w.what, got, w.want, w.lines)
				}
			}
			if p.GrossPayAmount == nil || *p.GrossPayAmount != 200000 {
				t.Errorf("gross pay %s, want 2000.00", cents(p.GrossPayAmount))
			}
		})
	}
}

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

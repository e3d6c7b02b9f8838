package documents

import (
	"strings"
	"testing"
)

// layoutText lays out rows of text as a text layer would: each row a
// line 14 points below the last, cells separated by "|" placed at 10 +
// 160 points per cell, the words of a cell 5 points a character apart.
func layoutText(rows ...string) page {
	var words []word
	for y, row := range rows {
		for c, cell := range strings.Split(row, "|") {
			x := 10 + 160*float64(c)
			for _, w := range strings.Fields(cell) {
				words = append(words, word{text: w, x0: x, x1: x + 5*float64(len(w)), y0: 14 * float64(y), y1: 14*float64(y) + 10, page: 1, conf: 1})
				x += 5*float64(len(w)) + 3
			}
		}
	}
	return buildLayout(words, textGap)
}

// TestLabelSpellings: the same figures written with the label
// spellings of different payroll tools read the same, in a side-by-side
// label/value layout.
func TestLabelSpellings(t *testing.T) {
	for _, c := range []struct {
		name string
		rows []string
	}{
		{"plain", []string{"Acme Corp", "Pay Date:|01/15/2026", "Pay Period:|01/01/2026 - 01/14/2026", "|Current|YTD", "Gross Pay|1,000.00|12,000.00", "Net Pay|800.00|9,600.00"}},
		{"check and net check", []string{"Acme Corp", "Check Date|1/15/26", "Period Start|1/1/26", "Period End|1/14/26", "|This Period|Year to Date", "Total Gross|$1,000.00|$12,000.00", "Net Check|$800.00|$9,600.00"}},
		{"advice and take home", []string{"Company:|Acme Corp", "Advice Date|15-Jan-2026", "Period Beginning|2026-01-01", "Period Ending|2026-01-14", "|Current|Y-T-D", "Gross Earnings|1000.00|12000.00", "Take Home|800.00|9600.00"}},
		{"payment date and net amount", []string{"Employer Name: Acme Corp", "Payment Date|Jan 15, 2026", "Pay Period|01/01/2026 to 01/14/2026", "Total Earnings|1,000.00", "YTD Gross|12,000.00", "Net Amount|800.00", "YTD Net Pay|9,600.00"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := readPaystub(layoutText(c.rows...), false).stub
			got := []string{p.EmployerName, p.PayDate, p.PayPeriodStart, p.PayPeriodEnd, cents(p.GrossPayAmount), cents(p.NetPayAmount), cents(p.GrossPayYTD), cents(p.NetPayYTD)}
			want := []string{"Acme Corp", "2026-01-15", "2026-01-01", "2026-01-14", "1000.00", "800.00", "12000.00", "9600.00"}
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("read %v\nwant %v", got, want)
			}
		})
	}
}

// TestTaxLineCategories: the ways stubs name taxes and deductions map to
// Payline's categories.
func TestTaxLineCategories(t *testing.T) {
	for name, want := range map[string]string{
		"Federal Income Tax": "federal_income", "FITW": "federal_income", "Fed Withholding": "federal_income",
		"Social Security": "social_security", "OASDI": "social_security", "FICA-SS": "social_security",
		"Medicare": "medicare", "FICA-Med": "medicare", "CA State Income Tax": "state_income", "SITW": "state_income",
	} {
		if got := taxCategory(name); got != want {
			t.Errorf("taxCategory(%q) = %q, want %q", name, got, want)
		}
	}
	for name, want := range map[string]string{"401(k)": "retirement", "403(b) Plan": "retirement", "Medical": "medical_insurance",
		"Dental PPO": "dental_insurance", "Vision": "vision_insurance", "Child Support": "garnishment", "Parking": "other"} {
		if got := deductionCategory(name); got != want {
			t.Errorf("deductionCategory(%q) = %q, want %q", name, got, want)
		}
	}
	for name, want := range map[string]string{"Regular": "hourly", "Overtime": "overtime", "OT 1.5x": "overtime", "Salary": "salary",
		"Annual Bonus": "bonus", "Commission": "commission", "Holiday Pay": "pto"} {
		if got := earningCategory(name, false); got != want {
			t.Errorf("earningCategory(%q) = %q, want %q", name, got, want)
		}
	}
}

package reports_test

import (
	"encoding/xml"
	"fmt"
	"math"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/reports"
)

// bboxPage is a page of `pdftotext -bbox`: each word and its box.
type bboxPage struct {
	Words []struct {
		XMin float64 `xml:"xMin,attr"`
		YMin float64 `xml:"yMin,attr"`
		XMax float64 `xml:"xMax,attr"`
		YMax float64 `xml:"yMax,attr"`
		Text string  `xml:",chardata"`
	} `xml:"word"`
}

// TestLongNamesWrap: an employer name of 46 characters and a long title
// wrap within their columns: every word is printed, and no word's box
// overlaps another's on any page (pdftotext -bbox), in the employment
// table, the section titles and the paystub tables' continuation lines.
func TestLongNamesWrap(t *testing.T) {
	bin := poppler(t, "pdftotext")
	src := goldenSources()
	long := "Northwind Regional Healthcare Partners of Ohio"
	src[1].Account.EmployerName, src[1].Employment.EmployerName = long, long
	title := "Senior Revenue Cycle Operations Analyst II"
	src[1].Employment.Title = title
	r := reports.Assemble(domain.ReportVOIE, goldenID, src, goldenNow, goldenNow.Add(59*60*1e9))
	pdf, err := reports.RenderVerification(r, src)
	if err != nil {
		t.Fatal(err)
	}
	path := writePDF(t, "long.pdf", pdf)
	out, err := exec.Command(bin, "-bbox", path, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Pages []bboxPage `xml:"body>doc>page"`
	}
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatalf("pdftotext -bbox: %v", err)
	}
	if len(doc.Pages) < 2 {
		t.Fatalf("%d pages", len(doc.Pages))
	}
	var all []string
	for n, p := range doc.Pages {
		for i, a := range p.Words {
			all = append(all, a.Text)
			for _, b := range p.Words[i+1:] {
				// Boxes that share more than a hair (0.3 pt) of both axes overlap.
				if min(a.XMax, b.XMax)-max(a.XMin, b.XMin) > 0.3 && min(a.YMax, b.YMax)-max(a.YMin, b.YMin) > 0.3 {
					t.Errorf("page %d: %q (%.1f-%.1f, %.1f) overlaps %q (%.1f-%.1f, %.1f)", n+1, a.Text, a.XMin, a.XMax, a.YMin, b.Text, b.XMin, b.XMax, b.YMin)
				}
			}
		}
	}
	text := " " + strings.Join(all, " ") + " "
	for _, w := range strings.Fields(long + " " + title) {
		if !strings.Contains(text, " "+w+" ") {
			t.Errorf("the PDF lacks the word %q of a long name", w)
		}
	}
}

// TestChartAxis: the y axis steps by 1, 2, 2.5 or 5 times a power of ten
// and reaches just above the largest value, so the data fills most of the
// height.
func TestChartAxis(t *testing.T) {
	for _, c := range []struct{ most, step, lines int64 }{
		{214211, 50000, 5}, {100000, 20000, 5}, {113905, 20000, 6}, {280000, 50000, 6}, {760000, 200000, 4}, {99, 100, 4}, {0, 100, 4},
	} {
		step, lines := reports.AxisStep(c.most)
		if step != c.step || lines != c.lines {
			t.Errorf("axis for %d: step %d × %d, want %d × %d", c.most, step, lines, c.step, c.lines)
		}
		if c.most >= 10000 && (step*lines < c.most || float64(c.most) < 0.75*float64(step*lines)) {
			t.Errorf("axis for %d: top %d does not fit the data well", c.most, step*lines)
		}
	}
}

// hoursBasis is how a report says the weeks average hours are counted
// over: whole weeks, or days with their weeks to a decimal, never a
// fraction rounded to pass for whole weeks.
var hoursBasis = regexp.MustCompile(`hours over ([0-9]+ weeks|[0-9]+ days \([0-9]+\.[0-9] weeks\)) of paystubs`)

// TestProjections: a salaried job projects its salary as base; an hourly
// one its rate times the average regular weekly hours of the last twelve
// months times 52 (rounded half up); overtime and bonus are the last 24
// months' halved; the total is their sum and projected_annual_income
// repeats it; each says how; an employment that ended projects nothing.
func TestProjections(t *testing.T) {
	var hourly, salaried bool
	for i := 0; !(hourly && salaried) && i < 200; i++ {
		a := domain.Account{ID: fmt.Sprintf("0195f0a0-0000-7000-8000-%012d", 5000+i), CustomerID: "c", EndUserID: "p", EmployerName: "E",
			Connection: "good", CreatedAt: goldenNow}
		p := sandbox.NewPerson(a)
		id, emp, inc := p.Identity(), p.Employment(), p.Income()
		stubs := p.Paystubs(goldenNow.Add(-domain.PaystubHistory), goldenNow, goldenNow)
		src := []reports.Source{{Account: a, Identity: &id, Employment: &emp, Income: &inc, Paystubs: stubs}}
		in := reports.Assemble(domain.ReportVOIE, goldenID, src, goldenNow, goldenNow).Employments[0].Income
		pi := in.ProjectedIncome
		if in.ProjectedAnnualIncome == nil || pi == nil {
			t.Fatalf("%s: no projection for a current %s job", a.ID, inc.CompensationUnit)
		}
		var overtime, bonus int64
		for _, s := range stubs {
			if !s.PayDateTime().After(goldenNow.AddDate(-2, 0, 0)) {
				continue
			}
			e := domain.EarningsOf(s).ByType
			overtime, bonus = overtime+e.Overtime, bonus+e.Bonus
		}
		if pi.Overtime != (overtime+1)/2 || pi.Bonus != (bonus+1)/2 || pi.Total != pi.Base+pi.Overtime+pi.Bonus+pi.Commission ||
			*in.ProjectedAnnualIncome != pi.Total {
			t.Errorf("%s: projected %+v (annual %d), want overtime %d, bonus %d halved", a.ID, pi, *in.ProjectedAnnualIncome, overtime, bonus)
		}
		switch inc.CompensationUnit {
		case "hourly":
			hourly = true
			if in.AverageWeeklyRegularHours == nil || *in.AverageWeeklyRegularHours < 20 || *in.AverageWeeklyRegularHours > *in.AverageWeeklyHours {
				t.Fatalf("%s: average regular hours %v of %v", a.ID, in.AverageWeeklyRegularHours, in.AverageWeeklyHours)
			}
			tenths := int64(math.Round(*in.AverageWeeklyRegularHours * 10))
			want := (inc.CompensationAmount.Amount*tenths*52 + 5) / 10
			if pi.Base != want || !strings.Contains(pi.Basis.Base, "regular hours") || !hoursBasis.MatchString(in.HoursBasis) {
				t.Errorf("%s: base %d (%s), want %d", a.ID, pi.Base, pi.Basis.Base, want)
			}
		case "annually":
			salaried = true
			if pi.Base != inc.CompensationAmount.Amount || !strings.Contains(pi.Basis.Base, "annual salary") {
				t.Errorf("%s: base %d (%s), want the salary %d", a.ID, pi.Base, pi.Basis.Base, inc.CompensationAmount.Amount)
			}
		}
	}
	if !hourly || !salaried {
		t.Fatalf("found hourly %v, salaried %v among 200 sandbox jobs", hourly, salaried)
	}
	r, _ := goldenReport(domain.ReportVOIE)
	if ended := r.Employments[1].Income; r.Employments[1].TerminationDate == nil || ended.ProjectedAnnualIncome != nil || ended.ProjectedIncome != nil {
		t.Errorf("an employment that ended projects %v", ended.ProjectedAnnualIncome)
	}
}

// TestW2BesideYear: a year's W-2 sits beside its paystubs; Medicare wages
// (box 5) equal to the year's gross pay pass, a difference over a dollar
// is flagged in the JSON and said on the PDF, and a partial year is not
// compared.
func TestW2BesideYear(t *testing.T) {
	src := goldenSources()
	w := src[0].W2s["2025"]
	w.MedicareWages.Amount += 5000
	src[0].W2s["2025"] = w
	r := reports.Assemble(domain.ReportVOIE, goldenID, src, goldenNow, goldenNow.Add(time.Hour))
	years := map[string]domain.AnnualIncome{}
	for _, a := range r.Employments[0].Income.AnnualIncomes {
		years[a.Year] = a
	}
	if y := years["2025"]; y.W2 == nil || !y.W2.Flagged || y.W2.Difference != -5000 {
		t.Errorf("2025, box 5 $50 over the gross: %+v", y.W2)
	}
	if y := years["2024"]; y.W2 == nil || y.W2.Flagged || y.W2.Difference != 0 {
		t.Errorf("2024, box 5 equal to the gross read from YTD: %+v", y.W2)
	}
	if y := years["2026"]; y.W2 != nil {
		t.Errorf("2026 has no W-2 yet: %+v", y.W2)
	}
	bin := poppler(t, "pdftotext")
	pdf, err := reports.RenderVerification(r, src)
	if err != nil {
		t.Fatal(err)
	}
	path := writePDF(t, "w2.pdf", pdf)
	out, err := exec.Command(bin, path, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(out)), " ")
	for _, want := range []string{"2025 W-2: wages (box 1)", "$50.00 more than the year's gross pay: worth a look", "2024 W-2", "in line with the year's gross pay"} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF lacks %q", want)
		}
	}
}

// TestPDFStructure: every kind of PDF Payline makes (everyDocument)
// passes qpdf --check (cross-reference table, object streams, content
// streams decode), with no warnings. qpdf comes from Debian; CI installs
// it and fails without it.
func TestPDFStructure(t *testing.T) {
	bin := tool(t, "qpdf", "qpdf")
	for _, doc := range everyDocument(t) {
		path := writePDF(t, doc.name+".pdf", doc.pdf)
		out, err := exec.Command(bin, "--check", path).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "No syntax or stream encoding errors found") || strings.Contains(strings.ToLower(string(out)), "warning") {
			t.Errorf("%s: qpdf --check: %v\n%s", doc.name, err, out)
		}
	}
}

// TestRehire: two employments at one employer (a rehire) give both the
// later's original hire date, the first's; the PDF prints it.
func TestRehire(t *testing.T) {
	src := goldenSources()
	src[1].Employment.EmployerName = strings.ToUpper(src[0].Employment.EmployerName)
	first, second := "2012-12-11", "2019-03-04"
	src[0].Employment.StartDate, src[1].Employment.StartDate = domain.Date(second), domain.Date(first)
	r := reports.Assemble(domain.ReportVOIE, goldenID, src, goldenNow, goldenNow.Add(time.Hour))
	for _, e := range r.Employments {
		if e.OriginalHireDate != first || e.MostRecentHireDate != e.StartDate {
			t.Errorf("%s: original %s, most recent %s (start %s)", e.AccountID, e.OriginalHireDate, e.MostRecentHireDate, e.StartDate)
		}
	}
	r2, _ := goldenReport(domain.ReportVOIE)
	if e := r2.Employments[0]; e.OriginalHireDate != e.StartDate {
		t.Errorf("a single employment's original hire %s, start %s", e.OriginalHireDate, e.StartDate)
	}
}

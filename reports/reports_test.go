package reports_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/reports"
)

var update = flag.Bool("update", false, "rewrite the golden files and the committed PNGs of reports/testdata")

const goldenID = "0195f0a0-0000-7000-8000-00000000aaaa"

func goldenReport(reportType string) (domain.VerificationReport, []reports.Source) {
	src := goldenSources()
	return reports.Assemble(reportType, goldenID, src, goldenNow, goldenNow.Add(time.Hour)), src
}

// TestAssembleGolden pins the assembled JSON of both report types for two
// fixed sandbox accounts of one end user (one terminated and paid by the
// hour with overtime and bonuses, one salaried, the oldest year of each
// read from mid-year), a VOIE of the same end user with a third
// employer, paid weekly, and a VOIE of what they uploaded instead
// (goldenUploads: reviewed, set-aside and W-2 uploads).
func TestAssembleGolden(t *testing.T) {
	for _, typ := range []string{domain.ReportVOIE, domain.ReportVOE, "voie-three", "voie-uploads"} {
		t.Run(typ, func(t *testing.T) {
			r, _ := goldenReport(typ)
			if typ == "voie-uploads" {
				r, _ = uploadsReport(t, goldenUploads())
			}
			if typ == "voie-three" {
				src := append(goldenSources(), realSources(1)...)
				r = reports.Assemble(domain.ReportVOIE, goldenID, src, goldenNow, goldenNow.Add(time.Hour))
				if len(r.Employments) != 3 {
					t.Fatalf("%d employments", len(r.Employments))
				}
			}
			got, err := json.MarshalIndent(r, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", typ+".golden.json")
			if *update {
				if err := os.WriteFile(path, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(got)+"\n"); diff != "" {
				t.Errorf("%s report changed (-want +got); rerun with -update if on purpose:\n%s", typ, diff)
			}
		})
	}
	r, _ := goldenReport(domain.ReportVOIE)
	if r.Employments[1].EmploymentStatus != "terminated" || r.Employments[1].TerminationDate == nil || r.Employments[0].EmploymentStatus != "employed" {
		t.Errorf("golden employments %+v, want one employed and one terminated", r.Employments)
	}
}

// TestAnnualTotalsAddUp: for many sandbox accounts (two years of
// paystubs, so the oldest year is read from mid-year), every year's gross
// and net pay equal its last paystub's year-to-date figures to the cent;
// a year whose paystubs were all read is their sum (basis paystubs), one
// read from mid-year says so (basis year_to_date, partial, its first pay
// date); taxes, deductions, reimbursements and earnings are the sums of
// the paystubs read, by category and by the written VOE's types.
func TestAnnualTotalsAddUp(t *testing.T) {
	midYear := 0
	for i := range 200 {
		conn := "good"
		if i%3 == 0 {
			conn = "terminated"
		}
		a := domain.Account{ID: domain.NewID(), CustomerID: "c", EndUserID: fmt.Sprint("u", i), EmployerName: "E", Connection: conn, CreatedAt: goldenNow}
		stubs := sandbox.NewPerson(a).Paystubs(goldenNow.Add(-domain.PaystubHistory), goldenNow, goldenNow)
		type sums struct {
			gross, net, taxes, deductions, reimb, count int64
			first, last                                 domain.Paystub
		}
		want := map[string]*sums{}
		cats := map[string]map[string]int64{}
		for _, p := range stubs {
			y := p.PayDate.String()[:4]
			if want[y] == nil {
				want[y], cats[y] = &sums{first: p, last: p}, map[string]int64{}
			}
			w := want[y]
			w.gross, w.net, w.taxes = w.gross+p.GrossPayAmount.Amount, w.net+p.NetPayAmount.Amount, w.taxes+p.TotalTaxes.Amount
			w.deductions, w.reimb, w.count = w.deductions+p.TotalDeductions.Amount, w.reimb+p.TotalReimbursements.Amount, w.count+1
			if p.PayDate < w.first.PayDate {
				w.first = p
			}
			if p.PayDate > w.last.PayDate {
				w.last = p
			}
			for _, l := range p.Earnings {
				cats[y][l.Category] += l.Amount.Amount
			}
		}
		got := reports.AnnualIncomes(stubs)
		if len(got) != len(want) {
			t.Fatalf("%s: %d years, want %d", a.ID, len(got), len(want))
		}
		for _, y := range got {
			w := want[y.Year]
			if y.GrossPayYTD != w.last.GrossPayYTD.Amount || y.NetPayYTD != w.last.NetPayYTD.Amount {
				t.Fatalf("%s %s: gross %d net %d, want the last paystub's YTD %d and %d", a.ID, y.Year, y.GrossPayYTD, y.NetPayYTD, w.last.GrossPayYTD.Amount, w.last.NetPayYTD.Amount)
			}
			if y.TotalTaxesYTD != w.taxes || y.TotalDeductionsYTD != w.deductions || y.TotalReimbursementsYTD != w.reimb || int64(y.Paystubs) != w.count ||
				y.FirstPayDate != w.first.PayDate.String() {
				t.Fatalf("%s %s: %+v, want the sums %+v", a.ID, y.Year, y, *w)
			}
			whole := w.first.GrossPayYTD.Amount == w.first.GrossPayAmount.Amount
			switch {
			case whole && (y.Basis != domain.BasisPaystubs || y.Partial || y.GrossPayYTD != w.gross || y.NetPayYTD != w.net):
				t.Fatalf("%s %s: every paystub of the year was read, but %+v (sums %d, %d)", a.ID, y.Year, y, w.gross, w.net)
			case !whole && (y.Basis != domain.BasisYearToDate || !y.Partial):
				t.Fatalf("%s %s: read from mid-year, but basis %s partial %v", a.ID, y.Year, y.Basis, y.Partial)
			case !whole:
				midYear++
			}
			var sum int64
			for _, e := range y.EarningsYTDs {
				if e.Amount != cats[y.Year][e.Category] {
					t.Fatalf("%s %s %s: %d, want %d", a.ID, y.Year, e.Category, e.Amount, cats[y.Year][e.Category])
				}
				sum += e.Amount
			}
			bt := y.EarningsByType
			if sum != w.gross || bt.Base+bt.Overtime+bt.Bonus+bt.Commission+bt.Other != w.gross || bt.Bonus != cats[y.Year]["bonus"] ||
				bt.Overtime != cats[y.Year]["overtime"] || bt.Base != cats[y.Year]["salary"]+cats[y.Year]["hourly"] {
				t.Fatalf("%s %s: earnings add to %d by category and %+v by type, the paystubs read to %d", a.ID, y.Year, sum, bt, w.gross)
			}
		}
	}
	if midYear == 0 {
		t.Error("no account's oldest year was read from mid-year: the test checks nothing of that case")
	}
}

// TestRenderIsDeterministic: the same report renders the same bytes.
func TestRenderIsDeterministic(t *testing.T) {
	r, src := goldenReport(domain.ReportVOIE)
	a, err := reports.RenderVerification(r, src)
	if err != nil {
		t.Fatal(err)
	}
	b, err := reports.RenderVerification(r, src)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("two renders of one report differ")
	}
}

// poppler finds a poppler-utils command.
func poppler(t testing.TB, name string) string { return tool(t, name, "poppler-utils") }

// tool finds a command of the Debian package pkg that the PDF tests run;
// CI installs them, so there a missing one fails rather than skips.
func tool(t testing.TB, name, pkg string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing: CI must check the PDFs (apt-get install %s)", name, pkg)
		}
		t.Skipf("*** SKIPPING: %s not installed (apt-get install %s) ***", name, pkg)
	}
	return path
}

// writePDF writes pdf to a file called name in a temporary directory,
// for the command-line tools, and returns its path.
func writePDF(t testing.TB, name string, pdf []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPDFText reads each rendered report back with pdftotext: the
// employee, every employer, every year's gross pay as money and the page
// count are there.
func TestPDFText(t *testing.T) {
	bin := poppler(t, "pdftotext")
	for _, typ := range []string{domain.ReportVOIE, domain.ReportVOE} {
		r, src := goldenReport(typ)
		// Who asked, their reference and their purpose, as a request gives them.
		r.Requester, r.TrackingID, r.Purpose, r.Version = "Acme Lending", "LN-2026-0042", "credit_application", 3
		pdf, err := reports.RenderVerification(r, src)
		if err != nil {
			t.Fatal(err)
		}
		path := writePDF(t, typ+".pdf", pdf)
		out, err := exec.Command(bin, "-layout", path, "-").Output()
		if err != nil {
			t.Fatal(err)
		}
		text := string(out)
		want := []string{r.Employee.Name.FullName, "Reference #", goldenID + "-v3", "Data as of", "Page 1 of ",
			"Requested by", "Acme Lending", "Tracking #", "LN-2026-0042", "Credit application"}
		if typ == domain.ReportVOIE {
			want = append(want, "Base", "Overtime", "Bonus", "Commission", "Basis", "YTD", "Hours", "Rate", "Projected annual", "Average hours")
		}
		for _, e := range r.Employments {
			// Who each employer is, and where its figures came from.
			want = append(want, e.EmployerName, e.EmployerAddress.Raw, e.Source.PlatformName, "Current as of")
			if e.EmployerEIN != nil {
				want = append(want, (*e.EmployerEIN)[:2]+"-"+(*e.EmployerEIN)[2:])
			}
			if e.Income != nil {
				for _, y := range e.Income.AnnualIncomes {
					want = append(want, domain.USD(y.GrossPayYTD).Formatted())
				}
			}
		}
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: the PDF's text lacks %q", typ, w)
			}
		}
		if typ == domain.ReportVOE && strings.Contains(text, "Gross pay") {
			t.Error("a VOE shows pay")
		}
		// The information dictionary names the document for a filing system.
		info, err := exec.Command(poppler(t, "pdfinfo"), path).Output()
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{"Title:", "Subject:", r.Employee.Name.FullName, "Keywords:", "reference " + goldenID, "Author:          Payline"} {
			if !strings.Contains(string(info), w) {
				t.Errorf("%s: pdfinfo lacks %q:\n%s", typ, w, info)
			}
		}
	}
}

// TestPDFFonts checks both ways a PDF is set, both embedded: text that
// Windows-1252 holds in simple TrueType fonts, and names it cannot hold
// (Polish Ł, Cyrillic) in fpdf's UTF-8 (CID) fonts; pdftotext reads each
// back intact.
func TestPDFFonts(t *testing.T) {
	bin := poppler(t, "pdftotext")
	for _, tc := range []struct {
		name string
		cid  bool
	}{
		{"Zoë Fernández-O'Brien", false},
		{"Łukasz Wróbel", true},
		{"Дмитрий Соколов", true},
	} {
		r, src := goldenReport(domain.ReportVOIE)
		r.Employee.Name.FullName = tc.name
		pdf, err := reports.RenderVerification(r, src)
		if err != nil {
			t.Fatal(err)
		}
		if got := bytes.Contains(pdf, []byte("/CIDFontType2")); got != tc.cid || !bytes.Contains(pdf, []byte("/FontFile2")) {
			t.Errorf("%s: CID fonts = %v, want %v; every font embedded", tc.name, got, tc.cid)
		}
		path := writePDF(t, "r.pdf", pdf)
		out, err := exec.Command(bin, "-layout", path, "-").Output()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), "Employee: "+tc.name) {
			t.Errorf("pdftotext lacks %q:\n%.400s", tc.name, out)
		}
	}
}

// TestUnprintableCharacters: a name in a script no embedded font has (CJK)
// prints its other letters, shows the missing ones as ?, and the report
// says which, by code point, instead of dropping them silently.
func TestUnprintableCharacters(t *testing.T) {
	bin := poppler(t, "pdftotext")
	r, src := goldenReport(domain.ReportVOIE)
	r.Employee.Name.FullName = "Wei 陈伟 Zhang"
	pdf, err := reports.RenderVerification(r, src)
	if err != nil {
		t.Fatal(err)
	}
	path := writePDF(t, "r.pdf", pdf)
	out, err := exec.Command(bin, path, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(out)), " ")
	for _, want := range []string{"Employee: Wei ?? Zhang", "could not print 2 characters", "U+9648, U+4F1F"} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF's text lacks %q", want)
		}
	}
}

// TestControlCharacters: a tab or carriage return in the data prints as
// a space, in the simple fonts; any other control character (which no
// font draws, and PDF/A forbids showing the missing glyph for) prints as
// ?, named by code point, like a character no font has.
func TestControlCharacters(t *testing.T) {
	for _, tc := range []struct{ name, shown, note string }{
		{"Amara\tVaughan\r", "Employee: Amara Vaughan", ""},
		{"Amara\aVaughan", "Employee: Amara?Vaughan", "U+0007"},
	} {
		r, src := goldenReport(domain.ReportVOIE)
		r.Employee.Name.FullName = tc.name
		pdf, err := reports.RenderVerification(r, src)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(textOf(t, pdf)), " ")
		if !strings.Contains(text, tc.shown) || (tc.note != "") != strings.Contains(text, "could not print") || !strings.Contains(text, tc.note) {
			t.Errorf("%q: the text lacks %q or its note %q", tc.name, tc.shown, tc.note)
		}
		if cid := bytes.Contains(pdf, []byte("/CIDFontType2")); cid != (tc.note != "") {
			t.Errorf("%q: CID fonts = %v", tc.name, cid)
		}
	}
}

// TestPDFPictures renders page 1 and the chart page of the golden VOIE to
// PNG with pdftoppm and compares them with the PNGs committed under
// testdata (which the docs show; -update rewrites them). A report whose
// employee name differs by one letter must not pass for the committed
// page: the comparison would notice a broken picture.
func TestPDFPictures(t *testing.T) {
	r, src := goldenReport(domain.ReportVOIE)
	pdf, err := reports.RenderVerification(r, src)
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range []struct {
		n    int
		name string
	}{{1, "voie-page-1.png"}, {2, "voie-chart-page.png"}} {
		comparePicture(t, page.name, pageImage(t, pdf, page.n))
	}

	r.Employee.Name.FullName = oneLetterOff(r.Employee.Name.FullName)
	altered, err := reports.RenderVerification(r, src)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "voie-page-1.png"))
	if err != nil {
		t.Fatal(err)
	}
	if changed, _ := pictureDiff(t, want, pageImage(t, altered, 1)); changed <= maxChangedPixels {
		t.Errorf("a name one letter off changed %d pixels of page 1, which the comparison lets through (%d may change)", changed, maxChangedPixels)
	}
}

// oneLetterOff changes the first letter of s to a W (an M if it is one).
func oneLetterOff(s string) string {
	if s[0] == 'W' {
		return "M" + s[1:]
	}
	return "W" + s[1:]
}

// pageImage renders page n of a PDF to PNG with pdftoppm at 80 dpi, with
// a fontconfig of its own (testdata/fontconfig) that knows only the
// repository's fonts: a picture depends on the PDF, never on the fonts
// the machine has.
func pageImage(t *testing.T, pdf []byte, n int) []byte {
	t.Helper()
	bin := poppler(t, "pdftoppm")
	dir := t.TempDir()
	path := filepath.Join(dir, "doc.pdf")
	if err := os.WriteFile(path, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	prefix := filepath.Join(dir, "p")
	config, err := filepath.Abs(filepath.Join("testdata", "fontconfig", "fonts.conf"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-r", "80", "-png", "-singlefile", "-f", fmt.Sprint(n), "-l", fmt.Sprint(n), path, prefix)
	cmd.Env = append(os.Environ(), "FONTCONFIG_FILE="+config)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v %s", err, out)
	}
	png, err := os.ReadFile(prefix + ".png")
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatalf("page %d did not render: %v", n, err)
	}
	return png
}

func textOf(t *testing.T, pdf []byte) string {
	t.Helper()
	bin := poppler(t, "pdftotext")
	path := writePDF(t, "doc.pdf", pdf)
	out, err := exec.Command(bin, "-layout", path, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestOtherDocuments renders a W-2 and a direct deposit form from the
// golden data, reads them back, and compares their first pages with the
// committed PNGs.
func TestOtherDocuments(t *testing.T) {
	src := goldenSources()
	a := src[0].Account
	p := sandbox.NewPerson(a)
	w2 := p.W2s(goldenNow.AddDate(-2, 0, 0), goldenNow)[0]
	form := domain.DepositForm{ID: "0195f0a0-0000-7000-8000-00000000bbbb", AccountID: a.ID, EndUserID: a.EndUserID,
		EmployeeName: src[0].Identity.FullName, EmployerName: a.EmployerName, CreatedAt: goldenNow,
		Target: domain.SwitchTarget{Name: "Everyday Savings", Type: "savings", LastFour: "6789", RoutingNumber: "011000015"},
		Params: domain.JobParams{Action: domain.ActionPartialSwitch, Allocation: &domain.JobParamsAllocation{
			Split: domain.Split{Type: domain.AllocationAmount, Amount: domain.USD(25_000)}}}}
	for _, doc := range []struct {
		name   string
		render func() ([]byte, error)
		want   []string
	}{
		{"w2.png", func() ([]byte, error) { return reports.RenderW2(w2.DocumentID, w2.W2, goldenNow) },
			[]string{"Form W-2", w2.W2.TaxYear, w2.W2.Applicant.Name, w2.W2.TotalWages.Formatted(), w2.W2.FederalTaxes.Formatted()}},
		{"direct-deposit-form.png", func() ([]byte, error) { return reports.RenderDepositForm(form) },
			[]string{"Direct Deposit Authorization", form.EmployeeName, form.EmployerName, "6789", "011000015", "$250.00 of each paycheck", "Employee signature"}},
	} {
		pdf, err := doc.render()
		if err != nil {
			t.Fatal(err)
		}
		text := textOf(t, pdf)
		for _, w := range doc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: the PDF's text lacks %q", doc.name, w)
			}
		}
		again, _ := doc.render()
		if !bytes.Equal(pdf, again) {
			t.Errorf("%s: two renders differ", doc.name)
		}
		comparePicture(t, doc.name, pageImage(t, pdf, 1))
	}
}

// TestMalformedDatesAreUnknown: an employment whose termination date does
// not parse gets no duration (the completeness block says it is missing
// and the PDF prints "unknown"), never months counted from year 1; a
// paystub whose pay date does not parse still renders.
func TestMalformedDatesAreUnknown(t *testing.T) {
	src := goldenSources()
	bad := domain.Date("2024-13-45")
	emp := *src[1].Employment
	emp.TerminationDate = &bad
	src[1].Employment = &emp
	r := reports.Assemble(domain.ReportVOIE, goldenID, src, goldenNow, goldenNow.Add(time.Hour))
	if m := r.Employments[1].EmploymentDurationMonths; m != nil {
		t.Errorf("a malformed termination date gives %d months", *m)
	}
	missing := strings.Join(r.Completeness.Missing, " ")
	if !strings.Contains(missing, "employments[1].employment_duration_months") {
		t.Errorf("completeness does not say the duration is missing: %v", r.Completeness.Missing)
	}
	pdf, err := reports.RenderVerification(r, src)
	if err != nil {
		t.Fatal(err)
	}
	path := writePDF(t, "voie.pdf", pdf)
	out, err := exec.Command(poppler(t, "pdftotext"), "-layout", path, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	if text := string(out); !strings.Contains(text, "unknown") {
		t.Errorf("the PDF does not say the duration is unknown:\n%s", text)
	}
	row := ""
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, src[1].Account.EmployerName) && strings.Contains(line, "Terminated") {
			row = line
		}
	}
	if strings.Count(row, "unknown") != 2 {
		t.Errorf("the terminated employment's row should show its end date and its months as unknown: %q", row)
	}
	stub := src[0].Paystubs[0]
	stub.CreatedAt, stub.PayDate = time.Time{}, "not a date"
	if _, err := reports.RenderPaystub(stub); err != nil {
		t.Errorf("a paystub with a malformed pay date: %v", err)
	}
}

// TestMalformedPayDates: paystubs whose pay dates do not parse (empty,
// short, or days that do not exist) still count, in a year of their own
// listed last, and bound neither the paystubs' range nor the most recent
// pay date; nothing panics on them, and the PDF says "unknown".
func TestMalformedPayDates(t *testing.T) {
	src := goldenSources()
	stubs := src[0].Paystubs
	valid := reports.AnnualIncomes(stubs)
	var mostRecent, first domain.Date
	for _, p := range stubs {
		mostRecent = max(mostRecent, p.PayDate)
		if first == "" || p.PayDate < first {
			first = p.PayDate
		}
	}
	var want domain.AnnualIncome
	for i, bad := range []domain.Date{"", "x", "2024-02-30", "9999-99-99"} {
		extra := stubs[i]
		extra.ID, extra.PayDate = fmt.Sprint("bad-", i), bad
		stubs = append(stubs, extra)
		want.GrossPayYTD += extra.GrossPayAmount.Amount
		want.Paystubs++
	}
	src[0].Paystubs = stubs
	years := reports.AnnualIncomes(stubs)
	if len(years) != len(valid)+1 || years[len(years)-1].Year != "unknown" {
		t.Fatalf("years %v, want those of the valid paystubs and then unknown", yearsOf(years))
	}
	if got := years[len(years)-1]; got.GrossPayYTD != want.GrossPayYTD || got.Paystubs != want.Paystubs {
		t.Errorf("the unknown year holds %d paystubs and %d gross, want %d and %d", got.Paystubs, got.GrossPayYTD, want.Paystubs, want.GrossPayYTD)
	}
	if diff := cmp.Diff(valid, years[:len(valid)]); diff != "" {
		t.Errorf("the valid years changed (-want +got):\n%s", diff)
	}
	r := reports.Assemble(domain.ReportVOIE, goldenID, src, goldenNow, goldenNow.Add(time.Hour))
	if got := r.Employments[0].MostRecentPayDate; got == nil || *got != mostRecent.String() {
		t.Errorf("most recent pay date %v, want %s", got, mostRecent)
	}
	if c := r.Completeness.Paystubs; c == nil || c.To < mostRecent.String() || c.From > first.String() || c.From == "" {
		t.Errorf("the paystubs' range %+v takes a malformed date for a bound", c)
	}
	pdf, err := reports.RenderVerification(r, src)
	if err != nil {
		t.Fatal(err)
	}
	if text := textOf(t, pdf); !strings.Contains(text, "unknown") {
		t.Error("the PDF shows no unknown pay date or year")
	}
}

func yearsOf(as []domain.AnnualIncome) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Year)
	}
	return out
}

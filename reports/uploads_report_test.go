package reports_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/reports"
)

// uploadsReport is the golden end user's VOIE built from what they
// uploaded alone (goldenUploads), as the service builds it.
func uploadsReport(t *testing.T, docs []domain.Record, payroll ...reports.Source) (domain.VerificationReport, []reports.Source) {
	t.Helper()
	src, setAside, updated := reports.WithDocuments(payroll, time.Time{}, docs)
	r := reports.Assemble(domain.ReportVOIE, goldenID, src, updated, goldenNow.Add(time.Hour), setAside...)
	return r, src
}

// accusing are words a report never uses of an applicant's upload: a
// doubt is something a person has not yet checked, evidence is said as
// what the file shows (issue 45: "suspected of editing" read as fraud).
var accusing = []string{"suspect", "forg", "fraud", "tamper", "fake"}

// TestReportOfUploadsSaysWhereFiguresCameFrom: a VOIE built from uploads
// alone says so in its FCRA notice and footer (never "copied from your
// payroll account"), names the document its employee name was printed
// on (never as an account), counts an upload a reviewer accepted and says
// who reviewed it, and says an unknown hire date as unknown: no months
// employed (null, not 0), "hire date unknown" on paper, never "Months 0"
// or "hired —".
func TestReportOfUploadsSaysWhereFiguresCameFrom(t *testing.T) {
	r, src := uploadsReport(t, goldenUploads())
	if got := r.FCRANotice.Text; strings.Contains(got, "copied from your payroll account") ||
		!strings.Contains(got, "read from the paystubs and W-2s you uploaded and were not confirmed with your employer, "+
			"some of them checked by a person ("+acmeLending+")") {
		t.Errorf("FCRA notice of a report from uploads:\n%s", got)
	}
	c := r.Completeness
	if c.IdentitySource != "" || c.IdentitySourceDocument != "doc-3" || r.Employee.Name.FullName != "Amara Vaughan" {
		t.Errorf("identity from account %q, document %q, name %q: want the name printed on doc-3, no account",
			c.IdentitySource, c.IdentitySourceDocument, r.Employee.Name.FullName)
	}
	if len(r.Employments) != 2 {
		t.Fatalf("%d employments, want Sycamore's uploads and Birch's W-2", len(r.Employments))
	}
	e := r.Employments[0]
	if e.EmploymentDurationMonths != nil || e.StartDate != "" || !slices.Contains(c.Missing, "employments[0].employment_duration_months") {
		t.Errorf("an employment from uploads: start %q, %v months, missing %v: want no start, null months, said missing",
			e.StartDate, e.EmploymentDurationMonths, c.Missing)
	}
	if !slices.Equal(e.Source.ReviewBases, []string{acmeLending}) ||
		!strings.Contains(e.Source.Notice, "1 of its 4 documents was "+acmeLending+", who accepted its figures") ||
		!slices.Equal(e.Source.DocumentIDs, []string{"doc-3", "doc-4", "doc-5", "w2-sycamore-2025"}) {
		t.Errorf("source %+v: want the accepted doc-3 counted with its review, and the W-2", e.Source)
	}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"employment_duration_months":null`) {
		t.Errorf("employment_duration_months of an unknown hire date is not null: %s", b)
	}

	text := oneLine(textOf(t, pdfOf(t, r, src)))
	for _, want := range []string{
		"The figures here were read from the paystubs and W-2s you uploaded and were not confirmed with your employer, some of them checked by a person (" + acmeLending + ")",
		"Figures are as read from paystubs and W-2s the end user uploaded, not confirmed with the employer",
		"No payroll account reports the employee's identity: the name is as printed on the paystub dated Oct 16, 2026 from Sycamore Publishing Inc the end user uploaded",
		"Sycamore Publishing Inc — unknown unknown unknown unknown Nov 13, 2026",
		"Income · Sycamore Publishing Inc, hire date unknown, last paid Nov 13, 2026",
		"1 of its 4 documents was reviewed by a member of Acme Lending, who accepted its figures",
		"Not reported by the uploaded paystubs and W-2s:",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF lacks %q:\n%s", want, text)
		}
	}
	for _, never := range []string{"copied from your payroll account", "one of the end user's accounts", "hired —", "Every account that reports them agrees"} {
		if strings.Contains(text, never) {
			t.Errorf("the PDF of a report from uploads says %q", never)
		}
	}
}

// TestSetAsideUploadsArePointsToReview: every upload a report leaves out
// is a point to review, in the JSON's flags (with its document) and on
// the PDF, in words an analyst reads without an accusation: evidence as
// what the file shows, a doubt as what a person has not yet checked
// (the fields named), a reviewer's rejection, a W-2 whose box 5 was not
// read; "Points to review: None" never stands beside a set-aside upload.
func TestSetAsideUploadsArePointsToReview(t *testing.T) {
	r, src := uploadsReport(t, goldenUploads())
	want := map[string]struct{ reason, words string }{
		"doc-0":          {domain.ExcludedSuspected, `set aside: the page shows a figure other than the file's text (on page 1 the file's text says "1,234.56" where the page shows "2,234.56"`},
		"doc-1":          {domain.ExcludedNeedsReview, "set aside: a person has not yet checked its gross pay and net pay (the reader found: gross pay $2,142.12 less taxes"},
		"doc-2":          {domain.ExcludedRejected, "set aside: a person who reviewed it did not accept its figures (" + acmeLending + ", Nov 21, 2026)"},
		"w2-unread-box5": {domain.ExcludedIncomplete, "The W-2 for 2024 from Aspen Works (w2-unread-box5.pdf, uploaded Nov 20, 2026): set aside: its Medicare wages (box 5) could not be read"},
	}
	if len(r.ExcludedDocuments) != len(want) {
		t.Errorf("excluded %+v, want %d", r.ExcludedDocuments, len(want))
	}
	for _, x := range r.ExcludedDocuments {
		if w, ok := want[x.DocumentID]; !ok || x.Reason != w.reason {
			t.Errorf("excluded %+v, want reason %q", x, w.reason)
		}
	}
	flagged := map[string]string{}
	for _, f := range r.Flags {
		if f.Code == domain.FlagDocumentSetAside && len(f.DocumentIDs) == 1 {
			flagged[f.DocumentIDs[0]] = f.Message
		}
	}
	text := oneLine(textOf(t, pdfOf(t, r, src)))
	for id, w := range want {
		if !strings.Contains(flagged[id], w.words) || !strings.Contains(flagged[id], "(document "+id+")") {
			t.Errorf("%s's point to review %q, want %q", id, flagged[id], w.words)
		}
		if !strings.Contains(text, w.words) {
			t.Errorf("the PDF's points to review lack %q:\n%s", w.words, text)
		}
	}
	for _, f := range r.Flags {
		for _, word := range accusing {
			if strings.Contains(strings.ToLower(f.Message), word) {
				t.Errorf("a point to review says %q: %s", word, f.Message)
			}
		}
	}
	lower := strings.ToLower(text)
	for _, word := range accusing {
		if strings.Contains(lower, word) {
			t.Errorf("the PDF says %q of an upload", word)
		}
	}
	if strings.Contains(text, "None: the employments do not overlap") || !strings.Contains(text, "Upload set aside") {
		t.Errorf("the PDF's points to review do not list the uploads set aside:\n%s", text)
	}
}

// TestUploadedW2sFeedPriorYears: a W-2 the end user uploaded gives its
// employer's employment (matched by EIN, the names written differently)
// a year no paystub was read for, its gross pay box 5 with basis w2 and
// what a W-2 does not give listed as missing; a W-2 of an employer no
// paystub names makes an employment of its own; a year a payroll W-2
// covers keeps the payroll W-2; an uploaded W-2 beside a year of payroll
// paystubs is compared with them (W2_MISMATCH).
func TestUploadedW2sFeedPriorYears(t *testing.T) {
	r, src := uploadsReport(t, goldenUploads())
	years := r.Employments[0].Income.AnnualIncomes
	if len(years) != 2 || years[1].Year != "2025" || years[1].Basis != domain.BasisW2 || years[1].GrossPayYTD != 5_569_486 ||
		years[1].W2 == nil || years[1].W2.Wages != 5_044_000 || years[1].W2.DocumentID != "w2-sycamore-2025" || years[1].Paystubs != 0 {
		t.Fatalf("Sycamore's years %+v: want 2025 from its uploaded W-2, gross its box 5", years)
	}
	if !slices.Contains(r.Completeness.Missing, "employments[0].income.annual_incomes[1].net_pay_ytd") {
		t.Errorf("a year from a W-2: its net pay is not said missing: %v", r.Completeness.Missing)
	}
	birch := r.Employments[1]
	if birch.EmployerName != "Birch Logistics LLC" || birch.Source.Type != domain.SourceDocuments ||
		!slices.Equal(birch.Source.DocumentIDs, []string{"w2-birch-2024"}) || birch.Source.Notice != domain.W2DocumentsNotice ||
		len(birch.Income.AnnualIncomes) != 1 || birch.Income.AnnualIncomes[0].Basis != domain.BasisW2 || birch.Income.ProjectedIncome != nil {
		t.Errorf("a W-2 with no paystub of its employer: %+v", birch)
	}
	text := oneLine(textOf(t, pdfOf(t, r, src)))
	for _, want := range []string{"2025 $55,694.86 — — — — W-2", "Income · Birch Logistics LLC, hire date unknown, known from W-2s",
		"2024: no paystub was read; gross pay is the W-2's Medicare wages (box 5)", "3 paystubs and 1 W-2 the end user uploaded"} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF lacks %q:\n%s", want, text)
		}
	}

	// Beside a payroll account: its own W-2 of 2025 stands; one uploaded
	// for 2023, which it lacks, is its year; an upload for 2024, whose
	// payroll W-2 is removed, is set beside 2024's paystubs.
	payroll := goldenSources()[0]
	delete(payroll.W2s, "2024")
	gross2024 := int64(0)
	for _, a := range reports.AnnualIncomes(payroll.Paystubs) {
		if a.Year == "2024" {
			gross2024 = a.GrossPayYTD
		}
	}
	docs := []domain.Record{
		uploadedW2("w2-2025", "2025", "Sycamore Publishing", "271234567", cents(1), cents(2)),
		uploadedW2("w2-2023", "2023", "Sycamore Publishing Inc", "", cents(4_900_000), cents(5_100_000)),
		uploadedW2("w2-2024", "2024", "Sycamore Publishing Inc", "", cents(gross2024), cents(gross2024+50_000)),
	}
	r, src = uploadsReport(t, docs, payroll)
	if len(r.Employments) != 1 || r.Employments[0].Source.Type != domain.SourcePayroll {
		t.Fatalf("employments %+v: want the payroll one alone", r.Employments)
	}
	byYear := map[string]domain.AnnualIncome{}
	for _, a := range r.Employments[0].Income.AnnualIncomes {
		byYear[a.Year] = a
	}
	if w := byYear["2025"].W2; w == nil || w.DocumentID != "" || w.Wages == 1 {
		t.Errorf("2025's W-2 %+v: want the payroll account's", w)
	}
	if a := byYear["2023"]; a.Basis != domain.BasisW2 || a.GrossPayYTD != 5_100_000 || a.W2 == nil || a.W2.DocumentID != "w2-2023" {
		t.Errorf("2023 %+v: want the uploaded W-2's year", a)
	}
	if w := byYear["2024"].W2; w == nil || w.DocumentID != "w2-2024" || w.MedicareWages != gross2024+50_000 || byYear["2024"].Basis != domain.BasisYearToDate {
		t.Errorf("2024's W-2 %+v: want the upload beside the paystubs", w)
	}
	if !slices.ContainsFunc(r.Flags, func(f domain.ReportFlag) bool {
		return f.Code == domain.FlagW2Mismatch && strings.Contains(f.Message, "2024") && slices.Equal(f.DocumentIDs, []string{"w2-2024"})
	}) {
		t.Errorf("flags %+v: want 2024's gross pay against the uploaded W-2's box 5 flagged", r.Flags)
	}
	if !strings.Contains(r.FCRANotice.Text, "copied from your payroll account or read from the W-2s you uploaded, which were not confirmed with your employer") {
		t.Errorf("FCRA notice of payroll and an uploaded W-2:\n%s", r.FCRANotice.Text)
	}
	if c := r.Completeness; c.IdentitySource != payroll.Account.ID || c.IdentitySourceDocument != "" {
		t.Errorf("identity from %q / %q, want the account", c.IdentitySource, c.IdentitySourceDocument)
	}
	text = oneLine(textOf(t, pdfOf(t, r, src)))
	if !strings.Contains(text, "Uploaded W-2s W-2s for 2023 and 2024 the end user uploaded, not confirmed with the employer") {
		t.Errorf("the payroll employment does not say which W-2s were uploaded:\n%s", text)
	}
}

// pdfOf renders a report.
func pdfOf(t *testing.T, r domain.VerificationReport, src []reports.Source) []byte {
	t.Helper()
	pdf, err := reports.RenderVerification(r, src)
	if err != nil {
		t.Fatal(err)
	}
	return pdf
}

// hourlyStub is a paystub of Cedar Staffing read from an upload: hours
// at $20.00 an hour in the period from start to end, paid on the day
// after it ends (an inverted period is paid the day after it starts).
func hourlyStub(id, start, end string, hours float64) domain.Record {
	pay := domain.Date(end)
	if end < start {
		pay = domain.Date(start)
	}
	payDate := domain.Date(pay.Time().AddDate(0, 0, 1).Format(time.DateOnly))
	gross := int64(hours * 2000)
	rate := domain.USD(2000)
	p := domain.Paystub{PayDate: payDate, PayPeriodStart: domain.Date(start), PayPeriodEnd: domain.Date(end), EmployerName: "Cedar Staffing",
		GrossPayAmount: domain.USD(gross), NetPayAmount: domain.USD(gross * 8 / 10), GrossPayYTD: domain.USD(gross * 40), NetPayYTD: domain.USD(gross * 32),
		TotalTaxes: domain.USD(gross * 2 / 10), TotalDeductions: domain.USD(0),
		Earnings: []domain.PayLine{{Name: "Regular", Category: "hourly", Amount: domain.USD(gross), Hours: &hours, Rate: &rate}}}
	r := readOf(p, "Amara Vaughan")
	return uploaded(id, id+".pdf", domain.ParsedDocument{Paystub: &r}, implausible, reviewed(domain.ReviewAccepted))
}

// TestSanityDoubtsArePointsToReview: figures that cannot all be right,
// or rest on too little, are points to review in the JSON and on paper,
// even once a reviewer accepted the stubs: more than 80 hours a week on
// average (the weeks counted from the pay periods exactly: whole weeks
// said as such, others with their days and a decimal), a pay period that
// ends before it starts, an income annualized from a single paystub
// (which its projection's basis says too).
func TestSanityDoubtsArePointsToReview(t *testing.T) {
	flagOf := func(r domain.VerificationReport, code string) *domain.ReportFlag {
		for i, f := range r.Flags {
			if f.Code == code {
				return &r.Flags[i]
			}
		}
		return nil
	}
	// Two weekly stubs, one with the year's hours (1,760) read as the
	// period's: 1,800 hours over 14 days.
	r, src := uploadsReport(t, []domain.Record{hourlyStub("h-1", "2026-11-02", "2026-11-08", 1760), hourlyStub("h-2", "2026-11-09", "2026-11-15", 40)})
	in := r.Employments[0].Income
	f := flagOf(r, domain.FlagHoursOver80)
	if in.AverageWeeklyHours == nil || *in.AverageWeeklyHours != 900 || !strings.Contains(in.HoursBasis, "1800.0 hours over 2 weeks of paystubs") ||
		f == nil || !slices.Equal(f.DocumentIDs, []string{"h-1", "h-2"}) || !strings.Contains(f.Message, "900.0 hours a week on average") {
		t.Errorf("hours %v (%s), flag %+v: want 900 a week over exactly 2 weeks, raised", in.AverageWeeklyHours, in.HoursBasis, f)
	}
	if text := oneLine(textOf(t, pdfOf(t, r, src))); !strings.Contains(text, "Over 80 hours a week Cedar Staffing: the paystubs report 900.0 hours a week on average") {
		t.Errorf("the PDF does not raise the hours:\n%s", text)
	}

	// Semi-monthly periods of 15 and 16 days: 31 days are 4.4 weeks,
	// said as such, not "4 weeks".
	r, _ = uploadsReport(t, []domain.Record{hourlyStub("s-1", "2026-10-01", "2026-10-15", 80), hourlyStub("s-2", "2026-10-16", "2026-10-31", 88)})
	if in := r.Employments[0].Income; !strings.Contains(in.HoursBasis, "168.0 hours over 31 days (4.4 weeks) of paystubs") ||
		*in.AverageWeeklyHours != 37.9 || flagOf(r, domain.FlagHoursOver80) != nil {
		t.Errorf("semi-monthly hours: %v a week, %q", *in.AverageWeeklyHours, in.HoursBasis)
	}

	// A stub, accepted, whose period ends before it starts: its pay
	// counts on its pay date, and the period is raised; with no period
	// nor pay frequency, its hours make no weekly average (said so).
	r, src = uploadsReport(t, []domain.Record{hourlyStub("i-1", "2026-11-14", "2026-11-01", 40), hourlyStub("i-2", "2026-11-15", "2026-11-21", 40)})
	inverted := flagOf(r, domain.FlagPayPeriodInverted)
	if inverted == nil || !slices.Equal(inverted.DocumentIDs, []string{"i-1"}) ||
		!strings.Contains(inverted.Message, "the paystub dated Nov 15, 2026 prints a pay period that ends (Nov 1, 2026) before it starts (Nov 14, 2026)") {
		t.Errorf("inverted period: %+v", inverted)
	}
	if in := r.Employments[0].Income; in.AverageWeeklyHours != nil || !strings.Contains(in.HoursBasis, "a weekly average, are unknown") {
		t.Errorf("hours without periods or frequency: %v a week (%s)", in.AverageWeeklyHours, in.HoursBasis)
	}
	text := oneLine(textOf(t, pdfOf(t, r, src)))
	if !strings.Contains(text, "Pay period ends before it starts") {
		t.Errorf("the PDF's points to review lack the inverted period:\n%s", text)
	}

	// One weekly stub, accepted: its rate times its hours times 52 is
	// the projection, which says it rests on one stub, and is raised.
	r, src = uploadsReport(t, []domain.Record{hourlyStub("o-1", "2026-11-02", "2026-11-08", 40)})
	one := flagOf(r, domain.FlagOnePaystubAnnualized)
	in = r.Employments[0].Income
	if one == nil || in.ProjectedAnnualIncome == nil || *in.ProjectedAnnualIncome != 4_160_000 || !slices.Equal(one.DocumentIDs, []string{"o-1"}) ||
		!strings.Contains(one.Message, "the projected annual income $41,600.00 is annualized from a single paystub, dated Nov 9, 2026") ||
		!strings.Contains(in.ProjectionBasis, "annualized from a single paystub, dated Nov 9, 2026") {
		t.Errorf("a projection from one stub: flag %+v, basis %q", one, in.ProjectionBasis)
	}
	text = oneLine(textOf(t, pdfOf(t, r, src)))
	for _, want := range []string{"Annualized from one paystub", "Its one document was reviewed by a member of Acme Lending, who accepted its figures."} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF's points to review lack %q:\n%s", want, text)
		}
	}
	// A payroll platform's salary over many stubs raises none of them.
	r, _ = goldenReport(domain.ReportVOIE)
	for _, code := range []string{domain.FlagHoursOver80, domain.FlagPayPeriodInverted, domain.FlagOnePaystubAnnualized, domain.FlagDocumentSetAside} {
		if f := flagOf(r, code); f != nil {
			t.Errorf("the golden payroll report raises %+v", f)
		}
	}
}

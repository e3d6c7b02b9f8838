package reports_test

import (
	"encoding/json"
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

// sourceOf reads a sandbox account as the report's source, with the
// consent Link recorded when the account was connected.
func sourceOf(a domain.Account, ein string) reports.Source {
	read := a.CreatedAt.Add(time.Minute)
	a.DataUpdatedAt = map[string]time.Time{domain.ProductIdentity: read, domain.ProductEmployment: read, domain.ProductIncome: read,
		domain.ProductPaystubs: read}
	p := sandbox.NewPerson(a)
	id, emp, inc := p.Identity(), p.Employment(), p.Income()
	w2s := map[string]domain.W2{}
	for _, w := range p.W2s(goldenNow.Add(-domain.PaystubHistory), goldenNow) {
		w2s[w.TaxYear] = w.W2
	}
	return reports.Source{Account: a, PlatformName: "Summit Payroll", EIN: ein, W2s: w2s, Identity: &id, Employment: &emp, Income: &inc,
		Paystubs: p.Paystubs(goldenNow.Add(-domain.PaystubHistory), goldenNow, read),
		Consent:  &domain.Consent{AccountID: a.ID, CustomerID: a.CustomerID, GivenAt: a.CreatedAt, TextVersion: domain.ConsentTextVersion}}
}

// analysisAccount is the first account id from n on whose sandbox job
// passes want: a fixed account, found rather than hard-coded so the test
// says what it needs.
func analysisAccount(a domain.Account, n int, want func(sandbox.Person) bool) domain.Account {
	for i := n; ; i++ {
		a.ID = fmt.Sprintf("0195f0a0-0000-7000-8000-%012d", i)
		if want(sandbox.NewPerson(a)) {
			return a
		}
	}
}

// analysisPeople are fixed sandbox end users, by name: "borrower" has an
// hourly job with overtime at an employer picked in Link, the stint before
// it there (a rehire, written by hand) and a job that ended recently,
// reached through a payroll platform; "salaried" one salaried job; "pay_gap" and "declining"
// the sandbox users of those names.
func analysisPeople() map[string][]reports.Source {
	platforms, _ := sandbox.Directory(sandbox.DefaultEmployerCount)
	var platform domain.Platform
	for _, p := range platforms {
		if p.Type == domain.PlatformPayroll && !p.ESP {
			platform = p
			break
		}
	}
	created := goldenNow.AddDate(0, 0, -3)
	base := domain.Account{CustomerID: "golden-customer", Mode: domain.ModeSandbox, CreatedAt: created, Connection: "good"}
	hourlyWithOvertime := func(p sandbox.Person) bool { return p.Hourly && p.Frequency == "bi-weekly" }

	current := base
	current.EndUserID, current.EmployerID, current.EmployerName, current.PlatformID = "borrower", "emp-abernathy", "Abernathy Bakery Corporation", platform.ID
	current = analysisAccount(current, 7000, hourlyWithOvertime)
	// The sandbox never makes a rehire (a terminated job is at another
	// employer than a current one), so the stint before the current job
	// is written here: a terminated account's job moved to the current
	// employer and to years before its start, with no paystubs in the
	// window.
	first := current
	first.Connection, first.CreatedAt = "terminated", created.Add(time.Hour)
	first = analysisAccount(first, 7100, func(sandbox.Person) bool { return true })
	rehire := sourceOf(first, "271234567")
	now := sandbox.NewPerson(current).Employment()
	end := domain.Date("2012-11-07")
	rehire.Employment.EmployerName, rehire.Employment.EmployerAddress = now.EmployerName, now.EmployerAddress
	rehire.Employment.StartDate, rehire.Employment.TerminationDate = "2007-05-03", &end
	rehire.Paystubs, rehire.W2s = nil, map[string]domain.W2{}
	ended := base
	ended.EndUserID, ended.PlatformID, ended.EmployerName, ended.Connection = "borrower", platform.ID, platform.Name, "terminated"
	ended.CreatedAt = created.Add(2 * time.Hour)
	ended = analysisAccount(ended, 7200, hourlyWithOvertime)

	salaried := base
	salaried.EndUserID, salaried.EmployerID, salaried.EmployerName = "salaried", "emp-cobalt", "Cobalt Clinics"
	salaried = analysisAccount(salaried, 7300, func(p sandbox.Person) bool { return !p.Hourly && p.Frequency == "semi-monthly" })
	gap := base
	gap.EndUserID, gap.EmployerID, gap.EmployerName, gap.Connection = "pay_gap", "emp-delta", "Delta Diner", "pay_gap"
	gap = analysisAccount(gap, 7400, func(sandbox.Person) bool { return true })
	declining := base
	declining.EndUserID, declining.EmployerID, declining.EmployerName, declining.Connection = "declining", "emp-ember", "Ember Freight", "declining"
	declining = analysisAccount(declining, 7500, func(sandbox.Person) bool { return true })

	return map[string][]reports.Source{
		"borrower":  {sourceOf(current, "271234567"), rehire, sourceOf(ended, "")},
		"salaried":  {sourceOf(salaried, "381234567")},
		"pay_gap":   {sourceOf(gap, "451234567")},
		"declining": {sourceOf(declining, "561234567")},
	}
}

// analysisOf is what the golden file pins of a report: its flags and each
// employment's dates, consent, projection, trends, hours and how each
// year's earnings are split.
type analysisOf struct {
	Flags       []domain.ReportFlag  `json:"flags"`
	Employments []employmentAnalysis `json:"employments"`
}

type employmentAnalysis struct {
	Employer        string                  `json:"employer"`
	Start           string                  `json:"start_date"`
	End             *string                 `json:"termination_date"`
	OriginalHire    string                  `json:"original_hire_date"`
	Consent         *domain.ReportConsent   `json:"consent"`
	Projected       *domain.ProjectedIncome `json:"projected_income"`
	Annual          *int64                  `json:"projected_annual_income"`
	Trends          *domain.IncomeTrends    `json:"trends"`
	Hours           *float64                `json:"average_weekly_hours"`
	RegularHours    *float64                `json:"average_weekly_regular_hours"`
	HoursBasis      string                  `json:"hours_basis"`
	Years           []yearSplit             `json:"years"`
	NewestPaystubs  []domain.ReportPaystub  `json:"newest_paystubs"`
	PaystubsSummed  domain.EarningsByType   `json:"paystubs_by_type"`
	PaystubsGrossed int64                   `json:"paystubs_gross"`
}

type yearSplit struct {
	Year      string                `json:"year"`
	Basis     string                `json:"basis"`
	Split     string                `json:"earnings_by_type_basis"`
	ByType    domain.EarningsByType `json:"earnings_by_type"`
	W2Unsplit *int64                `json:"w2_unsplit"`
}

// TestAnalysisGolden pins every projected figure, trend and flag of the
// fixed sandbox people to the cent and the word: the borrower's rehire
// does not overlap and its recent termination has its final paycheck, so
// they raise nothing; user_pay_gap raises PAY_GAP, user_declining
// DECLINING_INCOME; the salaried person has no flags at all.
func TestAnalysisGolden(t *testing.T) {
	people := analysisPeople()
	got := map[string]analysisOf{}
	for name, src := range people {
		r := reports.Assemble(domain.ReportVOIE, goldenID, src, goldenNow, goldenNow.Add(time.Hour))
		// Stored, a report is this JSON read back by the same type: every
		// figure survives the trip.
		stored, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var back domain.VerificationReport
		if err := json.Unmarshal(stored, &back); err != nil {
			t.Fatal(err)
		}
		if again, _ := json.Marshal(back); string(again) != string(stored) {
			t.Errorf("%s: the stored report reads back differently:\n%s\n%s", name, stored, again)
		}
		a := analysisOf{Flags: r.Flags}
		for i, e := range r.Employments {
			in := e.Income
			ea := employmentAnalysis{Employer: e.EmployerName, Start: e.StartDate, End: e.TerminationDate, OriginalHire: e.OriginalHireDate,
				Consent: e.Consent, Projected: in.ProjectedIncome, Annual: in.ProjectedAnnualIncome, Trends: in.Trends,
				Hours: in.AverageWeeklyHours, RegularHours: in.AverageWeeklyRegularHours, HoursBasis: in.HoursBasis, NewestPaystubs: in.Paystubs}
			for _, y := range in.AnnualIncomes {
				ea.Years = append(ea.Years, yearSplit{Year: y.Year, Basis: y.Basis, Split: y.EarningsByTypeBasis, ByType: y.EarningsByType, W2Unsplit: y.W2Unsplit})
			}
			// Every paystub's split adds up to its gross pay.
			for _, p := range src[i].Paystubs {
				e := domain.EarningsOf(p).ByType
				if e.Total() != p.GrossPayAmount.Amount {
					t.Errorf("%s %s: split %+v, gross %d", name, p.PayDate, e, p.GrossPayAmount.Amount)
				}
				ea.PaystubsGrossed += p.GrossPayAmount.Amount
				ea.PaystubsSummed.Base += e.Base
				ea.PaystubsSummed.Overtime += e.Overtime
				ea.PaystubsSummed.Bonus += e.Bonus
				ea.PaystubsSummed.Commission += e.Commission
				ea.PaystubsSummed.Other += e.Other
			}
			a.Employments = append(a.Employments, ea)
		}
		got[name] = a
	}
	codes := func(name string) []string {
		var out []string
		for _, f := range got[name].Flags {
			out = append(out, f.Code)
		}
		return out
	}
	for name, want := range map[string][]string{"borrower": nil, "salaried": nil, "pay_gap": {domain.FlagPayGap},
		"declining": {domain.FlagDecliningIncome}} {
		if diff := cmp.Diff(want, codes(name)); diff != "" {
			t.Errorf("%s: flags (-want +got):\n%s\n%+v", name, diff, got[name].Flags)
		}
	}
	if got["salaried"].Flags == nil {
		t.Error("a clean person's flags are null, want []")
	}
	b := got["borrower"].Employments
	if len(b) != 3 || b[0].Employer != b[1].Employer || b[1].End == nil || *b[1].End >= b[0].Start || b[0].OriginalHire != b[1].Start {
		t.Errorf("the borrower's rehire: %+v", b)
	}
	if b[2].Employer == "" || b[2].End == nil || b[2].Projected != nil || b[2].Employer == people["borrower"][2].Account.EmployerName {
		t.Errorf("the borrower's ended job through a platform: %+v", b[2])
	}
	body, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "analysis.golden.json")
	if *update {
		if err := os.WriteFile(path, append(body, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(body)+"\n"); diff != "" {
		t.Errorf("the analysis changed (-want +got); rerun with -update if on purpose:\n%s", diff)
	}
}

// weeklyStubs are n weekly paystubs to the golden build, oldest first:
// regular hours at rate, and the overtime hours (at 1.5 times) and bonus
// each week's function gives.
func weeklyStubs(n int, rate int64, regular float64, extra func(i int, at time.Time) (otHours float64, bonus int64)) []domain.Paystub {
	var out []domain.Paystub
	var ytd int64
	for i := 0; i < n; i++ {
		at := goldenNow.AddDate(0, 0, -7*(n-1-i))
		if i == 0 || out[len(out)-1].PayDateTime().Year() != at.Year() {
			ytd = 0
		}
		reg := regular
		r := domain.USD(rate)
		lines := []domain.PayLine{{Name: "Regular", Category: "hourly", Amount: domain.USD(int64(reg*float64(rate) + 0.5)), Hours: &reg, Rate: &r}}
		ot, bonus := extra(i, at)
		if ot > 0 {
			otRate := domain.USD(rate * 3 / 2)
			lines = append(lines, domain.PayLine{Name: "Overtime", Category: "overtime", Amount: domain.USD(int64(ot*float64(otRate.Amount) + 0.5)), Hours: &ot, Rate: &otRate})
		}
		if bonus > 0 {
			lines = append(lines, domain.PayLine{Name: "Bonus", Category: "bonus", Amount: domain.USD(bonus)})
		}
		var gross int64
		for _, l := range lines {
			gross += l.Amount.Amount
		}
		ytd += gross
		out = append(out, domain.Paystub{ID: fmt.Sprint(i), PayDate: domain.DateOf(at), GrossPayAmount: domain.USD(gross),
			GrossPayYTD: domain.USD(ytd), NetPayAmount: domain.USD(gross), NetPayYTD: domain.USD(ytd), Currency: "USD", Earnings: lines})
	}
	return out
}

func hourlySource(stubs []domain.Paystub, rate int64) reports.Source {
	emp := domain.Employment{Status: "employed", StartDate: "2015-01-05", EmployerName: "Fir Foods"}
	inc := domain.Income{CompensationAmount: domain.USD(rate), CompensationUnit: "hourly", Currency: "USD", PayFrequency: "weekly"}
	return reports.Source{Account: domain.Account{ID: "acct-fir", EmployerName: "Fir Foods"}, Employment: &emp, Income: &inc, Paystubs: stubs}
}

// TestProjectionByType works the example: $29.39 an hour and 38.0
// regular hours a week (overtime on top) project $58,074.64 of base, not
// the $60,367.06 that counting overtime hours at straight time gave;
// overtime and bonus are the last 24 months' halved; a figure whose cents
// have a half is rounded up, not truncated.
func TestProjectionByType(t *testing.T) {
	stubs := weeklyStubs(105, 2939, 38, func(i int, at time.Time) (float64, int64) {
		var bonus int64
		if at.Month() == time.December && at.Day() > 24 {
			bonus = 100_000
		}
		if i%4 == 0 {
			return 6, bonus
		}
		return 0, bonus
	})
	r := reports.Assemble(domain.ReportVOIE, goldenID, []reports.Source{hourlySource(stubs, 2939)}, goldenNow, goldenNow)
	in := r.Employments[0].Income
	p := in.ProjectedIncome
	if p == nil || p.Base != 5_807_464 || *in.AverageWeeklyRegularHours != 38 {
		t.Fatalf("base %+v, regular hours %v; want $58,074.64 from 38.0 hours", p, in.AverageWeeklyRegularHours)
	}
	var ot, bonus int64
	for _, s := range stubs {
		if s.PayDateTime().After(goldenNow.AddDate(-2, 0, 0)) {
			e := domain.EarningsOf(s).ByType
			ot, bonus = ot+e.Overtime, bonus+e.Bonus
		}
	}
	if p.Overtime != (ot+1)/2 || p.Bonus != (bonus+1)/2 || p.Total != p.Base+p.Overtime+p.Bonus || *in.ProjectedAnnualIncome != p.Total {
		t.Errorf("projected %+v, want overtime %d and bonus %d halved, total their sum", p, ot, bonus)
	}
	for _, w := range []string{"$29.39 an hour × 38.0 average regular hours", "24 months", "÷ 2"} {
		if !strings.Contains(p.Basis.Base+p.Basis.Overtime, w) {
			t.Errorf("basis %+v lacks %q", p.Basis, w)
		}
	}

	// $44.37 × 39.9 × 52 = $92,058,876 tenths of a cent: $92,058.88, not .87.
	stubs = weeklyStubs(105, 4437, 39.9, func(int, time.Time) (float64, int64) { return 0, 0 })
	r = reports.Assemble(domain.ReportVOIE, goldenID, []reports.Source{hourlySource(stubs, 4437)}, goldenNow, goldenNow)
	if p := r.Employments[0].Income.ProjectedIncome; p.Base != 9_205_888 || p.Overtime != 0 || p.Basis.Overtime != "no overtime in the last 24 months of paystubs" {
		t.Errorf("projected %+v, want a base of $92,058.88 (rounded half up) and no overtime", p)
	}

	// Half a year of paystubs: the whole history annualized, said so.
	stubs = weeklyStubs(26, 2939, 38, func(int, time.Time) (float64, int64) { return 2, 0 })
	r = reports.Assemble(domain.ReportVOIE, goldenID, []reports.Source{hourlySource(stubs, 2939)}, goldenNow, goldenNow)
	in = r.Employments[0].Income
	if p := in.ProjectedIncome; !strings.Contains(p.Basis.Overtime, "whole history") || !strings.Contains(p.Basis.Overtime, "182 days") ||
		p.Overtime != (26*2*4408*365*2+182)/(2*182) || in.Trends.Overtime.Trend != domain.TrendUnknown {
		t.Errorf("short history: %+v, trend %+v", p, in.Trends.Overtime)
	}
}

// TestTrends: the last twelve months against the twelve before, within
// ±5% stable; a declining one raises DECLINING_INCOME.
func TestTrends(t *testing.T) {
	for _, c := range []struct {
		name          string
		before, after float64 // overtime hours a week
		want          string
		change        int64
		flagged       bool
	}{
		// 53 weekly paystubs fall in the last twelve months, 52 in the
		// twelve before.
		{"declining", 4, 3, domain.TrendDeclining, -24, true},
		{"stable", 4, 4.1, domain.TrendStable, 4, false},
		{"increasing", 4, 5, domain.TrendIncreasing, 27, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			stubs := weeklyStubs(105, 2000, 40, func(i int, at time.Time) (float64, int64) {
				if at.After(goldenNow.AddDate(-1, 0, 0)) {
					return c.after, 0
				}
				return c.before, 0
			})
			r := reports.Assemble(domain.ReportVOIE, goldenID, []reports.Source{hourlySource(stubs, 2000)}, goldenNow, goldenNow)
			tr := r.Employments[0].Income.Trends
			if tr.Overtime.Trend != c.want || tr.Overtime.ChangePercent == nil || *tr.Overtime.ChangePercent != c.change ||
				tr.Bonus.Trend != domain.TrendNone {
				t.Errorf("trends %+v, want overtime %s (%d%%)", tr, c.want, c.change)
			}
			if flagged := len(r.Flags) == 1 && r.Flags[0].Code == domain.FlagDecliningIncome; flagged != c.flagged {
				t.Errorf("flags %+v", r.Flags)
			}
		})
	}
}

// TestFlags: employments at one EIN that overlap, one employer at two
// addresses, a termination without a final paycheck, and a W-2 that
// disagrees with the paystubs each raise their point, naming the
// employment and saying what the data shows.
func TestFlags(t *testing.T) {
	stubs := weeklyStubs(105, 2000, 40, func(int, time.Time) (float64, int64) { return 0, 0 })
	a := hourlySource(stubs, 2000)
	a.EIN = "271234567"
	a.Employment.EmployerAddress = domain.Address{Raw: "1 Main St, Columbus, OH 43215"}
	b := hourlySource(stubs[:60], 2000)
	b.Account.ID, b.EIN = "acct-fir-2", "271234567"
	end := domain.Date("2026-05-01") // the last of the 60 stubs is paid Jan 9, 2026
	b.Employment = &domain.Employment{Status: "terminated", StartDate: "2014-02-01", TerminationDate: &end, EmployerName: "Fir Foods",
		EmployerAddress: domain.Address{Raw: "9 Dock Rd, Tampa, FL 33602"}}
	a.W2s = map[string]domain.W2{"2025": {MedicareWages: domain.USD(1_000_00), TotalWages: domain.USD(1_000_00)}}
	r := reports.Assemble(domain.ReportVOIE, goldenID, []reports.Source{a, b}, goldenNow, goldenNow)
	want := map[string]string{
		domain.FlagW2Mismatch:              "acct-fir",
		domain.FlagMissingFinalPay:         "acct-fir-2",
		domain.FlagOverlappingEmployment:   "acct-fir-2",
		domain.FlagEmployerAddressConflict: "acct-fir-2",
	}
	got := map[string]string{}
	for _, f := range r.Flags {
		got[f.Code] = f.Employment
		if f.Message == "" || !strings.Contains(f.Message, "Fir Foods") {
			t.Errorf("%s: message %q", f.Code, f.Message)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("flags (-want +got):\n%s\n%+v", diff, r.Flags)
	}

	// Six weeks without pay within the year.
	gapped := append(append([]domain.Paystub{}, stubs[:90]...), stubs[96:]...)
	r = reports.Assemble(domain.ReportVOIE, goldenID, []reports.Source{hourlySource(gapped, 2000)}, goldenNow, goldenNow)
	if len(r.Flags) != 1 || r.Flags[0].Code != domain.FlagPayGap || !strings.Contains(r.Flags[0].Message, "no pay for 49 days") {
		t.Errorf("a six-week gap: %+v", r.Flags)
	}
}

// TestAnalysisPDF renders the borrower (an hourly job with overtime, the
// stint before it at the same employer, and a job that ended) and reads
// it back: each employment's section says which it is, the paystub tables
// have the regular and overtime columns, and the FCRA notice, the dispute
// contact and each consent's time are there. The pages of each
// employment's income are compared with the committed PNGs.
func TestAnalysisPDF(t *testing.T) {
	src := analysisPeople()["borrower"]
	r := reports.Assemble(domain.ReportVOIE, goldenID, src, goldenNow, goldenNow.Add(time.Hour))
	r.FCRANotice = reports.NewFCRANotice("Payline Disputes, disputes@payline.example, 1-800-555-0199", src)
	pdf, err := reports.RenderVerification(r, src)
	if err != nil {
		t.Fatal(err)
	}
	text := textOf(t, pdf)
	want := []string{"Fair Credit Reporting Act", "disputes@payline.example", "Points to review", "Reg hrs", "OT hrs", "Overtime",
		"Projected", "Variable income", "Last 12 months", "current", "ended"}
	for _, e := range r.Employments {
		want = append(want, time.Time(e.Consent.GivenAt).UTC().Format("Jan 2, 2006 15:04 UTC"))
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("the PDF's text lacks %q", w)
		}
	}
	bin := poppler(t, "pdftotext")
	path := writePDF(t, "borrower.pdf", pdf)
	pageOf := func(heading string) int {
		for n := 1; n < 40; n++ {
			out, err := exec.Command(bin, "-f", fmt.Sprint(n), "-l", fmt.Sprint(n), path, "-").Output()
			if err != nil {
				break
			}
			if strings.Contains(string(out), heading) {
				return n
			}
		}
		t.Fatalf("no page has %q", heading)
		return 0
	}
	heading := func(e domain.ReportEmployment) string {
		h := "Income · " + e.EmployerName
		if e.TerminationDate != nil {
			h += ", " + mustDate(t, e.StartDate).Format("Jan 2, 2006")
		}
		return h
	}
	hourly, rehire, ended := pageOf(heading(r.Employments[0])), pageOf(heading(r.Employments[1])), pageOf(heading(r.Employments[2]))
	comparePicture(t, "analysis-hourly-overtime.png", pageImage(t, pdf, hourly))
	comparePicture(t, "analysis-paystubs.png", pageImage(t, pdf, pageOf("Paystubs · "+r.Employments[0].EmployerName)))
	if rehire == ended {
		comparePicture(t, "analysis-rehire-and-ended.png", pageImage(t, pdf, rehire))
	} else {
		comparePicture(t, "analysis-rehire.png", pageImage(t, pdf, rehire))
		comparePicture(t, "analysis-ended.png", pageImage(t, pdf, ended))
	}
	comparePicture(t, "analysis-notice.png", pageImage(t, pdf, pageOf("Fair Credit Reporting Act")))

	// An end user with a pay gap and a declining overtime: the points to
	// review on the first page.
	people := analysisPeople()
	src = append(people["pay_gap"], people["declining"]...)
	r = reports.Assemble(domain.ReportVOIE, goldenID, src, goldenNow, goldenNow.Add(time.Hour))
	if pdf, err = reports.RenderVerification(r, src); err != nil {
		t.Fatal(err)
	}
	text = textOf(t, pdf)
	for _, w := range []string{"Points to review", "Gap in pay", "no pay for 56 days", "Declining income", "overtime fell"} {
		if !strings.Contains(text, w) {
			t.Errorf("the flagged report's text lacks %q", w)
		}
	}
	comparePicture(t, "analysis-points-to-review.png", pageImage(t, pdf, 1))
}

func mustDate(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestOrdinaryPeopleAreClean: the sandbox's ordinary users (user_good)
// raise no point to review: their jobs do not overlap, are paid without
// gaps, and their overtime and bonus hold steady from year to year.
func TestOrdinaryPeopleAreClean(t *testing.T) {
	flagged := 0
	for i := 0; i < 100; i++ {
		a := domain.Account{ID: fmt.Sprintf("0195f0a0-0000-7000-8000-%012d", 8000+i), CustomerID: "c", EndUserID: fmt.Sprint("u", i),
			EmployerName: "Gale Goods", Connection: "good", CreatedAt: goldenNow.AddDate(0, 0, -3)}
		r := reports.Assemble(domain.ReportVOIE, goldenID, []reports.Source{sourceOf(a, "")}, goldenNow, goldenNow.Add(time.Hour))
		if len(r.Flags) > 0 {
			flagged++
			t.Logf("%s: %+v", a.ID, r.Flags)
		}
	}
	if flagged > 0 {
		t.Errorf("%d of 100 ordinary sandbox users raise points to review", flagged)
	}
}

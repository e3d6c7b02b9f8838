package reports_test

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/reports"
)

// hoursWords reads the hours' basis: all hours, the span of paystubs in
// words, the regular hours and their weekly average.
var hoursWords = regexp.MustCompile(`^([0-9.]+) hours over (.+?) of paystubs, .*; ([0-9.]+) of them regular hours \(([0-9.]+) a week\)`)

// spanDays is how many days a span in words says: "54 weeks", or "365
// days (52.1 weeks)", whose weeks must be its days over 7 to a tenth.
func spanDays(t *testing.T, span string) float64 {
	t.Helper()
	var days, weeks float64
	if _, err := fmt.Sscanf(span, "%f days (%f weeks)", &days, &weeks); err == nil {
		if got := math.Round(days/7*10) / 10; got != weeks {
			t.Errorf("%q: %v days are %.1f weeks", span, days, got)
		}
		return days
	}
	if _, err := fmt.Sscanf(span, "%f weeks", &weeks); err != nil || weeks != math.Trunc(weeks) {
		t.Fatalf("span %q is neither whole weeks nor days with their weeks", span)
	}
	return weeks * 7
}

// TestHoursSayOneSpan: an hourly employment's average regular hours a
// week are its regular hours over the days its paystubs cover, and the
// projection's base says the same average over the same span as the
// hours' basis (it said "the last 52 weeks" beside "54 weeks" or "365
// days"), in the JSON and on the PDF.
func TestHoursSayOneSpan(t *testing.T) {
	created := goldenNow.AddDate(0, 0, -3)
	seen := map[string]bool{}
	for i := 0; i < 400 && len(seen) < 3; i++ {
		a := domain.Account{ID: fmt.Sprintf("0195f0a0-0000-7000-8000-%012d", 20000+i), CustomerID: "c", Mode: domain.ModeSandbox,
			EndUserID: "hours", EmployerName: "Hourly Co", Connection: "good", CreatedAt: created}
		p := sandbox.NewPerson(a)
		if !p.Hourly {
			continue
		}
		src := []reports.Source{sourceOf(a, "")}
		r := reports.Assemble(domain.ReportVOIE, goldenID, src, goldenNow, goldenNow.Add(time.Hour))
		in := r.Employments[0].Income
		m := hoursWords.FindStringSubmatch(in.HoursBasis)
		if m == nil || in.ProjectedIncome == nil || in.AverageWeeklyRegularHours == nil {
			t.Fatalf("%s: hours %q, projection %+v", a.ID, in.HoursBasis, in.ProjectedIncome)
		}
		span := m[2]
		kind := "weeks"
		if strings.Contains(span, "days") {
			kind = "days"
		}
		if seen[kind+span] {
			continue
		}
		seen[kind+span] = true
		regular, _ := strconv.ParseFloat(m[3], 64)
		weekly := math.Round(regular*7/spanDays(t, span)*10) / 10
		if m[4] != strconv.FormatFloat(weekly, 'f', 1, 64) || *in.AverageWeeklyRegularHours != weekly {
			t.Errorf("%s: %s regular hours over %s are %.1f a week; the report says %s and %v", a.ID, m[3], span, weekly, m[4], *in.AverageWeeklyRegularHours)
		}
		want := fmt.Sprintf("× %s average regular hours a week over %s of paystubs × 52", m[4], span)
		if !strings.Contains(in.ProjectedIncome.Basis.Base, want) {
			t.Errorf("%s: the base's basis %q, want it to say %q, as the hours do: %q", a.ID, in.ProjectedIncome.Basis.Base, want, in.HoursBasis)
		}
		pdf, err := reports.RenderVerification(r, src)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(textOf(t, pdf)), " ")
		for _, w := range []string{"over " + span + " of paystubs, ", want} {
			if !strings.Contains(text, w) {
				t.Errorf("%s: the PDF lacks %q", a.ID, w)
			}
		}
	}
	if len(seen) < 2 {
		t.Errorf("only spans %v: want whole weeks and days", seen)
	}
}

// notSingular finds a count that does not agree with its noun: "(s)",
// "1 paystubs", "the 1 paystub", a span from a day to itself.
var notSingular = regexp.MustCompile(`\(s\)|\b1 (paystubs|documents|W-2s|employments)\b|\bthe 1 paystub\b|cover ([A-Z][a-z]{2} \d+, \d{4}) to ([A-Z][a-z]{2} \d+, \d{4})`)

// TestOnePaystubSaidInTheSingular: a report of one paystub says so in
// words ("one paystub was read", "its own"), never "1 paystub(s)", "the
// sums of the 1 paystub" or "from Nov 29 to Nov 29"; with and without
// year-to-date figures, in a year with a W-2 that is not split.
func TestOnePaystubSaidInTheSingular(t *testing.T) {
	for _, ytd := range []bool{true, false} {
		src := goldenSources()[:1]
		src[0].Paystubs = slices.Clone(src[0].Paystubs[:1])
		want := []string{"one paystub was read, dated", "Paystubs cover one pay date,"}
		if !ytd {
			p := &src[0].Paystubs[0]
			p.GrossPayYTD, p.NetPayYTD = domain.Money{}, domain.Money{}
			want = []string{"The one paystub read, dated", "Paystubs cover one pay date,"}
		}
		r := reports.Assemble(domain.ReportVOIE, goldenID, src, goldenNow, goldenNow.Add(time.Hour))
		pdf, err := reports.RenderVerification(r, src)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(textOf(t, pdf)), " ")
		for _, m := range notSingular.FindAllStringSubmatch(text, -1) {
			if m[2] == "" || m[2] == m[3] {
				t.Errorf("year-to-date figures %v: the PDF says %q", ytd, m[0])
			}
		}
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("year-to-date figures %v: the PDF lacks %q", ytd, w)
			}
		}
	}
}

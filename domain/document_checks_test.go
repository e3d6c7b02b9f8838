package domain_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"payline/domain"
)

func cents(v int64) *int64 { return &v }

// cleanStub is a biweekly paystub of Acme Corp: $2,000.00 gross, $300.00
// taxes and $100.00 deductions, $1,600.00 net, the n-th of 2026 (from 1),
// paid on Fridays from January 9.
func cleanStub(n int) domain.ReadPaystub {
	pay := time.Date(2026, 1, 9, 0, 0, 0, 0, time.UTC).AddDate(0, 0, 14*(n-1))
	usd := domain.USD
	return domain.ReadPaystub{DocumentType: domain.DocumentPaystub, EmployerName: "Acme Corp", EmployerEIN: "12-3456789",
		EmployeeName: "Pat Doe", PayDate: pay.Format(time.DateOnly),
		PayPeriodStart: pay.AddDate(0, 0, -19).Format(time.DateOnly), PayPeriodEnd: pay.AddDate(0, 0, -6).Format(time.DateOnly),
		GrossPayAmount: cents(200000), NetPayAmount: cents(160000), GrossPayYTD: cents(200000 * int64(n)), NetPayYTD: cents(160000 * int64(n)),
		TotalTaxes: cents(30000), TotalDeductions: cents(10000),
		Earnings:   []domain.PayLine{{Name: "Regular", Category: "salary", Amount: usd(200000)}},
		Taxes:      []domain.PayLine{{Name: "Federal", Category: "federal_income", Amount: usd(20000)}, {Name: "FICA", Category: "social_security", Amount: usd(10000)}},
		Deductions: []domain.PayLine{{Name: "401k", Category: "retirement", Amount: usd(10000)}},
		Currency:   "USD"}
}

func codes(rs []domain.FraudReason) []string {
	var out []string
	for _, r := range rs {
		if !slices.Contains(out, r.Code) {
			out = append(out, r.Code)
		}
	}
	return out
}

// TestCheckDocument triggers each check of a file alone, and passes a
// clean one.
func TestCheckDocument(t *testing.T) {
	acme := domain.Employer{Name: "Acme Corporation", EIN: "123456789"}
	other := domain.Employer{Name: "Bolt Tools Inc", EIN: "987654321"}
	made := time.Date(2026, 1, 9, 8, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		edit   func(p *domain.ReadPaystub, f *domain.FileFacts, e *domain.EmployerFacts)
		want   []string
		phrase string // in the first reason's message
	}{
		{"clean", func(*domain.ReadPaystub, *domain.FileFacts, *domain.EmployerFacts) {}, nil, ""},
		{"clean, employer unknown to the directory", func(_ *domain.ReadPaystub, _ *domain.FileFacts, e *domain.EmployerFacts) { e.ByEIN = nil }, nil, ""},
		{"clean, one cent of rounding", func(p *domain.ReadPaystub, _ *domain.FileFacts, _ *domain.EmployerFacts) { *p.NetPayAmount += 1 }, nil, ""},
		{"clean, modified within the hour by its generator", func(_ *domain.ReadPaystub, f *domain.FileFacts, _ *domain.EmployerFacts) {
			f.Modified = made.Add(30 * time.Minute)
		}, nil, ""},
		{"net pay raised", func(p *domain.ReadPaystub, _ *domain.FileFacts, _ *domain.EmployerFacts) {
			*p.NetPayAmount, *p.NetPayYTD = 180000, 180000
		},
			[]string{domain.FraudArithmeticMismatch}, "less taxes $300.00 and deductions $100.00 is $1,600.00, but the net pay read is $1,800.00"},
		{"gross raised, lines left", func(p *domain.ReadPaystub, _ *domain.FileFacts, _ *domain.EmployerFacts) {
			*p.GrossPayAmount, *p.NetPayAmount, *p.GrossPayYTD, *p.NetPayYTD = 300000, 260000, 300000, 260000
		}, []string{domain.FraudArithmeticMismatch}, "the earnings lines add up to $2,000.00, but the gross pay read is $3,000.00"},
		{"tax lines do not add up to the total", func(p *domain.ReadPaystub, _ *domain.FileFacts, _ *domain.EmployerFacts) {
			p.Taxes[0].Amount.Amount = 10000
		}, []string{domain.FraudArithmeticMismatch}, "tax lines add up to $200.00"},
		{"period above year to date", func(p *domain.ReadPaystub, _ *domain.FileFacts, _ *domain.EmployerFacts) { *p.GrossPayYTD = 150000 },
			[]string{domain.FraudPeriodExceedsYTD}, "gross pay $2,000.00 is more than the year-to-date gross pay $1,500.00"},
		{"EIN of another employer", func(_ *domain.ReadPaystub, _ *domain.FileFacts, e *domain.EmployerFacts) { e.ByEIN = &other },
			[]string{domain.FraudEmployerUnknown}, `belongs to "Bolt Tools Inc"`},
		{"name of a known employer with another EIN", func(p *domain.ReadPaystub, _ *domain.FileFacts, e *domain.EmployerFacts) {
			p.EmployerEIN, e.ByEIN = "55-5555555", nil
		}, []string{domain.FraudEmployerUnknown}, "whose EIN in the employer directory is 123456789"},
		{"EIN never issued", func(p *domain.ReadPaystub, _ *domain.FileFacts, e *domain.EmployerFacts) {
			p.EmployerEIN, e.ByEIN, e.ByName = "07-1234567", nil, nil
		},
			[]string{domain.FraudEmployerUnknown}, "prefix the IRS does not issue"},
		{"font family embedded twice", func(_ *domain.ReadPaystub, f *domain.FileFacts, _ *domain.EmployerFacts) {
			f.Fonts = []string{"ABCDEF+Helvetica", "ABCDEF+Helvetica-Bold", "GHIJKL+Helvetica"}
		}, []string{domain.FraudFontsInconsistent}, "embedded 2 times"},
		{"too many font families", func(_ *domain.ReadPaystub, f *domain.FileFacts, _ *domain.EmployerFacts) {
			f.Fonts = []string{"Helvetica", "Times-Roman", "Courier", "ArialMT"}
		}, []string{domain.FraudFontsInconsistent}, "4 font families"},
		{"a figure typed over in another family", func(_ *domain.ReadPaystub, f *domain.FileFacts, _ *domain.EmployerFacts) {
			f.FontUse = []domain.FontUse{{Font: "Helvetica-Bold", Strings: 17}, {Font: "Helvetica", Strings: 49, Figures: 28}, {Font: "Courier", Strings: 1, Figures: 1}}
		}, []string{domain.FraudFontsInconsistent}, "drawn in Courier, which draws nothing else"},
		{"clean, the net pay alone in bold", func(_ *domain.ReadPaystub, f *domain.FileFacts, _ *domain.EmployerFacts) {
			f.FontUse = []domain.FontUse{{Font: "Helvetica", Strings: 49, Figures: 28}, {Font: "Helvetica-Bold", Strings: 1, Figures: 1}}
		}, nil, ""},
		{"clean, two families drawing figures throughout", func(_ *domain.ReadPaystub, f *domain.FileFacts, _ *domain.EmployerFacts) {
			f.FontUse = []domain.FontUse{{Font: "Times-Roman", Strings: 13, Figures: 8}, {Font: "Helvetica", Strings: 25, Figures: 15}}
		}, nil, ""},
		{"clean, a logo's font drawing one word", func(_ *domain.ReadPaystub, f *domain.FileFacts, _ *domain.EmployerFacts) {
			f.FontUse = []domain.FontUse{{Font: "Helvetica", Strings: 49, Figures: 28}, {Font: "Didot", Strings: 1}}
		}, nil, ""},
		{"modified days after creation", func(_ *domain.ReadPaystub, f *domain.FileFacts, _ *domain.EmployerFacts) {
			f.Modified = made.Add(72 * time.Hour)
		}, []string{domain.FraudEditedAfterCreate}, "3 days after it was created"},
		{"incremental update by a second program", func(_ *domain.ReadPaystub, f *domain.FileFacts, _ *domain.EmployerFacts) {
			f.Revisions, f.Producers = 1, []string{"ADP Payroll", "PDFium"}
		}, []string{domain.FraudEditedAfterCreate}, "1 incremental update"},
		{"saved by a PDF editor", func(_ *domain.ReadPaystub, f *domain.FileFacts, _ *domain.EmployerFacts) {
			f.Producers = []string{"Adobe Acrobat Pro 2024"}
		}, []string{domain.FraudEditedAfterCreate}, "PDF editor"},
		{"the page shows another net pay than its text", func(_ *domain.ReadPaystub, f *domain.FileFacts, _ *domain.EmployerFacts) {
			f.Mismatches = []domain.TextMismatch{{Page: 1, Field: "net_pay_amount", Layer: "1,600.00", Shown: "2,100.00"}}
		}, []string{domain.FraudTextLayerMismatch}, `text says "1,600.00" where the page shows "2,100.00"`},
		{"pay date not read", func(p *domain.ReadPaystub, _ *domain.FileFacts, _ *domain.EmployerFacts) { p.PayDate = "" },
			[]string{domain.FraudFieldsMissing}, "pay_date could not be read"},
		{"more than 80 hours a week", func(p *domain.ReadPaystub, _ *domain.FileFacts, _ *domain.EmployerFacts) {
			h := 1760.0 // a YTD hours column read as the period's
			p.Earnings[0].Hours = &h
		}, []string{domain.FraudImplausible}, "1760.00 hours over 14 days"},
		{"period ends before it starts", func(p *domain.ReadPaystub, _ *domain.FileFacts, _ *domain.EmployerFacts) {
			p.PayPeriodStart, p.PayPeriodEnd = p.PayPeriodEnd, p.PayPeriodStart
		}, []string{domain.FraudImplausible}, "ends (2025-12-21) before it starts (2026-01-03)"},
		{"paid 34 days after its period", func(p *domain.ReadPaystub, _ *domain.FileFacts, _ *domain.EmployerFacts) { p.PayDate = "2026-02-06" },
			[]string{domain.FraudImplausible}, "34 days after the end of its own pay period"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := cleanStub(1)
			f := domain.FileFacts{Producer: "fpdf", Creator: "fpdf", Created: made, Modified: made, Fonts: []string{"ABCDEF+Helvetica", "ABCDEF+Helvetica-Bold"}}
			e := domain.EmployerFacts{ByEIN: &acme, ByName: []domain.Employer{acme}}
			tc.edit(&p, &f, &e)
			got := domain.CheckDocument(domain.ParsedDocument{Paystub: &p}, f, e)
			if diff := cmp.Diff(tc.want, codes(got)); diff != "" {
				t.Fatalf("codes (-want +got):\n%s\n%v", diff, got)
			}
			if tc.phrase != "" && !strings.Contains(got[0].Message, tc.phrase) {
				t.Errorf("message %q does not say %q", got[0].Message, tc.phrase)
			}
			// Only the text layer differing from the page is evidence here;
			// every other check of one file is a doubt for a person.
			want := domain.FraudNotSuspected
			switch {
			case slices.Contains(tc.want, domain.FraudTextLayerMismatch):
				want = domain.FraudSuspected
			case len(tc.want) > 0:
				want = domain.FraudNeedsReview
			}
			if fraud := domain.FraudOf(true, got); fraud.Status != want {
				t.Errorf("fraud %+v, want status %s", fraud, want)
			}
		})
	}
	if got := domain.FraudOf(false, nil); got.Status != domain.FraudUnavailable {
		t.Errorf("nothing read: %+v, want unavailable", got)
	}
}

// TestCheckSeries triggers each check of a series, passes clean series of
// every frequency, and marks only new documents.
func TestCheckSeries(t *testing.T) {
	series := func(n int, edit func(i int, p *domain.ReadPaystub)) []domain.SeriesStub {
		out := make([]domain.SeriesStub, n)
		for i := range out {
			p := cleanStub(i + 1)
			if edit != nil {
				edit(i, &p)
			}
			out[i] = domain.SeriesStub{DocumentID: fmt.Sprintf("doc-%d", i+1), New: true, Stub: p}
		}
		return out
	}
	at := func(days ...string) func(i int, p *domain.ReadPaystub) {
		return func(i int, p *domain.ReadPaystub) { p.PayDate, p.PayPeriodStart, p.PayPeriodEnd = days[i], "", "" }
	}
	periods := func(dates ...[3]string) func(i int, p *domain.ReadPaystub) { // pay date, period start, period end
		return func(i int, p *domain.ReadPaystub) {
			p.PayDate, p.PayPeriodStart, p.PayPeriodEnd = dates[i][0], dates[i][1], dates[i][2]
		}
	}
	stored := func(n int, stubs []domain.SeriesStub) []domain.SeriesStub { // the first n were stored before
		for i := range n {
			stubs[i].New = false
		}
		return stubs
	}
	tests := []struct {
		name  string
		stubs []domain.SeriesStub
		want  map[string][]string
	}{
		{"clean biweekly", series(6, nil), map[string][]string{}},
		{"clean biweekly, one stub missing", slices.Delete(series(6, nil), 2, 3), map[string][]string{}},
		{"clean, holiday moves a pay date two days early", series(4, func(i int, p *domain.ReadPaystub) {
			if i == 2 {
				p.PayDate = "2026-02-04"
			}
		}), map[string][]string{}},
		{"clean weekly", series(4, at("2026-01-02", "2026-01-09", "2026-01-16", "2026-01-23")), map[string][]string{}},
		{"clean semimonthly (15th and last)", series(4, at("2026-01-15", "2026-01-30", "2026-02-13", "2026-02-27")), map[string][]string{}},
		{"clean monthly", series(3, at("2026-01-30", "2026-02-27", "2026-03-31")), map[string][]string{}},
		{"clean, two employers", append(series(3, nil), series(3, func(i int, p *domain.ReadPaystub) {
			p.EmployerName, p.EmployerEIN, p.PayDate = "Bolt Tools", "", fmt.Sprintf("2026-0%d-28", i+1)
			*p.GrossPayAmount, *p.GrossPayYTD = 100000, 100000*int64(i+1)
		})...), map[string][]string{}},
		{"year to date does not grow by the period", series(3, func(i int, p *domain.ReadPaystub) {
			if i == 2 {
				*p.GrossPayYTD = 500000
			}
		}), map[string][]string{"doc-3": {domain.FraudYTDNotCumulative}}},
		{"year to date altered in the middle", series(4, func(i int, p *domain.ReadPaystub) {
			if i == 1 {
				*p.GrossPayYTD = 900000
			}
		}), map[string][]string{"doc-2": {domain.FraudYTDNotCumulative}}},
		{"two stubs alone that do not add up: which is off cannot be told, a doubt of each", series(2, func(i int, p *domain.ReadPaystub) {
			if i == 1 {
				*p.GrossPayYTD = 300000
			}
		}), map[string][]string{"doc-1": {domain.FraudSeriesInconsistent}, "doc-2": {domain.FraudSeriesInconsistent}}},
		{"a year to date that rose by more than its period between consecutive pay dates", series(3, func(i int, p *domain.ReadPaystub) {
			if i >= 1 {
				*p.GrossPayYTD += 150000 // an off-cycle bonus, or an altered figure: a person tells
			}
		}), map[string][]string{"doc-1": {domain.FraudSeriesInconsistent}, "doc-2": {domain.FraudSeriesInconsistent}}},
		{"pay date off schedule", series(4, func(i int, p *domain.ReadPaystub) {
			if i == 3 {
				p.PayDate = "2026-02-26" // a Thursday a week early
			}
		}), map[string][]string{"doc-4": {domain.FraudPayDateOffSchedule}}},
		// Two pay dates suffice when the pay periods state the frequency.
		{"honest biweekly pair", series(2, nil), map[string][]string{}},
		{"honest biweekly pair, the period between missing", slices.Delete(series(3, nil), 1, 2), map[string][]string{}},
		{"honest semimonthly pair (15th and last, the 31st a Saturday paid the Friday before)", series(2, periods(
			[3]string{"2026-01-15", "2026-01-01", "2026-01-15"}, [3]string{"2026-01-30", "2026-01-16", "2026-01-31"})), map[string][]string{}},
		{"honest monthly pair", series(2, periods(
			[3]string{"2026-02-05", "2026-01-01", "2026-01-31"}, [3]string{"2026-03-05", "2026-02-01", "2026-02-28"})), map[string][]string{}},
		{"biweekly pair paid 9 days apart, the first stored", stored(1, series(2, func(i int, p *domain.ReadPaystub) {
			if i == 1 {
				p.PayDate = "2026-01-18" // its period ends 2026-01-17
			}
		})), map[string][]string{"doc-2": {domain.FraudPayDateOffSchedule}}},
		{"biweekly pair paid 9 days apart, both new: either may be off", series(2, func(i int, p *domain.ReadPaystub) {
			if i == 1 {
				p.PayDate = "2026-01-18"
			}
		}), map[string][]string{"doc-1": {domain.FraudPayDateOffSchedule}, "doc-2": {domain.FraudPayDateOffSchedule}}},
		{"weekly pair paid 9 days apart", series(2, periods(
			[3]string{"2026-01-09", "2026-01-03", "2026-01-09"}, [3]string{"2026-01-18", "2026-01-10", "2026-01-16"})),
			map[string][]string{"doc-1": {domain.FraudPayDateOffSchedule}, "doc-2": {domain.FraudPayDateOffSchedule}}},
		{"pair without a stated frequency is not judged", series(2, at("2026-01-09", "2026-01-18")), map[string][]string{}},
		// A pay date against its own period is a doubt of one stub
		// (checkPlausible, TestCheckDocument), never a series' evidence.
		{"pay date before its own period ends", series(1, func(i int, p *domain.ReadPaystub) {
			p.PayPeriodEnd = "2026-01-14" // paid 2026-01-09
		}), map[string][]string{}},
		{"pay date 3 days before its period ends (a holiday)", series(1, func(i int, p *domain.ReadPaystub) {
			p.PayPeriodEnd = "2026-01-12"
		}), map[string][]string{}},
		{"pay date 16 days after its period ends", series(1, func(i int, p *domain.ReadPaystub) {
			p.PayPeriodStart, p.PayPeriodEnd = "2025-12-11", "2025-12-24"
		}), map[string][]string{}},
		{"an off-cycle bonus check off the schedule", series(4, func(i int, p *domain.ReadPaystub) {
			if i == 3 {
				p.PayDate = "2026-02-26"
				p.Earnings = []domain.PayLine{{Name: "Annual Bonus", Category: "bonus", Amount: domain.USD(200000)}}
			}
		}), map[string][]string{}},
		{"a middle stub's year to date raised, the next then short of its period: the middle one alone", series(3, func(i int, p *domain.ReadPaystub) {
			if i == 1 {
				*p.GrossPayYTD += 215000
				*p.NetPayYTD += 215000
			}
		}), map[string][]string{"doc-2": {domain.FraudYTDNotCumulative}}},
		{"the year to date copied from the stub before, the period retyped", series(2, func(i int, p *domain.ReadPaystub) {
			if i == 1 {
				*p.GrossPayAmount, *p.NetPayAmount = 250000, 200000
				*p.GrossPayYTD, *p.NetPayYTD = 200000, 160000
			}
		}), map[string][]string{"doc-1": {domain.FraudSeriesInconsistent}, "doc-2": {domain.FraudSeriesInconsistent, domain.FraudFiguresReused}}},
		{"a stub that pays nothing keeps the year to date", series(2, func(i int, p *domain.ReadPaystub) {
			if i == 1 {
				*p.GrossPayAmount, *p.NetPayAmount, *p.TotalTaxes, *p.TotalDeductions = 0, 0, 0, 0
				*p.GrossPayYTD, *p.NetPayYTD = 200000, 160000
			}
		}), map[string][]string{}},
		{"figures reused under another date", append(series(2, nil), domain.SeriesStub{DocumentID: "doc-x", New: true,
			Stub: func() domain.ReadPaystub { p := cleanStub(2); p.PayDate = "2026-03-06"; return p }()}),
			map[string][]string{"doc-x": {domain.FraudYTDNotCumulative, domain.FraudFiguresReused}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := map[string][]string{}
			for id, rs := range domain.CheckSeries(tc.stubs) {
				got[id] = codes(rs)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("codes by document (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("stored documents are never marked", func(t *testing.T) {
		stubs := series(3, func(i int, p *domain.ReadPaystub) {
			if i == 2 {
				*p.GrossPayYTD = 500000
			}
		})
		stubs[0].New, stubs[1].New = false, false
		got := domain.CheckSeries(stubs)
		if _, ok := got["doc-2"]; ok || len(got["doc-3"]) == 0 {
			t.Errorf("marked %v, want doc-3 only", got)
		}
		if msg := got["doc-3"][0].Message; !strings.Contains(msg, "goes from $4,000.00 on 2026-01-23 to $5,000.00 on 2026-02-06, a rise of $1,000.00, less than that period's gross pay of $2,000.00") {
			t.Errorf("message %q", msg)
		}
	})
}

// TestCompensationOf: an hourly stub's rate is read from its base line; a
// salaried stub's base pay is its rate per period when the periods state
// how often; a stub with neither gives none.
func TestCompensationOf(t *testing.T) {
	rate := domain.USD(2550)
	hours := 80.0
	hourly := domain.Paystub{PayDate: "2026-03-13", Earnings: []domain.PayLine{
		{Name: "Regular", Category: "hourly", Amount: domain.USD(204000), Hours: &hours, Rate: &rate},
		{Name: "Overtime", Category: "overtime", Amount: domain.USD(38250)}}}
	salaried := domain.Paystub{PayDate: "2026-03-13", Earnings: []domain.PayLine{
		{Name: "Salary", Category: "salary", Amount: domain.USD(307692)}, {Name: "Bonus", Category: "bonus", Amount: domain.USD(50000)}}}
	for _, c := range []struct {
		name      string
		p         domain.Paystub
		frequency string
		want      *domain.Compensation
	}{
		{"hourly", hourly, domain.FrequencyBiweekly, &domain.Compensation{Amount: 2550, Unit: "hourly"}},
		{"hourly, frequency unknown", hourly, "", &domain.Compensation{Amount: 2550, Unit: "hourly"}},
		{"salaried", salaried, domain.FrequencyBiweekly, &domain.Compensation{Amount: 307692, Unit: "bi-weekly"}},
		{"salaried, frequency unknown", salaried, "", nil},
		{"no base pay", domain.Paystub{Earnings: []domain.PayLine{{Category: "bonus", Amount: domain.USD(100)}}}, domain.FrequencyMonthly, nil},
	} {
		got := domain.CompensationOf(c.p, c.frequency)
		if (got == nil) != (c.want == nil) || got != nil && (got.Amount != c.want.Amount || got.Unit != c.want.Unit || got.Basis == "") {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

package domain_test

import (
	"testing"
	"time"

	"payline/domain"
)

func day(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t
}

// TestFederalHolidays checks the computed holidays against the days OPM
// lists as observed, the weekend rules included: a Saturday holiday is
// observed the Friday before (New Year's Day 2022 on December 31, 2021;
// Independence Day 2026 on July 3), a Sunday one the Monday after
// (Juneteenth 2022, New Year's Day 2023).
func TestFederalHolidays(t *testing.T) {
	tests := []struct {
		name, day, want string
	}{
		{"New Year's Day of the next year observed on a Friday", "2021-12-31", "New Year's Day"},
		{"New Year's Day on a Sunday, observed Monday", "2023-01-02", "New Year's Day"},
		{"New Year's Day on a Sunday is not its own observance", "2023-01-01", ""},
		{"MLK Day, third Monday of January", "2026-01-19", "Birthday of Martin Luther King, Jr."},
		{"Washington's Birthday, third Monday of February", "2026-02-16", "Washington's Birthday"},
		{"Memorial Day, last Monday of May", "2026-05-25", "Memorial Day"},
		{"Memorial Day in a May with five Mondays", "2027-05-31", "Memorial Day"},
		{"Juneteenth on a Friday", "2026-06-19", "Juneteenth National Independence Day"},
		{"Juneteenth on a Sunday, observed Monday", "2022-06-20", "Juneteenth National Independence Day"},
		{"no Juneteenth before 2021", "2020-06-19", ""},
		{"Independence Day on a Saturday, observed Friday", "2026-07-03", "Independence Day"},
		{"Independence Day's Saturday itself", "2026-07-04", ""},
		{"Labor Day, first Monday of September", "2026-09-07", "Labor Day"},
		{"Columbus Day, second Monday of October", "2026-10-12", "Columbus Day"},
		{"Veterans Day on a Wednesday", "2026-11-11", "Veterans Day"},
		{"Veterans Day on a Saturday, observed Friday", "2023-11-10", "Veterans Day"},
		{"Thanksgiving, fourth Thursday of November", "2026-11-26", "Thanksgiving Day"},
		{"Thanksgiving when November starts on a Thursday", "2029-11-22", "Thanksgiving Day"},
		{"Christmas on a Friday", "2026-12-25", "Christmas Day"},
		{"Christmas on a Sunday, observed Monday", "2022-12-26", "Christmas Day"},
		{"an ordinary Tuesday", "2026-03-03", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := domain.HolidayOn(day(tt.day).Add(13 * time.Hour)); got != tt.want {
				t.Errorf("HolidayOn(%s) = %q, want %q", tt.day, got, tt.want)
			}
		})
	}
	for year := 2021; year <= 2040; year++ {
		if n := len(domain.FederalHolidays(year)); n != 11 {
			t.Errorf("%d has %d federal holidays, want 11", year, n)
		}
	}
}

// TestAddBusinessDays counts 5 business days (the furnisher notice's
// clock) across a weekend, a month end, a holiday and an observed one.
func TestAddBusinessDays(t *testing.T) {
	tests := []struct {
		name, from string
		n          int
		want       string
	}{
		{"Friday across a weekend", "2026-03-06", 5, "2026-03-13"},
		{"received on a Saturday", "2026-03-07", 5, "2026-03-13"},
		{"across a month end", "2026-04-30", 5, "2026-05-07"},
		{"across a month end and a weekend", "2026-01-30", 5, "2026-02-06"},
		{"across Thanksgiving", "2026-11-25", 5, "2026-12-03"},
		{"across Independence Day observed on Friday July 3", "2026-07-01", 5, "2026-07-09"},
		{"across Washington's Birthday", "2026-02-13", 5, "2026-02-23"},
		{"New Year's Day observed on December 31 and a weekend", "2021-12-30", 1, "2022-01-03"},
		{"across Christmas and New Year's Day into a new year", "2026-12-24", 5, "2027-01-04"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			from := day(tt.from).Add(15*time.Hour + 4*time.Minute)
			got := domain.AddBusinessDays(from, tt.n)
			if want := day(tt.want).Add(15*time.Hour + 4*time.Minute); !got.Equal(want) {
				t.Errorf("AddBusinessDays(%s, %d) = %s, want %s", tt.from, tt.n, got, want)
			}
		})
	}
}

// TestDisputeStatusMoves checks every pair of statuses against the state
// machine open → investigating → resolved.
func TestDisputeStatusMoves(t *testing.T) {
	all := []domain.DisputeStatus{domain.DisputeOpen, domain.DisputeInvestigating, domain.DisputeResolved}
	allowed := map[[2]domain.DisputeStatus]bool{
		{domain.DisputeOpen, domain.DisputeInvestigating}:     true,
		{domain.DisputeInvestigating, domain.DisputeResolved}: true,
	}
	for _, from := range all {
		for _, to := range all {
			if got := from.CanMoveTo(to); got != allowed[[2]domain.DisputeStatus{from, to}] {
				t.Errorf("%s → %s allowed = %v", from, to, got)
			}
		}
	}
}

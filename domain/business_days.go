package domain

import "time"

// Business days for the law's clocks (docs/disputes.md): a day that is
// neither a Saturday, a Sunday nor a US federal holiday as observed. The
// holidays are computed by the rules of 5 U.S.C. 6103, not listed, so no
// year runs out: a fixed-date holiday that falls on a Saturday is
// observed the Friday before, one on a Sunday the Monday after. Days are
// counted on the UTC calendar, the calendar of every timestamp the API
// shows.

// FederalHoliday is one holiday of a year: its name and the day it is
// observed (the day offices close), and the day it falls on when that
// differs.
type FederalHoliday struct {
	Name     string
	Observed time.Time
	Actual   time.Time
}

// FederalHolidays computes a year's eleven federal holidays in the
// calendar's order, each with the day it is observed. Juneteenth counts
// from 2021, the year it became one.
func FederalHolidays(year int) []FederalHoliday {
	fixed := func(name string, m time.Month, d int) FederalHoliday {
		day := civilDay(year, m, d)
		return FederalHoliday{Name: name, Actual: day, Observed: observed(day)}
	}
	nth := func(name string, m time.Month, wd time.Weekday, n int) FederalHoliday {
		day := nthWeekday(year, m, wd, n)
		return FederalHoliday{Name: name, Actual: day, Observed: day}
	}
	out := []FederalHoliday{
		fixed("New Year's Day", time.January, 1),
		nth("Birthday of Martin Luther King, Jr.", time.January, time.Monday, 3),
		nth("Washington's Birthday", time.February, time.Monday, 3),
		nth("Memorial Day", time.May, time.Monday, -1),
	}
	if year >= 2021 {
		out = append(out, fixed("Juneteenth National Independence Day", time.June, 19))
	}
	return append(out,
		fixed("Independence Day", time.July, 4),
		nth("Labor Day", time.September, time.Monday, 1),
		nth("Columbus Day", time.October, time.Monday, 2),
		fixed("Veterans Day", time.November, 11),
		nth("Thanksgiving Day", time.November, time.Thursday, 4),
		fixed("Christmas Day", time.December, 25),
	)
}

// civilDay is midnight UTC of a calendar day.
func civilDay(year int, m time.Month, d int) time.Time {
	return time.Date(year, m, d, 0, 0, 0, 0, time.UTC)
}

// observed moves a fixed-date holiday off the weekend: Saturday's to the
// Friday before, Sunday's to the Monday after.
func observed(day time.Time) time.Time {
	switch day.Weekday() {
	case time.Saturday:
		return day.AddDate(0, 0, -1)
	case time.Sunday:
		return day.AddDate(0, 0, 1)
	}
	return day
}

// nthWeekday is the n-th weekday wd of a month (n from 1), or its last
// when n is -1.
func nthWeekday(year int, m time.Month, wd time.Weekday, n int) time.Time {
	if n < 0 {
		last := civilDay(year, m+1, 0)
		return last.AddDate(0, 0, -((int(last.Weekday()) - int(wd) + 7) % 7))
	}
	first := civilDay(year, m, 1)
	return first.AddDate(0, 0, (int(wd)-int(first.Weekday())+7)%7+7*(n-1))
}

// HolidayOn names the federal holiday observed on t's UTC calendar day,
// or "" when none is. New Year's Day of the next year can be observed on
// December 31.
func HolidayOn(t time.Time) string {
	day := civilDay(t.UTC().Date())
	for _, year := range []int{day.Year(), day.Year() + 1} {
		for _, h := range FederalHolidays(year) {
			if h.Observed.Equal(day) {
				return h.Name
			}
		}
	}
	return ""
}

// IsBusinessDay says whether t's UTC calendar day is a business day:
// Monday to Friday and no federal holiday observed on it.
func IsBusinessDay(t time.Time) bool {
	switch t.UTC().Weekday() {
	case time.Saturday, time.Sunday:
		return false
	}
	return HolidayOn(t) == ""
}

// AddBusinessDays is the time n business days after t, at t's time of
// day: the day t falls on does not count (received on a Friday, one
// business day later is the Monday, or the Tuesday when Monday is a
// holiday).
func AddBusinessDays(t time.Time, n int) time.Time {
	t = t.UTC()
	for n > 0 {
		t = t.AddDate(0, 0, 1)
		if IsBusinessDay(t) {
			n--
		}
	}
	return t
}

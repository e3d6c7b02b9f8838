package reports

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"payline/domain"
)

// perYear is how many times a pay unit comes in a year.
var perYear = map[string]int64{"annually": 1, "yearly": 1, "monthly": 12, "semi-monthly": 24, "semimonthly": 24,
	"bi-weekly": 26, "biweekly": 26, "weekly": 52, "daily": 260}

// dated is a paystub with its pay date parsed.
type dated struct {
	at time.Time
	p  domain.Paystub
}

// datedStubs returns the stubs whose pay date parses, oldest first.
func datedStubs(stubs []domain.Paystub) []dated {
	var out []dated
	for _, p := range newestFirst(stubs) {
		if t, err := p.PayDate.Parse(); err == nil {
			out = append([]dated{{t, p}}, out...)
		}
	}
	return out
}

// halfUp divides n by d (d > 0), rounding half up.
func halfUp(n, d int64) int64 {
	if n < 0 {
		return -halfUp(-n, d)
	}
	return (2*n + d) / (2 * d)
}

// project fills the average weekly hours the last twelve months of
// paystubs report (all of them, and the regular ones) and, for a current
// employment, the projected income by type with each figure's basis, and
// the trends of its variable income.
func project(in *domain.ReportIncome, s Source, ended bool, built time.Time) {
	stubs := datedStubs(s.Paystubs)
	regular, span := averageHours(in, stubs, built)
	if ended {
		return
	}
	in.Trends = trends(stubs, in.PayFrequency, built)
	base, baseBasis, ok := projectBase(in, regular, span)
	if !ok {
		return
	}
	pi := &domain.ProjectedIncome{Base: base}
	pi.Basis.Base = baseBasis
	pi.Overtime, pi.Basis.Overtime = annualized(stubs, domain.EarningOvertime, in.PayFrequency, built)
	pi.Bonus, pi.Basis.Bonus = annualized(stubs, domain.EarningBonus, in.PayFrequency, built)
	pi.Commission, pi.Basis.Commission = annualized(stubs, domain.EarningCommission, in.PayFrequency, built)
	pi.Total = pi.Base + pi.Overtime + pi.Bonus + pi.Commission
	pi.Basis.Total = "base + overtime + bonus + commission"
	in.ProjectedIncome = pi
	total := pi.Total
	in.ProjectedAnnualIncome = &total
	in.ProjectionBasis = fmt.Sprintf("%s base (%s) + %s overtime + %s bonus + %s commission", usd(pi.Base), baseBasis,
		usd(pi.Overtime), usd(pi.Bonus), usd(pi.Commission))
	if one, ok := annualizedFromOne(in, s, built); ok {
		in.ProjectionBasis += fmt.Sprintf("; annualized from a single paystub, dated %s", longDate(one.at))
	}
}

// annualizedFromOne is the one paystub a current employment's projection
// rests on, when it rests on one: the only paystub of the last 24 months,
// whose rate (read from an upload), hours (an hourly rate) or variable
// pay the projection multiplies up to a year. A salary the payroll
// platform reports is no paystub's.
func annualizedFromOne(in *domain.ReportIncome, s Source, built time.Time) (dated, bool) {
	p := in.ProjectedIncome
	if p == nil {
		return dated{}, false
	}
	var recent []dated
	for _, d := range datedStubs(s.Paystubs) {
		if d.at.After(built.AddDate(-2, 0, 0)) && !d.at.After(built) {
			recent = append(recent, d)
		}
	}
	fromStub := s.DocumentIDs != nil || strings.EqualFold(in.CompensationUnit, "hourly") || p.Overtime+p.Bonus+p.Commission != 0
	if len(recent) != 1 || !fromStub {
		return dated{}, false
	}
	return recent[0], true
}

func usd(cents int64) string { return domain.USD(cents).Formatted() }

// averageHours fills the hours per week the last twelve months of
// paystubs report, all and regular, and returns the regular average (nil
// when no paystub reports regular hours) with the span of paystubs it
// averages over, in words (spanWords). The weeks are counted exactly,
// from the days the stubs' pay periods cover (coveredDays), and said as
// they are: "364 days (52 weeks)", "361 days (51.6 weeks)", never a
// fraction rounded to pass for whole weeks. Without pay periods or a
// pay frequency to count them by, there is no weekly average, and the
// basis says so.
func averageHours(in *domain.ReportIncome, stubs []dated, built time.Time) (*float64, string) {
	from := built.AddDate(-1, 0, 0)
	var hours, regular float64
	var first, last time.Time
	var withHours []dated
	for _, d := range stubs {
		if d.at.Before(from) || d.at.After(built) {
			continue
		}
		e := domain.EarningsOf(d.p)
		counted := false
		for _, l := range d.p.Earnings {
			if l.Hours != nil {
				hours += *l.Hours
				counted = true
			}
		}
		if e.RegularHours != nil {
			regular += *e.RegularHours
		}
		if counted {
			if first.IsZero() {
				first = d.at
			}
			last = d.at
			withHours = append(withHours, d)
		}
	}
	if hours <= 0 {
		return nil, ""
	}
	days, ok := coveredDays(withHours, in.PayFrequency)
	if !ok {
		in.HoursBasis = fmt.Sprintf("%.1f hours on %s paid %s to %s; their pay periods were not read and their pay frequency is unknown, "+
			"so the weeks they cover, and a weekly average, are unknown", hours, plural(len(withHours), "paystub"),
			first.Format("Jan 2, 2006"), last.Format("Jan 2, 2006"))
		return nil, ""
	}
	avg := math.Round(hours*7/days*10) / 10
	in.AverageWeeklyHours = &avg
	span := spanWords(days)
	in.HoursBasis = fmt.Sprintf("%.1f hours over %s of paystubs, %s to %s", hours, span,
		first.Format("Jan 2, 2006"), last.Format("Jan 2, 2006"))
	if regular <= 0 {
		return nil, ""
	}
	reg := math.Round(regular*7/days*10) / 10
	in.AverageWeeklyRegularHours = &reg
	in.HoursBasis += fmt.Sprintf("; %.1f of them regular hours (%.1f a week), the rest overtime", regular, reg)
	return &reg, span
}

// coveredDays is how many days the stubs' pay periods cover, from the
// first period's start to the last period's end, when every stub's
// period was read (it ends after it starts); otherwise from the pay date
// of the first to the last, plus one period of the pay frequency (the
// period the first pays for). false when neither can be counted.
func coveredDays(stubs []dated, frequency string) (float64, bool) {
	if len(stubs) == 0 {
		return 0, false
	}
	start, end := stubs[0].p.PayPeriodStart, stubs[0].p.PayPeriodEnd
	read := true
	for _, d := range stubs {
		s, e := d.p.PayPeriodStart, d.p.PayPeriodEnd
		if !s.Valid() || !e.Valid() || e <= s {
			read = false
			break
		}
		start, end = min(start, s), max(end, e)
	}
	if read {
		return float64(daysBetween(start.Time(), end.Time()) + 1), true
	}
	if _, known := perYear[strings.ToLower(frequency)]; !known {
		return 0, false
	}
	return float64(daysBetween(stubs[0].at, stubs[len(stubs)-1].at)) + periodDays(frequency), true
}

// daysBetween counts the calendar days from a to b.
func daysBetween(a, b time.Time) int {
	return int(b.Sub(a).Round(24*time.Hour) / (24 * time.Hour))
}

// spanWords says the weeks a count of days makes: "52 weeks" when they
// are whole, else with their days and a decimal ("361 days (51.6
// weeks)"): never a fraction rounded to pass for whole weeks.
func spanWords(days float64) string {
	weeks := strconv.FormatFloat(days/7, 'f', 1, 64) + " weeks"
	switch {
	case math.Mod(days, 7) == 0:
		return strconv.FormatFloat(days/7, 'f', 0, 64) + " weeks"
	case days == math.Trunc(days):
		return fmt.Sprintf("%.0f days (%s)", days, weeks)
	}
	return weeks
}

// projectBase is a year's base pay: an hourly rate times the average
// regular hours a week times 52, an annual salary itself, or a rate per
// period times the periods in a year; false when there is no rate, or an
// hourly one without hours. span is what the average was taken over, in
// the words the hours' basis uses, so the two say the same weeks.
func projectBase(in *domain.ReportIncome, regular *float64, span string) (int64, string, bool) {
	if in.CompensationAmount <= 0 {
		return 0, "", false
	}
	unit := strings.ToLower(in.CompensationUnit)
	if n, ok := perYear[unit]; ok {
		if n == 1 {
			return in.CompensationAmount, "the annual salary the payroll platform reports", true
		}
		return in.CompensationAmount * n, fmt.Sprintf("%s %s × %d", usd(in.CompensationAmount), unit, n), true
	}
	if unit != "hourly" || regular == nil {
		return 0, "", false
	}
	// Cents × tenths of hours × 52, so the product stays whole until
	// the one division, rounded half up.
	tenths := int64(math.Round(*regular * 10))
	return halfUp(in.CompensationAmount*tenths*52, 10),
		fmt.Sprintf("%s an hour × %.1f average regular hours a week over %s of paystubs × 52",
			usd(in.CompensationAmount), *regular, span), true
}

// periodDays is how many days one pay period spans.
func periodDays(frequency string) float64 { return periodWeeks(frequency) * 7 }

// covers reports whether the stubs reach back to from: the first pay date
// falls within a pay period of it.
func covers(stubs []dated, from time.Time, frequency string) bool {
	if len(stubs) == 0 {
		return false
	}
	slack := time.Duration(periodDays(frequency)*24) * time.Hour
	return !stubs[0].at.After(from.Add(slack))
}

// sumOf totals one type of earnings of the stubs paid in (from, to].
func sumOf(stubs []dated, typ string, from, to time.Time) int64 {
	var sum int64
	for _, d := range stubs {
		if !d.at.After(from) || d.at.After(to) {
			continue
		}
		for _, l := range d.p.Earnings {
			if l.EarningType() == typ {
				sum += l.Amount.Amount
			}
		}
	}
	return sum
}

// annualized is one type of variable income over a year: the last 24
// months' amount halved, or, when the paystubs cover less, the amount of
// the whole history times 365 over the days it covers; with its basis.
func annualized(stubs []dated, typ, frequency string, built time.Time) (int64, string) {
	from := built.AddDate(-2, 0, 0)
	sum := sumOf(stubs, typ, from, built)
	if sum == 0 {
		return 0, fmt.Sprintf("no %s in the last 24 months of paystubs", typ)
	}
	if covers(stubs, from, frequency) {
		return halfUp(sum, 2), fmt.Sprintf("%s %s paid in the 24 months to %s, ÷ 2", usd(sum), typ, built.Format("Jan 2, 2006"))
	}
	var first, last time.Time
	for _, d := range stubs {
		if d.at.After(from) && !d.at.After(built) {
			if first.IsZero() {
				first = d.at
			}
			last = d.at
		}
	}
	days := int64(math.Round(last.Sub(first).Hours()/24 + periodDays(frequency)))
	return halfUp(sum*365, days), fmt.Sprintf("%s %s paid over the whole history, %d days of paystubs from %s (less than 24 months), × 365 ÷ %d",
		usd(sum), typ, days, first.Format("Jan 2, 2006"), days)
}

// trends compares each kind of variable income over the last twelve
// months with the twelve before.
func trends(stubs []dated, frequency string, built time.Time) *domain.IncomeTrends {
	mid, from := built.AddDate(-1, 0, 0), built.AddDate(-2, 0, 0)
	covered := covers(stubs, from, frequency)
	one := func(typ string) domain.IncomeTrend {
		t := domain.IncomeTrend{Last12Months: sumOf(stubs, typ, mid, built), Prior12Months: sumOf(stubs, typ, from, mid)}
		last, prior := t.Last12Months, t.Prior12Months
		switch {
		case !covered:
			t.Trend = domain.TrendUnknown
		case last == 0 && prior == 0:
			t.Trend = domain.TrendNone
		case prior == 0:
			t.Trend = domain.TrendIncreasing
		default:
			pct := halfUp((last-prior)*100, prior)
			t.ChangePercent = &pct
			switch diff := last - prior; {
			case diff*100 > 5*prior:
				t.Trend = domain.TrendIncreasing
			case -diff*100 > 5*prior:
				t.Trend = domain.TrendDeclining
			default:
				t.Trend = domain.TrendStable
			}
		}
		return t
	}
	return &domain.IncomeTrends{Overtime: one(domain.EarningOvertime), Bonus: one(domain.EarningBonus),
		Commission: one(domain.EarningCommission)}
}

// periodWeeks is how many weeks one pay period spans.
func periodWeeks(frequency string) float64 {
	switch strings.ToLower(frequency) {
	case "weekly":
		return 1
	case "bi-weekly", "biweekly":
		return 2
	case "semi-monthly", "semimonthly":
		return 52.0 / 24
	case "monthly":
		return 52.0 / 12
	}
	return 1
}

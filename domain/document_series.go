package domain

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// SeriesStub is one of an end user's paystubs in the series checks: its
// document id, whether it is being uploaded now (only those are marked),
// and what was read from it.
type SeriesStub struct {
	DocumentID string
	New        bool
	Stub       ReadPaystub
	// Doubted is a stored stub whose figures do not count (suspected, or
	// awaiting or refused by a reviewer): CheckVersions reads it,
	// CheckSeries does not.
	Doubted bool
}

// CheckSeries runs the checks that read an end user's paystubs together:
// year to date growing by each period (per employer and year), pay dates
// on one schedule (per employer) and one stub's figures reused under
// another date (any employer). It returns the reasons of each new
// document that failed, by document id; stored documents are context
// only and are never marked again.
func CheckSeries(stubs []SeriesStub) map[string][]FraudReason {
	stubs = slices.DeleteFunc(slices.Clone(stubs), func(s SeriesStub) bool { return s.Doubted })
	out := map[string][]FraudReason{}
	mark := func(s SeriesStub, code, format string, args ...any) {
		if s.New {
			out[s.DocumentID] = append(out[s.DocumentID], FraudReason{Code: code, Message: fmt.Sprintf(format, args...)})
		}
	}
	for _, group := range ByEmployer(stubs) {
		checkCumulative(group, mark)
		checkSchedule(group, mark)
	}
	checkReuse(stubs, mark)
	return out
}

type markFunc func(s SeriesStub, code, format string, args ...any)

// ByEmployer groups stubs with a pay date by employer (EmployerKey; a
// stub without an EIN joins the EIN group of a stub with its name), each
// group ordered by pay date, groups in order of first appearance.
func ByEmployer(stubs []SeriesStub) [][]SeriesStub {
	einOfName := map[string]string{}
	for _, s := range stubs {
		if ein := NormalizeEIN(s.Stub.EmployerEIN); ein != "" {
			einOfName[NormalizeEmployerName(s.Stub.EmployerName)] = ein
		}
	}
	var keys []string
	groups := map[string][]SeriesStub{}
	for _, s := range stubs {
		if _, err := Date(s.Stub.PayDate).Parse(); err != nil {
			continue
		}
		key := EmployerKey(s.Stub.EmployerName, s.Stub.EmployerEIN)
		if ein, ok := einOfName[NormalizeEmployerName(s.Stub.EmployerName)]; ok && strings.HasPrefix(key, "name:") {
			key = "ein:" + ein
		}
		if _, ok := groups[key]; !ok {
			keys = append(keys, key)
		}
		groups[key] = append(groups[key], s)
	}
	out := make([][]SeriesStub, 0, len(keys))
	for _, k := range keys {
		g := groups[k]
		slices.SortStableFunc(g, func(a, b SeriesStub) int {
			return cmp.Or(strings.Compare(a.Stub.PayDate, b.Stub.PayDate), cmp.Compare(deref(a.Stub.GrossPayYTD), deref(b.Stub.GrossPayYTD)))
		})
		out = append(out, g)
	}
	return out
}

func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// checkCumulative: within a year, each stub's year to date is the one
// before's plus at least its own period (more when stubs in between were
// not uploaded). Of a pair that fails, the stub blamed is the one whose
// removal heals the series (its neighbours then add up) unless its other
// neighbour confirms it (their year to date rises by exactly its period):
// an altered stub in the middle, or at either end, is blamed alone
// (YTD_NOT_CUMULATIVE, evidence); of two stubs alone, or when nothing
// tells them apart, both get a doubt (SERIES_INCONSISTENT).
func checkCumulative(group []SeriesStub, mark markFunc) {
	stated := statedFrequency(group)
	// clean: stubs a and b add up as neighbours (either missing counts as
	// clean): b's year to date rose by at least its period, and not by
	// more when their pay dates are consecutive.
	clean := func(a, b int) bool {
		if a < 0 || b >= len(group) {
			return true
		}
		return len(cumulativeProblems(group[a], group[b])) == 0 && risesTooMuch(group[a], group[b], stated) == ""
	}
	// heals: without stub j the series around it adds up. An end stub's
	// removal leaves the pair beside it, which must then be clean: a
	// series whose middle stub rose too much and whose last then fell
	// short is healed by the middle one's removal alone.
	heals := func(j, other int) bool {
		if other >= 0 && other < len(group) && exactlyFollows(group, min(j, other), max(j, other)) {
			return false
		}
		switch j {
		case 0:
			return clean(1, 2)
		case len(group) - 1:
			return clean(j-2, j-1)
		}
		return clean(j-1, j+1)
	}
	blamedAny := map[int]bool{}
	defer func() {
		// Consecutive pay dates, no stub between, and the year to date rose
		// by more than the period: an off-cycle payment between them, or an
		// altered figure. Unless one of the two is blamed already, a person
		// tells.
		for i := 1; i < len(group); i++ {
			if m := risesTooMuch(group[i-1], group[i], stated); m != "" && !blamedAny[i-1] && !blamedAny[i] {
				mark(group[i-1], FraudSeriesInconsistent, "%s", m)
				mark(group[i], FraudSeriesInconsistent, "%s", m)
			}
		}
	}()
	for i := 1; i < len(group); i++ {
		msgs := cumulativeProblems(group[i-1], group[i])
		if len(msgs) == 0 {
			continue
		}
		blamed := []int{}
		if heals(i-1, i-2) {
			blamed = append(blamed, i-1)
		}
		if heals(i, i+1) {
			blamed = append(blamed, i)
		}
		if len(blamed) == 0 {
			blamed = []int{i - 1, i}
		}
		// A stored stub that counts was judged when it came (and a series
		// that broke then left it in doubt, not counted): of the stubs to
		// blame, the new ones are. One stub to blame is evidence; when the
		// series cannot say which of two new ones is off, each is a doubt
		// for a person, never an accusation of both.
		if slices.ContainsFunc(blamed, func(j int) bool { return group[j].New }) {
			blamed = slices.DeleteFunc(blamed, func(j int) bool { return !group[j].New })
		}
		code := FraudYTDNotCumulative
		if len(blamed) != 1 {
			code = FraudSeriesInconsistent
		}
		for _, j := range blamed {
			blamedAny[j] = true
			for _, m := range msgs {
				mark(group[j], code, "%s", m)
			}
		}
	}
}

// risesTooMuch says how cur's gross year to date rose by more than its
// period although cur's pay date is the one after prev's on the schedule
// the stubs' periods state ("" when it did not, or they say none).
func risesTooMuch(prev, cur SeriesStub, freq string) string {
	p, q := prev.Stub, cur.Stub
	if freq == "" || p.GrossPayYTD == nil || q.GrossPayYTD == nil || q.GrossPayAmount == nil || p.PayDate[:4] != q.PayDate[:4] {
		return ""
	}
	a, err1 := Date(p.PayDate).Parse()
	b, err2 := Date(q.PayDate).Parse()
	if err1 != nil || err2 != nil {
		return ""
	}
	days := int(b.Sub(a).Hours() / 24)
	next := map[string][2]int{FrequencyWeekly: {5, 9}, FrequencyBiweekly: {11, 17}, FrequencySemimonthly: {12, 19}, FrequencyMonthly: {26, 34}}[freq]
	rise := *q.GrossPayYTD - *p.GrossPayYTD
	if days < next[0] || days > next[1] || rise <= *q.GrossPayAmount+arithmeticTolerance {
		return ""
	}
	return fmt.Sprintf("the year-to-date gross pay rose by %s from %s to %s, more than that period's gross pay of %s, though no %s pay date falls between them",
		dollars(rise), p.PayDate, q.PayDate, dollars(*q.GrossPayAmount), freq)
}

// exactlyFollows reports whether stub b's gross year to date is stub a's
// plus b's gross pay, to the cent: consecutive stubs that confirm each
// other.
func exactlyFollows(group []SeriesStub, a, b int) bool {
	p, q := group[a].Stub, group[b].Stub
	if p.GrossPayYTD == nil || q.GrossPayYTD == nil || q.GrossPayAmount == nil || p.PayDate[:4] != q.PayDate[:4] {
		return false
	}
	return !offBy(*q.GrossPayYTD-*p.GrossPayYTD, *q.GrossPayAmount)
}

// cumulativeProblems says how cur's year to date fails to follow prev's;
// none when they add up or are not comparable (other years, one date).
func cumulativeProblems(prev, cur SeriesStub) []string {
	if prev.Stub.PayDate[:4] != cur.Stub.PayDate[:4] || prev.Stub.PayDate == cur.Stub.PayDate {
		return nil
	}
	var out []string
	for _, c := range []struct {
		what               string
		period, ytd, prevY *int64
	}{{"gross pay", cur.Stub.GrossPayAmount, cur.Stub.GrossPayYTD, prev.Stub.GrossPayYTD},
		{"net pay", cur.Stub.NetPayAmount, cur.Stub.NetPayYTD, prev.Stub.NetPayYTD}} {
		if c.period == nil || c.ytd == nil || c.prevY == nil {
			continue
		}
		if rise := *c.ytd - *c.prevY; rise < *c.period-arithmeticTolerance {
			out = append(out, fmt.Sprintf("the year-to-date %s goes from %s on %s to %s on %s, a rise of %s, less than that period's %s of %s",
				c.what, dollars(*c.prevY), prev.Stub.PayDate, dollars(*c.ytd), cur.Stub.PayDate, dollars(rise), c.what, dollars(*c.period)))
		}
	}
	return out
}

// checkReuse: two stubs with the same gross, net and year-to-date figures
// and different pay dates. Amounts repeat for a salaried employee, but
// the year to date cannot: only a copied stub has another's. Of the two,
// the one whose year to date follows its neighbour's exactly (by its own
// period) is the original; when neither or both do, the later is the
// copy (its year to date is the impossible one). The copy is marked
// FIGURES_REUSED; an original no neighbour confirms gets a doubt. So is
// a stub of the same year that prints another's gross and net year to
// date, both to the cent, while it pays a period of its own: its figures
// were retyped over a copy, the year to date left standing still.
func checkReuse(stubs []SeriesStub, mark markFunc) {
	confirmed := map[string]bool{}
	for _, g := range ByEmployer(stubs) {
		for i := 1; i < len(g); i++ {
			if exactlyFollows(g, i-1, i) {
				confirmed[g[i-1].DocumentID], confirmed[g[i].DocumentID] = true, true
			}
		}
	}
	same := func(a, b *int64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
	for i, a := range stubs {
		for _, b := range stubs[i+1:] {
			p, q := a.Stub, b.Stub
			if p.GrossPayAmount == nil || p.NetPayAmount == nil || (p.GrossPayYTD == nil && p.NetPayYTD == nil) || p.PayDate == q.PayDate {
				continue
			}
			if !same(p.GrossPayYTD, q.GrossPayYTD) || !same(p.NetPayYTD, q.NetPayYTD) {
				continue
			}
			msg := "the gross pay %s, net pay %s and year-to-date figures of the paystub dated %s are those of the paystub dated %s (document %s)"
			if !same(p.GrossPayAmount, q.GrossPayAmount) || !same(p.NetPayAmount, q.NetPayAmount) {
				// Only the year to date is the other's: a stub of the same
				// year, both year-to-date figures printed, paying a period.
				if p.GrossPayYTD == nil || p.NetPayYTD == nil || q.GrossPayAmount == nil || len(p.PayDate) < 4 || len(q.PayDate) < 4 || p.PayDate[:4] != q.PayDate[:4] ||
					*p.GrossPayAmount <= 0 || *q.GrossPayAmount <= 0 {
					continue
				}
				msg = "the gross pay %s and net pay %s of the paystub dated %s are its own, but its year-to-date figures are those of the paystub dated %s (document %s): they did not grow by its period"
			}
			// The copy is the one a neighbour does not confirm; when neither
			// or both are confirmed, the later one: a year to date cannot
			// stand still while a period is paid, so the later stub's is the
			// impossible one. The other gets a doubt.
			copyA := a.Stub.PayDate > b.Stub.PayDate
			if confirmed[a.DocumentID] != confirmed[b.DocumentID] {
				copyA = !confirmed[a.DocumentID]
			}
			original, copied := b, a
			if !copyA {
				original, copied = a, b
			}
			op, cp := original.Stub, copied.Stub
			mark(copied, FraudFiguresReused, msg, dollars(*cp.GrossPayAmount), dollars(*cp.NetPayAmount), cp.PayDate, op.PayDate, original.DocumentID)
			if !confirmed[original.DocumentID] {
				mark(original, FraudSeriesInconsistent, "its figures are printed again on the paystub dated %s (document %s), which copies them",
					cp.PayDate, copied.DocumentID)
			}
		}
	}
}

// Pay frequencies a schedule can have, spelt as income's pay_frequency
// spells them (PayFrequencies).
const (
	FrequencyWeekly      = "weekly"
	FrequencyBiweekly    = "bi-weekly"
	FrequencySemimonthly = "semi-monthly"
	FrequencyMonthly     = "monthly"
)

// minScheduleDates is how many pay dates the schedule check needs when
// the stubs do not state their frequency: any two dates fit some
// schedule. When every stub's pay period states the same frequency
// (statedFrequency), two dates suffice: they must fit one schedule of
// that frequency.
const minScheduleDates = 3

// Where a pay date may fall against its own pay period: from
// scheduleToleranceDays before the period's end (a pay day at the end of
// the period that falls on a weekend or holiday is paid early) to
// maxPayLagDays after it (a month paid on the 15th of the next month;
// pay for a period comes within about two weeks of its end).
const maxPayLagDays = 15

// checkSchedule: an employer's pay dates fall on one schedule (weekly,
// biweekly, semimonthly or monthly), within the tolerance for holidays.
// When the stubs' pay periods agree on a length, only that frequency is
// tried. The schedule that fits most dates is taken; the new stubs whose
// dates it does not fit are marked. With fewer than minScheduleDates
// dates, a new stub is marked when its pay date is off its own pay
// period (payDateOutsidePeriod), and a pair of dates is judged when the
// periods state the frequency (checkPair).
func checkSchedule(group []SeriesStub, mark markFunc) {
	var dates []time.Time
	for _, s := range group {
		d, _ := Date(s.Stub.PayDate).Parse()
		if len(dates) == 0 || !d.Equal(dates[len(dates)-1]) {
			dates = append(dates, d)
		}
	}
	stated := statedFrequency(group)
	if len(dates) < minScheduleDates {
		// Too few dates for a schedule of their own: a pair is judged
		// against the frequency the periods state (each pay date against
		// its own period is a doubt of the stub alone: checkPlausible).
		marked := map[string]bool{}
		for _, s := range group {
			if payDateOutsidePeriod(s.Stub) != "" {
				marked[s.DocumentID] = true
			}
		}
		if len(dates) == 2 && stated != "" {
			checkPair(group, dates, stated, marked, mark)
		}
		return
	}
	freqs := []string{FrequencyWeekly, FrequencyBiweekly, FrequencySemimonthly, FrequencyMonthly}
	if stated != "" {
		freqs = []string{stated}
	}
	best, bestFreq := []bool(nil), ""
	for _, f := range freqs {
		for _, fit := range scheduleFits(f, dates) {
			if count(fit) > count(best) {
				best, bestFreq = fit, f
			}
		}
	}
	if count(best) == len(dates) {
		return
	}
	var on []string
	for i, d := range dates {
		if best[i] {
			on = append(on, d.Format(time.DateOnly))
		}
	}
	for _, s := range group {
		d, _ := Date(s.Stub.PayDate).Parse()
		i := slices.IndexFunc(dates, d.Equal)
		if !best[i] && !offCycle(s.Stub) {
			mark(s, FraudPayDateOffSchedule, "the pay date %s is not on the %s schedule of this employer's other pay dates (%s)",
				s.Stub.PayDate, bestFreq, strings.Join(on, ", "))
		}
	}
}

// checkPair judges an employer's two pay dates when the stubs' pay
// periods state the frequency: the two must fit one schedule of it (a
// whole number of weeks or fortnights apart, or on one pair of
// semimonthly days or one monthly day), within the tolerance. Two dates
// cannot say which of them is off, so every new stub of the pair is
// marked (a stored one was judged when it came).
func checkPair(group []SeriesStub, dates []time.Time, freq string, marked map[string]bool, mark markFunc) {
	for _, fit := range scheduleFits(freq, dates) {
		if count(fit) == len(dates) {
			return
		}
	}
	a, b := dates[0].Format(time.DateOnly), dates[1].Format(time.DateOnly)
	for _, s := range group {
		if !marked[s.DocumentID] {
			mark(s, FraudPayDateOffSchedule, "the pay dates %s and %s, %d days apart, are not on one %s schedule, the frequency the stubs' pay periods state",
				a, b, int(dates[1].Sub(dates[0]).Hours()/24), freq)
		}
	}
}

// offCycle says whether a stub pays no base pay, only a bonus, commission
// or the like: employers pay those off their schedule, honestly.
func offCycle(p ReadPaystub) bool {
	if len(p.Earnings) == 0 {
		return false
	}
	for _, l := range p.Earnings {
		if l.EarningType() == EarningBase {
			return false
		}
	}
	return true
}

// payDateOutsidePeriod says why a stub's pay date cannot be its own pay
// period's ("" when it can, or the stub lacks the dates): more than
// scheduleToleranceDays before the period's end, or more than
// maxPayLagDays after it.
func payDateOutsidePeriod(p ReadPaystub) string {
	pay, err1 := Date(p.PayDate).Parse()
	end, err2 := Date(p.PayPeriodEnd).Parse()
	if err1 != nil || err2 != nil {
		return ""
	}
	switch days := int(pay.Sub(end).Hours() / 24); {
	case days < -scheduleToleranceDays:
		return fmt.Sprintf("the pay date %s is %d days before the end of its own pay period (%s)", p.PayDate, -days, p.PayPeriodEnd)
	case days > maxPayLagDays:
		return fmt.Sprintf("the pay date %s is %d days after the end of its own pay period (%s), more than the %d days within which a period is paid",
			p.PayDate, days, p.PayPeriodEnd, maxPayLagDays)
	}
	return ""
}

func count(fit []bool) int {
	n := 0
	for _, ok := range fit {
		if ok {
			n++
		}
	}
	return n
}

// statedFrequency is the frequency the stubs' pay periods say, when they
// all say the same one ("" otherwise).
func statedFrequency(group []SeriesStub) string {
	var f string
	for _, s := range group {
		start, err1 := Date(s.Stub.PayPeriodStart).Parse()
		end, err2 := Date(s.Stub.PayPeriodEnd).Parse()
		if err1 != nil || err2 != nil {
			return ""
		}
		var this string
		lastDay := end.AddDate(0, 0, 1).Day() == 1
		switch days := int(end.Sub(start).Hours()/24) + 1; {
		case days >= 6 && days <= 8:
			this = FrequencyWeekly
		case (start.Day() == 1 && end.Day() == 15) || (start.Day() == 16 && lastDay):
			this = FrequencySemimonthly
		case days >= 13 && days <= 15:
			this = FrequencyBiweekly
		case days >= 28 && days <= 31:
			this = FrequencyMonthly
		default:
			return ""
		}
		if f != "" && f != this {
			return ""
		}
		f = this
	}
	return f
}

// scheduleFits lists, for each schedule of a frequency the dates could be
// on, which dates it fits.
func scheduleFits(freq string, dates []time.Time) [][]bool {
	var out [][]bool
	fits := func(nominal func(d time.Time) []time.Time, tol int) []bool {
		fit := make([]bool, len(dates))
		for i, d := range dates {
			for _, n := range nominal(d) {
				if days := d.Sub(n).Hours() / 24; days <= float64(tol) && days >= -float64(tol) {
					fit[i] = true
				}
			}
		}
		return fit
	}
	switch freq {
	case FrequencyWeekly, FrequencyBiweekly:
		period, tol := 14, scheduleToleranceDays
		if freq == FrequencyWeekly {
			period, tol = 7, weeklyToleranceDays
		}
		for _, anchor := range dates {
			out = append(out, fits(func(d time.Time) []time.Time {
				k := int(d.Sub(anchor).Hours()/24) / period
				return []time.Time{anchor.AddDate(0, 0, (k-1)*period), anchor.AddDate(0, 0, k*period), anchor.AddDate(0, 0, (k+1)*period)}
			}, tol))
		}
	case FrequencySemimonthly:
		for a := 1; a <= 15; a++ {
			for b := a + 13; b <= a+16; b++ {
				out = append(out, fits(func(d time.Time) []time.Time { return monthDays(d, a, b) }, scheduleToleranceDays))
			}
		}
	case FrequencyMonthly:
		for day := 1; day <= 31; day++ {
			out = append(out, fits(func(d time.Time) []time.Time { return monthDays(d, day) }, scheduleToleranceDays))
		}
	}
	return out
}

// monthDays are the given days of d's month and of the months either
// side, a day past a month's end being its last day.
func monthDays(d time.Time, days ...int) []time.Time {
	var out []time.Time
	for m := -1; m <= 1; m++ {
		first := time.Date(d.Year(), d.Month()+time.Month(m), 1, 0, 0, 0, 0, time.UTC)
		last := first.AddDate(0, 1, -1).Day()
		for _, day := range days {
			out = append(out, first.AddDate(0, 0, min(day, last)-1))
		}
	}
	return out
}

// CheckVersions marks each new paystub of which the end user uploaded
// another version: a stub, stored (whatever its status) or uploaded with
// it, of the same employer and pay date whose gross, net or year-to-date
// figures differ. An employer issues one stub a pay date; two versions
// are an edited file tried again, or one read wrong (a photo and the PDF
// of one stub), so it is a doubt for a person, who compares the two,
// never evidence. It returns the reasons by document id.
func CheckVersions(stubs []SeriesStub) map[string][]FraudReason {
	out := map[string][]FraudReason{}
	for _, g := range ByEmployer(stubs) {
		// Stubs whose employer was not read share no employer: two jobs
		// paid on one day are not two versions.
		if key := EmployerKey(g[0].Stub.EmployerName, g[0].Stub.EmployerEIN); key == "name:" {
			continue
		}
		for i, a := range g {
			if !a.New {
				continue
			}
			for j, b := range g {
				if i == j || a.Stub.PayDate != b.Stub.PayDate {
					continue
				}
				if differ := differentFigures(a.Stub, b.Stub); len(differ) > 0 {
					out[a.DocumentID] = append(out[a.DocumentID], FraudReason{Code: FraudAnotherVersion, Fields: differ,
						Message: fmt.Sprintf("another paystub of this employer dated %s (document %s) has other figures: %s; compare the two",
							a.Stub.PayDate, b.DocumentID, strings.Join(differ, ", "))})
					break
				}
			}
		}
	}
	return out
}

// differentFigures names the figures two readings of one pay date both
// hold and do not agree on.
func differentFigures(a, b ReadPaystub) []string {
	var out []string
	for _, f := range []struct {
		name string
		a, b *int64
	}{
		{"gross_pay_amount", a.GrossPayAmount, b.GrossPayAmount},
		{"net_pay_amount", a.NetPayAmount, b.NetPayAmount},
		{"gross_pay_ytd", a.GrossPayYTD, b.GrossPayYTD},
		{"net_pay_ytd", a.NetPayYTD, b.NetPayYTD},
	} {
		if f.a != nil && f.b != nil && *f.a != *f.b {
			out = append(out, f.name)
		}
	}
	return out
}

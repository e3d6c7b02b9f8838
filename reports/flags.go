package reports

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"payline/domain"
)

// flags lists the points an underwriter should review, employment by
// employment and then across employments: a year's gross pay against its
// W-2, a declining variable income, a gap in pay, a termination without a
// final paycheck, and the sanity doubts (more than 80 hours a week, a pay
// period that ends before it starts, an income annualized from a single
// paystub); then employments at one employer that overlap, and one
// employer with two addresses. The report raises them; it decides nothing.
// es and sources are in the same order.
func flags(es []domain.ReportEmployment, sources []Source, built time.Time) []domain.ReportFlag {
	out := []domain.ReportFlag{}
	add := func(code, account, format string, args ...any) {
		out = append(out, domain.ReportFlag{Code: code, Message: fmt.Sprintf(format, args...), Employment: account})
	}
	for i, e := range es {
		out = append(out, sanityDoubts(e, sources[i], built)...)
		if in := e.Income; in != nil {
			for _, a := range in.AnnualIncomes {
				if a.W2 != nil && a.W2.Flagged {
					add(domain.FlagW2Mismatch, e.AccountID, "%s, %s: the paystubs' gross pay %s differs from the W-2's Medicare wages (box 5) %s by %s.",
						e.EmployerName, a.Year, usd(a.GrossPayYTD), usd(a.W2.MedicareWages), usd(a.W2.Difference))
					if a.W2.DocumentID != "" { // an uploaded W-2: the flag names it
						out[len(out)-1].DocumentIDs = []string{a.W2.DocumentID}
					}
				}
			}
			if t := in.Trends; t != nil {
				for _, v := range []struct {
					name string
					t    domain.IncomeTrend
				}{{"Overtime", t.Overtime}, {"Bonus", t.Bonus}, {"Commission", t.Commission}} {
					if v.t.Trend == domain.TrendDeclining {
						add(domain.FlagDecliningIncome, e.AccountID, "%s: %s fell %d%%, %s in the last 12 months against %s in the 12 before.",
							e.EmployerName, strings.ToLower(v.name), -*v.t.ChangePercent, usd(v.t.Last12Months), usd(v.t.Prior12Months))
					}
				}
			}
		}
		for _, g := range payGaps(sources[i].Paystubs, payFrequency(sources[i]), e.TerminationDate, built) {
			add(domain.FlagPayGap, e.AccountID, "%s: no pay for %d days, from %s to %s (paid %s).", e.EmployerName,
				g.days, longDate(g.from), longDate(g.to), payFrequency(sources[i]))
		}
		if msg := missingFinalPay(sources[i].Paystubs, e.TerminationDate, built); msg != "" {
			add(domain.FlagMissingFinalPay, e.AccountID, "%s: %s", e.EmployerName, msg)
		}
	}
	for i, e := range es {
		for j := i + 1; j < len(es); j++ {
			o := es[j]
			if !sameEmployer(e, o) {
				continue
			}
			if overlaps(e, o, built) {
				add(domain.FlagOverlappingEmployment, o.AccountID, "Two employments at %s overlap: %s and %s.",
					employerLabel(e), stint(e), stint(o))
			}
		}
	}
	seen := map[int]bool{}
	for i, e := range es {
		if seen[i] {
			continue
		}
		addrs := []string{addressKey(e.EmployerAddress)}
		for j := i + 1; j < len(es); j++ {
			if sameEmployer(e, es[j]) {
				seen[j] = true
				if k := addressKey(es[j].EmployerAddress); k != "" && addrs[0] != "" && k != addrs[0] && !contains(addrs, k) {
					addrs = append(addrs, k)
					add(domain.FlagEmployerAddressConflict, es[j].AccountID, "%s has two addresses: %s and %s.",
						employerLabel(e), e.EmployerAddress.Raw, es[j].EmployerAddress.Raw)
				}
			}
		}
	}
	return out
}

// maxWeeklyHours is the most hours a week a person's paystubs may
// average before the report doubts them: more is a misread column, mostly
// (hours to date taken as the period's), or several jobs on one stub.
const maxWeeklyHours = 80

// sanityDoubts are an employment's figures that cannot all be right, or
// rest on too little: more than 80 hours a week on average, a pay period
// that ends before it starts, a projected income annualized from a
// single paystub.
func sanityDoubts(e domain.ReportEmployment, s Source, built time.Time) []domain.ReportFlag {
	var out []domain.ReportFlag
	add := func(code string, docs []string, format string, args ...any) {
		out = append(out, domain.ReportFlag{Code: code, Message: fmt.Sprintf(format, args...), Employment: e.AccountID, DocumentIDs: docs})
	}
	if in := e.Income; in != nil && in.AverageWeeklyHours != nil && *in.AverageWeeklyHours > maxWeeklyHours {
		add(domain.FlagHoursOver80, uploadsOf(s, hoursStubs(s, built)), "%s: the paystubs report %.1f hours a week on average (%s), more than %d: "+
			"an hours figure may have been misread (hours to date taken as the period's) or cover more than one job; check them against the paystubs.",
			e.EmployerName, *in.AverageWeeklyHours, in.HoursBasis, maxWeeklyHours)
	}
	for _, p := range invertedPeriods(s) {
		add(domain.FlagPayPeriodInverted, uploadsOf(s, []string{p.DocumentID}), "%s: the paystub dated %s prints a pay period that ends (%s) before it starts (%s); "+
			"the report counts its pay on its pay date.", e.EmployerName, day(p.PayDate), day(p.End), day(p.Start))
	}
	if in := e.Income; in != nil {
		if one, ok := annualizedFromOne(in, s, built); ok {
			add(domain.FlagOnePaystubAnnualized, uploadsOf(s, []string{one.p.ID}), "%s: the projected annual income %s is annualized from a single paystub, "+
				"dated %s: one pay period says little about a year.", e.EmployerName, usd(*in.ProjectedAnnualIncome), longDate(one.at))
		}
	}
	return out
}

// invertedPeriods are the source's paystubs whose pay period ends before
// it starts: an upload's as printed (income takes its pay date instead),
// and any a payroll platform reported.
func invertedPeriods(s Source) []domain.PrintedPeriod {
	out := slices.Clone(s.InvertedPeriods)
	for _, p := range s.Paystubs {
		if p.PayPeriodStart.Valid() && p.PayPeriodEnd.Valid() && p.PayPeriodEnd < p.PayPeriodStart {
			out = append(out, domain.PrintedPeriod{DocumentID: p.ID, PayDate: p.PayDate.String(), Start: p.PayPeriodStart.String(), End: p.PayPeriodEnd.String()})
		}
	}
	return out
}

// hoursStubs are the ids of the paystubs the average hours were counted
// from: the last twelve months' that report hours.
func hoursStubs(s Source, built time.Time) []string {
	var ids []string
	for _, d := range datedStubs(s.Paystubs) {
		if d.at.Before(built.AddDate(-1, 0, 0)) || d.at.After(built) {
			continue
		}
		if slices.ContainsFunc(d.p.Earnings, func(l domain.PayLine) bool { return l.Hours != nil }) {
			ids = append(ids, d.p.ID)
		}
	}
	return ids
}

// uploadsOf keeps the ids that are the source's uploaded documents (a
// paystub read from an upload has its document's id): a flag names the
// documents it concerns, never a payroll platform's paystub ids.
func uploadsOf(s Source, ids []string) []string {
	var out []string
	for _, id := range ids {
		if slices.Contains(s.DocumentIDs, id) && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func payFrequency(s Source) string {
	if s.Income != nil {
		return s.Income.PayFrequency
	}
	return ""
}

// sameEmployer: two employments are at one employer when their EINs match,
// or, where either has none, their names do (any case).
func sameEmployer(a, b domain.ReportEmployment) bool {
	if a.EmployerEIN != nil && b.EmployerEIN != nil {
		return *a.EmployerEIN == *b.EmployerEIN
	}
	return strings.EqualFold(strings.TrimSpace(a.EmployerName), strings.TrimSpace(b.EmployerName))
}

func employerLabel(e domain.ReportEmployment) string {
	if e.EmployerEIN != nil {
		return fmt.Sprintf("%s (EIN %s)", e.EmployerName, *e.EmployerEIN)
	}
	return e.EmployerName
}

// span is an employment's start and end (the build for a current one).
func span(e domain.ReportEmployment, built time.Time) (time.Time, time.Time, bool) {
	start, err := domain.Date(e.StartDate).Parse()
	if err != nil {
		return time.Time{}, time.Time{}, false
	}
	end := built
	if e.TerminationDate != nil {
		if end, err = domain.Date(*e.TerminationDate).Parse(); err != nil {
			return time.Time{}, time.Time{}, false
		}
	}
	return start, end, true
}

func overlaps(a, b domain.ReportEmployment, built time.Time) bool {
	as, ae, ok1 := span(a, built)
	bs, be, ok2 := span(b, built)
	return ok1 && ok2 && as.Before(be) && bs.Before(ae)
}

// stint says when an employment ran, in words.
func stint(e domain.ReportEmployment) string {
	t, err := domain.Date(e.StartDate).Parse()
	from := e.StartDate
	if err == nil {
		from = longDate(t)
	}
	if e.TerminationDate == nil {
		return "from " + from + " (current)"
	}
	to := *e.TerminationDate
	if t, err := domain.Date(to).Parse(); err == nil {
		to = longDate(t)
	}
	return "from " + from + " to " + to
}

func longDate(t time.Time) string { return t.Format("Jan 2, 2006") }

func addressKey(a domain.Address) string {
	return strings.ToLower(strings.Join(strings.Fields(a.Raw), " "))
}

type gap struct {
	from, to time.Time
	days     int
}

// payGaps are the spans of more than twice the pay frequency without pay
// that end within the twelve months before the build (or before the
// termination of an ended employment).
func payGaps(stubs []domain.Paystub, frequency string, terminated *string, built time.Time) []gap {
	end := built
	if terminated != nil {
		if t, err := domain.Date(*terminated).Parse(); err == nil && t.Before(end) {
			end = t
		}
	}
	from := end.AddDate(-1, 0, 0)
	limit := 2 * periodDays(frequency)
	var out []gap
	ds := datedStubs(stubs)
	for i := 1; i < len(ds); i++ {
		prev, next := ds[i-1].at, ds[i].at
		if next.Before(from) || next.After(end) {
			continue
		}
		days := next.Sub(prev).Hours() / 24
		if days > limit {
			out = append(out, gap{from: prev, to: next, days: int(days)})
		}
	}
	return out
}

// finalPayDays is how close to a termination its final paycheck should be.
const finalPayDays = 31

// missingFinalPay says, for an employment that ended within the paystub
// history, when no paycheck came within 31 days of its termination; ""
// otherwise (also when the termination is older than the paystubs read,
// so nothing can be said).
func missingFinalPay(stubs []domain.Paystub, terminated *string, built time.Time) string {
	if terminated == nil {
		return ""
	}
	t, err := domain.Date(*terminated).Parse()
	if err != nil || t.Before(built.Add(-domain.PaystubHistory)) {
		return ""
	}
	ds := datedStubs(stubs)
	var last time.Time
	for _, d := range ds {
		if !d.at.After(t.AddDate(0, 0, finalPayDays)) {
			last = d.at
		}
		if d := d.at.Sub(t).Hours() / 24; d >= -finalPayDays && d <= finalPayDays {
			return ""
		}
	}
	if last.IsZero() {
		return fmt.Sprintf("terminated %s, and no paystub was read from before it.", longDate(t))
	}
	return fmt.Sprintf("terminated %s, but the last paycheck is dated %s, %d days before; the final paycheck is missing.",
		longDate(t), longDate(last), int(t.Sub(last).Hours()/24))
}

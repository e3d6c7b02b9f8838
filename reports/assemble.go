package reports

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"payline/domain"
)

// Source is one payroll account of the end user and the data it has; a
// product the account never produced is nil.
type Source struct {
	Account domain.Account
	// PlatformName is the account's payroll platform as the directory
	// names it, and EIN its employer's EIN where the directory has one.
	PlatformName, EIN string
	// W2s are the account's W-2s by tax year.
	W2s        map[string]domain.W2
	Identity   *domain.Identity
	Employment *domain.Employment
	Income     *domain.Income
	Paystubs   []domain.Paystub
	// Consent is the end user's consent to share the account, recorded
	// by Link; nil for an account connected before Link recorded it.
	Consent *domain.Consent
	// DocumentIDs are, for an employment read from uploaded paystubs or
	// W-2s (withDocuments), the documents it was read from; its Account
	// is then no account but stands for the employer and the upload time.
	DocumentIDs []string
	// UploadedW2s are W-2s the end user uploaded of this employer, by tax
	// year, for the years the account has no W-2 of its own.
	UploadedW2s map[string]domain.UploadedW2
	// ReviewedIDs are those of its uploads a person accepted, and
	// ReviewBases who ("reviewed by a member of Acme Lending"), each once.
	ReviewedIDs, ReviewBases []string
	// InvertedPeriods are its uploaded paystubs whose pay period, as
	// printed, ends before it starts.
	InvertedPeriods []domain.PrintedPeriod
	// IdentityDocumentID is the upload whose printed name is Identity,
	// for an end user no account reports an identity for.
	IdentityDocumentID string
}

// w2Only reports whether the source is an employer known only from W-2s
// the end user uploaded: no paystubs, no payroll account.
func (s Source) w2Only() bool { return s.DocumentIDs != nil && len(s.Paystubs) == 0 }

// w2Of is the source's W-2 of a tax year: the account's own, else one the
// end user uploaded (its document id given).
func (s Source) w2Of(year string) (wages, medicare int64, documentID string, ok bool) {
	if w, found := s.W2s[year]; found {
		return w.TotalWages.Amount, w.MedicareWages.Amount, "", true
	}
	if w, found := s.UploadedW2s[year]; found {
		return w.Wages, w.MedicareWages, w.DocumentID, true
	}
	return 0, 0, "", false
}

// sortSources orders sources as a report lists its employments: by when
// each was connected (or uploaded), then id.
func sortSources(sources []Source) []Source {
	sources = slices.Clone(sources)
	slices.SortFunc(sources, func(a, b Source) int {
		return cmp.Or(a.Account.CreatedAt.Compare(b.Account.CreatedAt), strings.Compare(a.Account.ID, b.Account.ID))
	})
	return sources
}

// Assemble builds a report of reportType from the end user's sources and
// the uploaded documents left out of them (each listed and raised as a
// point to review). It is a pure function: the same sources, id and
// times give the same report. updated is when the underlying data last
// changed, built when the report is made.
func Assemble(reportType, id string, sources []Source, updated, built time.Time, setAside ...SetAside) domain.VerificationReport {
	sources = sortSources(sources)
	r := domain.VerificationReport{ID: id, ReportType: reportType, UpdatedAt: domain.Timestamp(updated), RefreshedAt: domain.Timestamp(built),
		Employments: []domain.ReportEmployment{}, ExcludedDocuments: []domain.ExcludedDocument{}}
	r.Completeness = domain.ReportCompleteness{Missing: []string{}, Derived: []string{}, Conflicts: []string{}}
	c := &r.Completeness
	r.Employee = employee(sources, c)
	var first, last string
	for i, s := range sources {
		e := employment(s, reportType, i, built, c)
		r.Employments = append(r.Employments, e)
		for _, p := range s.Paystubs {
			if !isDate(p.PayDate.String()) {
				continue // counted in its year's totals as "unknown", never a bound
			}
			if first == "" || p.PayDate.String() < first {
				first = p.PayDate.String()
			}
			if p.PayDate.String() > last {
				last = p.PayDate.String()
			}
		}
	}
	if last != "" {
		c.Paystubs = &domain.DateRange{From: first, To: last}
	}
	hireDates(r.Employments)
	r.Flags = flags(r.Employments, sources, built)
	for _, x := range setAside {
		r.ExcludedDocuments = append(r.ExcludedDocuments, x.ExcludedDocument)
		r.Flags = append(r.Flags, x.Flag())
	}
	r.FCRANotice = NewFCRANotice("", sources)
	return r
}

// hireDates sets each employment's most recent hire (its own start date)
// and original hire: the earliest start date of the end user's
// employments at the same employer (by name, any case), so a rehire shows
// when the employee first joined.
func hireDates(es []domain.ReportEmployment) {
	for i := range es {
		es[i].MostRecentHireDate = es[i].StartDate
		es[i].OriginalHireDate = es[i].StartDate
		for _, o := range es {
			if strings.EqualFold(strings.TrimSpace(o.EmployerName), strings.TrimSpace(es[i].EmployerName)) && isDate(o.StartDate) &&
				(es[i].OriginalHireDate == "" || !isDate(es[i].OriginalHireDate) || o.StartDate < es[i].OriginalHireDate) {
				es[i].OriginalHireDate = o.StartDate
			}
		}
	}
}

// employee takes the identity most recently read from any account, and
// notes the fields on which the end user's accounts disagree.
func employee(sources []Source, c *domain.ReportCompleteness) domain.ReportEmployee {
	var best *Source
	for i := range sources {
		s := &sources[i]
		if s.Identity != nil && (best == nil || s.Account.DataUpdatedAt[domain.ProductIdentity].After(best.Account.DataUpdatedAt[domain.ProductIdentity])) {
			best = s
		}
	}
	if best == nil {
		c.Missing = append(c.Missing, "employee")
		return domain.ReportEmployee{PhoneNumbers: []domain.PhoneNumber{}}
	}
	id := *best.Identity
	if best.DocumentIDs != nil {
		// A name printed on an upload: its document, never as an account.
		c.IdentitySourceDocument = best.IdentityDocumentID
	} else {
		c.IdentitySource = best.Account.ID
	}
	for _, s := range sources {
		if s.Identity == nil || s.Account.ID == best.Account.ID {
			continue
		}
		o := *s.Identity
		for field, differs := range map[string]bool{
			"name": o.FullName != id.FullName, "date_of_birth": o.DateOfBirth != id.DateOfBirth,
			"last_four_ssn": o.LastFourSSN != id.LastFourSSN, "address": o.Address.Raw != id.Address.Raw,
			"phone_numbers": fmt.Sprint(o.PhoneNumbers) != fmt.Sprint(id.PhoneNumbers),
		} {
			if differs && !slices.Contains(c.Conflicts, field) {
				c.Conflicts = append(c.Conflicts, field)
			}
		}
	}
	slices.Sort(c.Conflicts)
	c.Derived = append(c.Derived, "employee.name.first_name", "employee.name.middle_name", "employee.name.last_name")
	phones := id.PhoneNumbers
	if phones == nil {
		phones = []domain.PhoneNumber{}
	}
	return domain.ReportEmployee{Name: splitName(id.FullName), Address: id.Address, LastFourSSN: id.LastFourSSN,
		DateOfBirth: id.DateOfBirth.String(), PhoneNumbers: phones}
}

// splitName splits a full name into first, middle and last words.
func splitName(full string) domain.PersonName {
	words := strings.Fields(full)
	n := domain.PersonName{FullName: strings.Join(words, " ")}
	switch len(words) {
	case 0:
	case 1:
		n.FirstName = words[0]
	default:
		n.FirstName, n.LastName = words[0], words[len(words)-1]
		n.MiddleName = strings.Join(words[1:len(words)-1], " ")
	}
	return n
}

func employment(s Source, reportType string, i int, built time.Time, c *domain.ReportCompleteness) domain.ReportEmployment {
	at := func(field string) string { return fmt.Sprintf("employments[%d].%s", i, field) }
	e := domain.ReportEmployment{AccountID: s.Account.ID, EmployerName: s.Account.EmployerName,
		Source: domain.ReportSource{Type: domain.SourcePayroll, PlatformID: s.Account.PlatformID, PlatformName: s.PlatformName, DataAsOf: domain.Timestamp(dataAsOf(s.Account))}}
	if s.DocumentIDs != nil {
		e.AccountID = "" // no account: the documents say where it came from
		e.Source = domain.ReportSource{Type: domain.SourceDocuments, DocumentIDs: s.DocumentIDs, Notice: documentsNotice(s),
			DataAsOf: domain.Timestamp(dataAsOf(s.Account))}
	}
	e.Source.ReviewBases = s.ReviewBases
	if s.Consent != nil {
		e.Consent = &domain.ReportConsent{GivenAt: domain.Timestamp(s.Consent.GivenAt), TextVersion: s.Consent.TextVersion}
	}
	if s.EIN != "" {
		ein := s.EIN
		e.EmployerEIN = &ein
	} else {
		c.Missing = append(c.Missing, at("employer_ein"))
	}
	if emp := s.Employment; emp != nil && emp.EmployerPhoneNumber.Value != "" {
		phone := emp.EmployerPhoneNumber.Value
		e.EmployerPhoneNumber = &phone
	} else {
		c.Missing = append(c.Missing, at("employer_phone_number"))
	}
	if emp := s.Employment; emp != nil {
		e.EmployerName, e.EmployerAddress, e.StartDate = emp.EmployerName, emp.EmployerAddress, emp.StartDate.String()
		e.EmploymentStatus, e.Title = emp.Status, emp.Title
		if emp.TerminationDate != nil {
			end := emp.TerminationDate.String()
			e.TerminationDate = &end
		}
		// A date that does not parse is unknown: the duration is left out
		// (and said to be missing) rather than counted from year 1.
		end, endOK := built, true
		if emp.TerminationDate != nil {
			t, err := emp.TerminationDate.Parse()
			end, endOK = t, err == nil
		}
		if start, err := emp.StartDate.Parse(); err == nil && endOK && !end.Before(start) {
			months := monthsBetween(start, end)
			e.EmploymentDurationMonths = &months
			c.Derived = append(c.Derived, at("employment_duration_months"))
		} else {
			c.Missing = append(c.Missing, at("employment_duration_months"))
		}
	} else {
		// No start date: the duration is unknown (null), not 0.
		c.Missing = append(c.Missing, at("employer_address"), at("start_date"), at("employment_status"), at("title"),
			at("employment_duration_months"))
	}
	// No payroll platform reports full or part time; say so rather than guess.
	c.Missing = append(c.Missing, at("employment_type"))
	var latest string
	for _, p := range s.Paystubs {
		if isDate(p.PayDate.String()) && p.PayDate.String() > latest {
			latest = p.PayDate.String()
		}
	}
	if latest != "" {
		e.MostRecentPayDate = &latest
	} else {
		c.Missing = append(c.Missing, at("most_recent_pay_date"))
	}
	if reportType == domain.ReportVOIE {
		e.Income = income(s, at, c)
		// An employer known from W-2s alone has no pay to project from.
		project(e.Income, s, e.TerminationDate != nil || s.w2Only(), built)
	}
	return e
}

// monthsBetween counts whole months from start to end.
func monthsBetween(start, end time.Time) int {
	m := (end.Year()-start.Year())*12 + int(end.Month()) - int(start.Month())
	if end.Day() < start.Day() {
		m--
	}
	return max(m, 0)
}

func income(s Source, at func(string) string, c *domain.ReportCompleteness) *domain.ReportIncome {
	in := &domain.ReportIncome{Currency: domain.CurrencyUSD, AnnualIncomes: withW2Years(AnnualIncomes(s.Paystubs), s), Paystubs: []domain.ReportPaystub{}}
	for i := range in.AnnualIncomes {
		a := &in.AnnualIncomes[i]
		wages, medicare, doc, ok := s.w2Of(a.Year)
		if !ok {
			continue
		}
		d := a.GrossPayYTD - medicare
		a.W2 = &domain.AnnualW2{Wages: wages, MedicareWages: medicare, Difference: d,
			Flagged: a.Basis != domain.BasisPartial && a.Basis != domain.BasisW2 && (d > 100 || d < -100), DocumentID: doc}
		if a.EarningsByTypeBasis == domain.SplitPaystubsRead {
			unsplit := medicare - a.EarningsByType.Total()
			a.W2Unsplit = &unsplit
		}
		if a.Basis == domain.BasisW2 {
			// A W-2 gives no net pay, taxes in the paystubs' sense,
			// deductions or reimbursements: unknown, not 0.
			for _, f := range []string{"net_pay_ytd", "total_taxes_ytd", "total_deductions_ytd", "total_reimbursements_ytd"} {
				c.Missing = append(c.Missing, at(fmt.Sprintf("income.annual_incomes[%d].%s", i, f)))
			}
		}
	}
	switch {
	case s.Income == nil:
		c.Missing = append(c.Missing, at("income.pay_frequency"), at("income.compensation_unit"), at("income.compensation_amount"))
	case s.Income.CompensationUnit == "":
		// Uploaded paystubs: their periods say how often, nothing the rate.
		in.PayFrequency, in.Currency = s.Income.PayFrequency, s.Income.Currency
		c.Missing = append(c.Missing, at("income.compensation_unit"), at("income.compensation_amount"))
		c.Derived = append(c.Derived, at("income.pay_frequency"))
	default:
		in.PayFrequency, in.CompensationUnit = s.Income.PayFrequency, s.Income.CompensationUnit
		in.CompensationAmount, in.Currency = s.Income.CompensationAmount.Amount, s.Income.Currency
	}
	if len(in.AnnualIncomes) == 0 {
		c.Missing = append(c.Missing, at("income.annual_incomes"))
	} else {
		c.Derived = append(c.Derived, at("income.annual_incomes"))
	}
	if len(s.Paystubs) == 0 {
		c.Missing = append(c.Missing, at("income.paystubs"))
		return in
	}
	for _, p := range newestFirst(s.Paystubs)[:min(2, len(s.Paystubs))] {
		in.Paystubs = append(in.Paystubs, domain.ReportPaystub{Paystub: p})
	}
	return in
}

// AnnualIncomes totals paystubs per calendar year of their pay date,
// newest year first, with earnings totalled by category and by type. A
// year whose first paystub read is the year's first (its year-to-date
// gross is its own gross) is the sum of its paystubs; a year read from
// mid-year takes its gross and net pay from its last paystub's
// year-to-date figures, so the oldest year of a window is never shown as
// the sum of its last few weeks; one without year-to-date figures is
// partial. Taxes, deductions, reimbursements and earnings are sums of
// the paystubs read, and so partial in any year read from mid-year.
func AnnualIncomes(stubs []domain.Paystub) []domain.AnnualIncome {
	byYear := map[string]*domain.AnnualIncome{}
	earnings := map[string]map[string]int64{}
	first, last := map[string]domain.Paystub{}, map[string]domain.Paystub{}
	for _, p := range stubs {
		y := payYear(p.PayDate.String())
		a := byYear[y]
		if a == nil {
			a = &domain.AnnualIncome{Year: y, EarningsYTDs: []domain.EarningsTotal{}}
			byYear[y], earnings[y] = a, map[string]int64{}
			first[y], last[y] = p, p
		}
		if p.PayDate.String() < first[y].PayDate.String() || (p.PayDate.String() == first[y].PayDate.String() && p.GrossPayYTD.Amount < first[y].GrossPayYTD.Amount) {
			first[y] = p
		}
		if p.PayDate.String() > last[y].PayDate.String() || (p.PayDate.String() == last[y].PayDate.String() && p.GrossPayYTD.Amount > last[y].GrossPayYTD.Amount) {
			last[y] = p
		}
		a.GrossPayYTD += p.GrossPayAmount.Amount
		a.NetPayYTD += p.NetPayAmount.Amount
		a.TotalDeductionsYTD += p.TotalDeductions.Amount
		a.TotalReimbursementsYTD += p.TotalReimbursements.Amount
		a.TotalTaxesYTD += p.TotalTaxes.Amount
		a.Paystubs++
		for _, l := range p.Earnings {
			earnings[y][l.Category] += l.Amount.Amount
			a.EarningsByType.Add(l)
		}
	}
	for y, a := range byYear {
		a.FirstPayDate = first[y].PayDate.String()
		a.EarningsByTypeBasis = domain.SplitPaystubsRead
		if y != unknownYear && first[y].GrossPayYTD.Amount == first[y].GrossPayAmount.Amount {
			a.EarningsByTypeBasis = domain.BasisPaystubs
		}
		switch wholeYear := first[y].GrossPayYTD.Amount == first[y].GrossPayAmount.Amount; {
		case y == unknownYear:
			a.Basis, a.Partial = domain.BasisPartial, true
		case wholeYear:
			a.Basis = domain.BasisPaystubs
		case last[y].GrossPayYTD.Amount > 0:
			a.Basis, a.Partial = domain.BasisYearToDate, true
			a.GrossPayYTD, a.NetPayYTD = last[y].GrossPayYTD.Amount, last[y].NetPayYTD.Amount
		default:
			a.Basis, a.Partial = domain.BasisPartial, true
		}
	}
	out := []domain.AnnualIncome{}
	for y, a := range byYear {
		for cat, amount := range earnings[y] {
			a.EarningsYTDs = append(a.EarningsYTDs, domain.EarningsTotal{Amount: amount, Category: cat})
		}
		slices.SortFunc(a.EarningsYTDs, func(x, y domain.EarningsTotal) int { return strings.Compare(x.Category, y.Category) })
		out = append(out, *a)
	}
	slices.SortFunc(out, newestYearFirst)
	return out
}

// newestYearFirst orders annual incomes newest year first, the year of
// paystubs whose pay date does not parse last.
func newestYearFirst(a, b domain.AnnualIncome) int {
	known := func(y string) int {
		if y == unknownYear {
			return 0
		}
		return 1
	}
	return cmp.Or(cmp.Compare(known(b.Year), known(a.Year)), strings.Compare(b.Year, a.Year))
}

// withW2Years adds a year for each of the source's W-2s (its account's,
// or one the end user uploaded) of a year no paystub was read for: its
// gross pay is the W-2's box 5 (Medicare wages, which pre-tax deductions
// do not lower, as the paystubs' gross), basis w2, and what no paystub
// splits by type is the whole of it (w2_unsplit, set by income). A W-2
// gives no net pay: the year's other figures are unknown, 0 and listed
// as missing, never a neighbour's figure.
func withW2Years(years []domain.AnnualIncome, s Source) []domain.AnnualIncome {
	var more []string
	for y := range s.W2s {
		more = append(more, y)
	}
	for y := range s.UploadedW2s {
		if _, own := s.W2s[y]; !own {
			more = append(more, y)
		}
	}
	for _, y := range more {
		if slices.ContainsFunc(years, func(a domain.AnnualIncome) bool { return a.Year == y }) {
			continue
		}
		_, medicare, _, _ := s.w2Of(y)
		years = append(years, domain.AnnualIncome{Year: y, GrossPayYTD: medicare, EarningsYTDs: []domain.EarningsTotal{},
			Basis: domain.BasisW2, EarningsByTypeBasis: domain.SplitPaystubsRead})
	}
	slices.SortFunc(years, newestYearFirst)
	return years
}

// unknownYear is the year of a paystub whose pay date does not parse: its
// money still counts, in a year of its own, rather than in year 1 or in a
// year made of the first four characters of whatever it holds.
const unknownYear = "unknown"

// payYear is the calendar year of a pay date, or unknownYear.
func payYear(date string) string {
	t, err := domain.Date(date).Parse()
	if err != nil {
		return unknownYear
	}
	return t.Format("2006")
}

// isDate reports whether s is a date (2006-01-02) that exists.
func isDate(s string) bool {
	_, err := domain.Date(s).Parse()
	return err == nil
}

// newestFirst sorts a copy of stubs by pay date, newest first.
func newestFirst(stubs []domain.Paystub) []domain.Paystub {
	out := slices.Clone(stubs)
	slices.SortFunc(out, func(a, b domain.Paystub) int {
		return cmp.Or(cmp.Compare(b.PayDate, a.PayDate), strings.Compare(b.ID, a.ID))
	})
	return out
}

// dataAsOf is when the account's report data last changed.
func dataAsOf(a domain.Account) time.Time {
	var at time.Time
	for _, p := range reportProducts {
		if t := a.DataUpdatedAt[p]; t.After(at) {
			at = t
		}
	}
	return at.UTC()
}

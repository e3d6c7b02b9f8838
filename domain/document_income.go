package domain

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Paystub converts what was read from an uploaded paystub into the
// domain's Paystub, the one type every income figure is computed from,
// so documents and payroll data go through the same code. ok is false
// when the stub lacks what income needs: a pay date, gross and net pay.
// A pay period not read is the pay date; a year to date not read is
// zero, which the annual figures read as "not the whole year". id is the
// document's id, kept as the stub's id and external id.
func (r ReadPaystub) Paystub(id string) (Paystub, bool) {
	if !Date(r.PayDate).Valid() || r.GrossPayAmount == nil || r.NetPayAmount == nil {
		return Paystub{}, false
	}
	start, end := Date(r.PayPeriodStart), Date(r.PayPeriodEnd)
	if !start.Valid() || !end.Valid() || start > end {
		start, end = Date(r.PayDate), Date(r.PayDate)
	}
	amount := func(p *int64) Money { return USD(deref(p)) }
	taxes, _ := total(r.TotalTaxes, r.Taxes)
	deductions, _ := total(r.TotalDeductions, r.Deductions)
	lines := func(ls []PayLine) []PayLine {
		if ls == nil {
			return []PayLine{}
		}
		return slices.Clone(ls)
	}
	return Paystub{ID: id, PayDate: Date(r.PayDate), PayPeriodStart: start, PayPeriodEnd: end,
		GrossPayAmount: amount(r.GrossPayAmount), GrossPayYTD: amount(r.GrossPayYTD),
		NetPayAmount: amount(r.NetPayAmount), NetPayYTD: amount(r.NetPayYTD), CheckAmount: amount(r.NetPayAmount),
		TotalTaxes: USD(taxes), TotalDeductions: USD(deductions), TotalReimbursements: USD(0),
		Currency: CurrencyUSD, EmployerName: r.EmployerName, ExternalPaystubID: id,
		Earnings: lines(r.Earnings), Taxes: lines(r.Taxes), Deductions: lines(r.Deductions)}, true
}

// DocumentEmployment is an employment read from the paystubs an end user
// uploaded: one employer's parsed, not-suspected paystubs (grouped as
// the series checks group them), as Paystubs the income code reads.
type DocumentEmployment struct {
	EmployerName string
	EmployerEIN  string // "" when no stub printed one
	DocumentIDs  []string
	Paystubs     []Paystub
	// PayFrequency is what the stubs' pay periods say (weekly, biweekly,
	// semimonthly, monthly) when they all agree, "" otherwise.
	PayFrequency string
	// Compensation is the pay rate the latest stub prints, when it prints
	// one (Compensation says how it was read); nil otherwise.
	Compensation *Compensation
	// UploadedAt is when the latest of its documents was uploaded: the
	// employment's "data as of".
	UploadedAt time.Time
	// ReviewBases say who reviewed those of its documents a person
	// accepted ("reviewed by a member of Acme Lending"), each once.
	ReviewBases []string
}

// ExcludedDocument is an uploaded paystub a report leaves out, and why:
// suspected or awaiting a person's review (its reasons), rejected by a
// reviewer, or not read well enough for income.
type ExcludedDocument struct {
	DocumentID string        `json:"document_id"`
	Reason     string        `json:"reason"`
	Fraud      DocumentFraud `json:"fraud"`
}

// Why a report leaves an uploaded paystub out.
const (
	ExcludedSuspected   = "suspected"
	ExcludedNeedsReview = "needs_review"
	ExcludedRejected    = "rejected"
	ExcludedUnread      = "unread"
	ExcludedIncomplete  = "incomplete"
)

// DocumentEmployments turns an end user's uploaded paystub documents into
// employments, one per employer, and lists the documents left out: those
// that do not count as income (suspected or needing review and not
// accepted by a reviewer, or rejected), ones nothing was read from, and
// ones without a pay date, gross and net pay. Employments are ordered by their first
// upload, then employer name.
func DocumentEmployments(docs []Record) ([]DocumentEmployment, []ExcludedDocument) {
	var series []SeriesStub
	var excluded []ExcludedDocument
	uploaded := map[string]time.Time{}
	bases := map[string]string{}
	for _, d := range docs {
		b := d.Document
		if b == nil || b.DocumentType != DocumentPaystub || b.AccountID != nil {
			continue
		}
		p := b.ParsedData.Paystub
		switch {
		case b.Review != nil && b.Review.Status == ReviewCompleted && b.Review.Outcome == ReviewRejected:
			excluded = append(excluded, ExcludedDocument{DocumentID: d.ID, Reason: ExcludedRejected, Fraud: b.Fraud})
			continue
		case !b.CountsAsIncome() && b.Fraud.Status == FraudSuspected:
			excluded = append(excluded, ExcludedDocument{DocumentID: d.ID, Reason: ExcludedSuspected, Fraud: b.Fraud})
			continue
		case !b.CountsAsIncome() && b.Fraud.Status == FraudNeedsReview:
			excluded = append(excluded, ExcludedDocument{DocumentID: d.ID, Reason: ExcludedNeedsReview, Fraud: b.Fraud})
			continue
		case p == nil:
			excluded = append(excluded, ExcludedDocument{DocumentID: d.ID, Reason: ExcludedUnread, Fraud: b.Fraud})
			continue
		}
		if _, ok := p.Paystub(d.ID); !ok {
			excluded = append(excluded, ExcludedDocument{DocumentID: d.ID, Reason: ExcludedIncomplete, Fraud: b.Fraud})
			continue
		}
		series = append(series, SeriesStub{DocumentID: d.ID, Stub: *p})
		uploaded[d.ID] = d.CreatedAt
		if b.Review != nil && b.Review.Basis != "" {
			bases[d.ID] = b.Review.Basis
		}
	}
	var out []DocumentEmployment
	for _, group := range ByEmployer(series) {
		e := DocumentEmployment{}
		for _, s := range group {
			stub, _ := s.Stub.Paystub(s.DocumentID)
			stub.CreatedAt = uploaded[s.DocumentID]
			e.Paystubs = append(e.Paystubs, stub)
			e.DocumentIDs = append(e.DocumentIDs, s.DocumentID)
			e.EmployerName = cmp.Or(s.Stub.EmployerName, e.EmployerName) // the latest stub's name
			e.EmployerEIN = cmp.Or(NormalizeEIN(s.Stub.EmployerEIN), e.EmployerEIN)
			if t := uploaded[s.DocumentID]; t.After(e.UploadedAt) {
				e.UploadedAt = t
			}
			if b := bases[s.DocumentID]; b != "" && !slices.Contains(e.ReviewBases, b) {
				e.ReviewBases = append(e.ReviewBases, b)
			}
		}
		slices.Sort(e.DocumentIDs)
		e.PayFrequency = statedFrequency(group)
		e.Compensation = CompensationOf(e.Paystubs[len(e.Paystubs)-1], e.PayFrequency)
		out = append(out, e)
	}
	slices.SortStableFunc(out, func(a, b DocumentEmployment) int {
		return cmp.Or(a.UploadedAt.Compare(b.UploadedAt), strings.Compare(a.EmployerName, b.EmployerName))
	})
	slices.SortFunc(excluded, func(a, b ExcludedDocument) int { return strings.Compare(a.DocumentID, b.DocumentID) })
	return out, excluded
}

// Compensation is a pay rate read from a paystub: its amount in cents, its
// unit (one of CompensationUnits) and, in words, where it was read.
type Compensation struct {
	Amount int64
	Unit   string
	Basis  string
}

// compensationUnitOf is the compensation unit of a salary paid at a pay
// frequency the stubs' periods state.
var compensationUnitOf = map[string]string{FrequencyWeekly: "weekly", FrequencyBiweekly: "bi-weekly",
	FrequencySemimonthly: "semi-monthly", FrequencyMonthly: "monthly"}

// CompensationOf reads the pay rate a paystub prints: the rate of its base
// pay line (EarningType base) when the line has one, an hourly rate; or
// else, when the stubs' periods state how often they pay, the base pay of
// the period itself, a salary per period (a salaried stub prints no rate:
// its salary line is the rate). nil when the stub prints neither.
func CompensationOf(p Paystub, frequency string) *Compensation {
	var base int64
	for _, l := range p.Earnings {
		if l.EarningType() != EarningBase {
			continue
		}
		if l.Rate != nil && l.Rate.Amount > 0 {
			return &Compensation{Amount: l.Rate.Amount, Unit: "hourly",
				Basis: fmt.Sprintf("the rate of the %q line of the paystub dated %s", l.Name, p.PayDate)}
		}
		base += l.Amount.Amount
	}
	unit, ok := compensationUnitOf[frequency]
	if !ok || base <= 0 {
		return nil
	}
	return &Compensation{Amount: base, Unit: unit,
		Basis: fmt.Sprintf("the base pay of the paystub dated %s, paid %s", p.PayDate, unit)}
}

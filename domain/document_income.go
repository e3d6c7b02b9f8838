package domain

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
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
		TotalTaxes: USD(taxes), TotalDeductions: USD(deductions), TotalReimbursements: USD(deref(r.Reimbursements)),
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
	// accepted ("reviewed by a member of Acme Lending"), each once, and
	// ReviewedIDs are those documents.
	ReviewBases []string
	ReviewedIDs []string
	// InvertedPeriods are its stubs whose pay period, as printed, ends
	// before it starts (their income takes the pay date as the period).
	InvertedPeriods []PrintedPeriod
}

// ExcludedDocument is an uploaded paystub or W-2 a report leaves out,
// and why: suspected or awaiting a person's review (its reasons),
// rejected by a reviewer, or not read well enough for income.
type ExcludedDocument struct {
	DocumentID string `json:"document_id"`
	// DocumentType is paystub or w2.
	DocumentType string        `json:"document_type"`
	Reason       string        `json:"reason"`
	Fraud        DocumentFraud `json:"fraud"`
}

// Why a report leaves an uploaded paystub or W-2 out.
const (
	ExcludedSuspected   = "suspected"
	ExcludedNeedsReview = "needs_review"
	ExcludedRejected    = "rejected"
	ExcludedUnread      = "unread"
	ExcludedIncomplete  = "incomplete"
)

// uploadedOf is an end user's uploaded document of a type: its body, nil
// for any other record (a platform's document, another type).
func uploadedOf(d Record, documentType string) *DocumentBody {
	if b := d.Document; b != nil && b.DocumentType == documentType && b.AccountID == nil {
		return b
	}
	return nil
}

// setAsideReason is why a document's figures may not be used, whatever
// was read: rejected by a reviewer, suspected or needing review and not
// accepted, or nothing read; "" when they may.
func setAsideReason(b *DocumentBody) string {
	switch {
	case b.Review != nil && b.Review.Status == ReviewCompleted && b.Review.Outcome == ReviewRejected:
		return ExcludedRejected
	case !b.CountsAsIncome() && b.Fraud.Status == FraudSuspected:
		return ExcludedSuspected
	case !b.CountsAsIncome() && b.Fraud.Status == FraudNeedsReview:
		return ExcludedNeedsReview
	case !b.ParsedData.Read():
		return ExcludedUnread
	}
	return ""
}

// reviewBasis is what an accepted document's figures rest on beside the
// reading: "reviewed by a member of <customer>", "" when no person
// accepted it.
func reviewBasis(b *DocumentBody) string {
	if r := b.Review; r != nil && r.Status == ReviewCompleted && r.Outcome == ReviewAccepted {
		return r.Basis
	}
	return ""
}

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
		b := uploadedOf(d, DocumentPaystub)
		if b == nil {
			continue
		}
		leftOut := func(reason string) {
			excluded = append(excluded, ExcludedDocument{DocumentID: d.ID, DocumentType: DocumentPaystub, Reason: reason, Fraud: b.Fraud})
		}
		p := b.ParsedData.Paystub
		if reason := setAsideReason(b); reason != "" || p == nil {
			leftOut(cmp.Or(reason, ExcludedUnread))
			continue
		}
		if _, ok := p.Paystub(d.ID); !ok {
			leftOut(ExcludedIncomplete)
			continue
		}
		series = append(series, SeriesStub{DocumentID: d.ID, Stub: *p})
		uploaded[d.ID] = d.CreatedAt
		bases[d.ID] = reviewBasis(b)
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
			if b := bases[s.DocumentID]; b != "" {
				e.ReviewedIDs = append(e.ReviewedIDs, s.DocumentID)
				if !slices.Contains(e.ReviewBases, b) {
					e.ReviewBases = append(e.ReviewBases, b)
				}
			}
			if p, ok := invertedPeriod(s.DocumentID, s.Stub); ok {
				e.InvertedPeriods = append(e.InvertedPeriods, p)
			}
		}
		slices.Sort(e.DocumentIDs)
		slices.Sort(e.ReviewedIDs)
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

// PrintedPeriod is a pay period as a paystub prints it, when it ends
// before it starts: income then takes the pay date as the period
// (ReadPaystub.Paystub), and a report says so.
type PrintedPeriod struct {
	DocumentID string
	PayDate    string
	Start, End string
}

// invertedPeriod is the stub's printed period when it ends before it
// starts.
func invertedPeriod(id string, p ReadPaystub) (PrintedPeriod, bool) {
	start, end := Date(p.PayPeriodStart), Date(p.PayPeriodEnd)
	if !start.Valid() || !end.Valid() || end >= start {
		return PrintedPeriod{}, false
	}
	return PrintedPeriod{DocumentID: id, PayDate: p.PayDate, Start: p.PayPeriodStart, End: p.PayPeriodEnd}, true
}

// UploadedW2 is a W-2 an end user uploaded whose figures count: read,
// not suspected nor awaiting review (or accepted by a reviewer), with
// its tax year, box 1 (wages) and box 5 (Medicare wages) read.
type UploadedW2 struct {
	DocumentID string
	W2         W2
	// Wages and MedicareWages are boxes 1 and 5, in cents.
	Wages, MedicareWages int64
	// EmployerEIN is the EIN read, as nine digits ("" when none was).
	EmployerEIN string
	UploadedAt  time.Time
	// ReviewBasis is who reviewed it when a person accepted it
	// ("reviewed by a member of Acme Lending"), "" otherwise.
	ReviewBasis string
}

// EmployerKey is the W-2's employer as documents group employers
// (EmployerKey: the EIN read, else the normalized name).
func (w UploadedW2) EmployerKey() string { return EmployerKey(w.W2.EmployerName, w.EmployerEIN) }

// UploadedW2s picks the end user's uploaded W-2s whose figures count, and
// lists those left out, as DocumentEmployments does paystubs: set aside
// (rejected, suspected, needing review, nothing read), or incomplete (no
// tax year, employer, box 1 or box 5 read: a box not read is never taken
// as 0). Ordered by tax year, newest first, then upload.
func UploadedW2s(docs []Record) ([]UploadedW2, []ExcludedDocument) {
	var out []UploadedW2
	var excluded []ExcludedDocument
	for _, d := range docs {
		b := uploadedOf(d, DocumentW2)
		if b == nil {
			continue
		}
		leftOut := func(reason string) {
			excluded = append(excluded, ExcludedDocument{DocumentID: d.ID, DocumentType: DocumentW2, Reason: reason, Fraud: b.Fraud})
		}
		w := b.ParsedData.W2
		if reason := setAsideReason(b); reason != "" || w == nil {
			leftOut(cmp.Or(reason, ExcludedUnread))
			continue
		}
		box1, box5 := w2Box(w, 1), w2Box(w, 5)
		ein := NormalizeEIN(w.EmployerEIN)
		if _, err := strconv.Atoi(w.TaxYear); err != nil || len(w.TaxYear) != 4 || box1 == nil || box5 == nil ||
			(ein == "" && NormalizeEmployerName(w.EmployerName) == "") {
			leftOut(ExcludedIncomplete)
			continue
		}
		out = append(out, UploadedW2{DocumentID: d.ID, W2: *w, Wages: *box1, MedicareWages: *box5, EmployerEIN: ein,
			UploadedAt: d.CreatedAt, ReviewBasis: reviewBasis(b)})
	}
	slices.SortFunc(out, func(a, b UploadedW2) int {
		return cmp.Or(strings.Compare(b.W2.TaxYear, a.W2.TaxYear), a.UploadedAt.Compare(b.UploadedAt), strings.Compare(a.DocumentID, b.DocumentID))
	})
	slices.SortFunc(excluded, func(a, b ExcludedDocument) int { return strings.Compare(a.DocumentID, b.DocumentID) })
	return out, excluded
}

// w2Box is box 1 or box 5 of an uploaded W-2 as read (nil when not
// read); a platform's W-2, which has no boxes, gives its own figures.
func w2Box(w *W2, box int) *int64 {
	if w.Boxes == nil {
		v := w.TotalWages.Amount
		if box == 5 {
			v = w.MedicareWages.Amount
		}
		return &v
	}
	if box == 5 {
		return w.Boxes.Box5
	}
	return w.Boxes.Box1
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

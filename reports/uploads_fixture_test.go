package reports_test

import (
	"time"

	"payline/domain"
)

// acmeLending is the basis a reviewer's acceptance gives in the
// fixtures: the customer's words.
const acmeLending = "reviewed by a member of Acme Lending"

// readOf is a paystub as a reader would have read it from its file.
func readOf(p domain.Paystub, employee string) domain.ReadPaystub {
	cents := func(m domain.Money) *int64 { v := m.Amount; return &v }
	return domain.ReadPaystub{DocumentType: domain.DocumentPaystub, EmployerName: p.EmployerName, EmployeeName: employee,
		PayDate: p.PayDate.String(), PayPeriodStart: p.PayPeriodStart.String(), PayPeriodEnd: p.PayPeriodEnd.String(),
		GrossPayAmount: cents(p.GrossPayAmount), NetPayAmount: cents(p.NetPayAmount), GrossPayYTD: cents(p.GrossPayYTD),
		NetPayYTD: cents(p.NetPayYTD), TotalTaxes: cents(p.TotalTaxes), TotalDeductions: cents(p.TotalDeductions),
		Earnings: p.Earnings, Taxes: p.Taxes, Deductions: p.Deductions, Currency: "USD"}
}

// uploaded is an end user's uploaded document as stored: what was read,
// the checks' outcome and a person's review, if any.
func uploaded(id, file string, parsed domain.ParsedDocument, fraud domain.DocumentFraud, review *domain.DocumentReview) domain.Record {
	typ := domain.DocumentPaystub
	if parsed.W2 != nil {
		typ = domain.DocumentW2
	}
	return domain.Record{ID: id, Kind: domain.RecordDocument, EndUserID: "golden-user", DocumentType: typ, CreatedAt: goldenNow,
		Document: &domain.DocumentBody{DocumentType: typ, ParsedData: parsed, Fraud: fraud, Review: review, FileName: file}}
}

// uploadedW2 is a W-2 the end user uploaded, its boxes 1 and 5 as read
// (nil: not read).
func uploadedW2(id, year, employer, ein string, box1, box5 *int64) domain.Record {
	w := domain.W2{DocumentType: domain.DocumentW2, EmployerName: employer, EmployerEIN: ein, TaxYear: year,
		Applicant: domain.W2Employee{Name: "Amara Vaughan"}}
	w.FromBoxes(domain.W2Boxes{Box1: box1, Box5: box5})
	return uploaded(id, id+".pdf", domain.ParsedDocument{W2: &w}, domain.DocumentFraud{Status: domain.FraudNotSuspected}, nil)
}

func cents(v int64) *int64 { return &v }

// Fraud outcomes and reviews of the fixtures, as the checks and a
// reviewer record them.
var (
	clean       = domain.DocumentFraud{Status: domain.FraudNotSuspected}
	textLayer   = domain.DocumentFraud{Status: domain.FraudSuspected, Reasons: []domain.FraudReason{{Code: domain.FraudTextLayerMismatch, Kind: domain.ReasonEvidence, Fields: []string{"net_pay_amount"}, Message: `on page 1 the file's text says "1,234.56" where the page shows "2,234.56": something was drawn over the text`}}}
	doubtful    = domain.DocumentFraud{Status: domain.FraudNeedsReview, Reasons: []domain.FraudReason{{Code: domain.FraudArithmeticMismatch, Kind: domain.ReasonDoubt, Fields: []string{"gross_pay_amount", "net_pay_amount"}, Message: "gross pay $2,142.12 less taxes $400.00 and deductions $150.00 is $1,592.12, but the net pay read is $1,529.12"}}}
	implausible = domain.DocumentFraud{Status: domain.FraudNeedsReview, Reasons: []domain.FraudReason{{Code: domain.FraudImplausible, Kind: domain.ReasonDoubt, Fields: []string{"earnings"}, Message: "more hours than a week holds"}}}
)

// reviewed is a completed review with an outcome, on the day after the
// uploads.
func reviewed(outcome string) *domain.DocumentReview {
	at := domain.Timestamp(goldenNow.Add(24 * time.Hour))
	return &domain.DocumentReview{Status: domain.ReviewCompleted, Outcome: outcome, ReviewedAt: &at, ReviewerID: "member-1", Basis: acmeLending}
}

// goldenUploads are what the golden end user uploaded instead of
// connecting Sycamore Publishing Inc: its last six paystubs (the first
// with a figure drawn over its text, the second and fourth with figures
// that do not add up, the third of them rejected by a reviewer and the
// fourth accepted), its 2025 W-2, a 2024 W-2 of Birch Logistics (no
// paystub of it), and a W-2 whose box 5 was not read.
func goldenUploads() []domain.Record {
	stubs := goldenSources()[0].Paystubs
	stubs = stubs[len(stubs)-6:]
	stub := func(i int) domain.ParsedDocument {
		r := readOf(stubs[i], "Amara Vaughan")
		return domain.ParsedDocument{Paystub: &r}
	}
	return []domain.Record{
		uploaded("doc-0", "stub-0.pdf", stub(0), textLayer, &domain.DocumentReview{Status: domain.ReviewRequired}),
		uploaded("doc-1", "stub-1.pdf", stub(1), doubtful, &domain.DocumentReview{Status: domain.ReviewRequired}),
		uploaded("doc-2", "stub-2.pdf", stub(2), doubtful, reviewed(domain.ReviewRejected)),
		uploaded("doc-3", "stub-3.pdf", stub(3), doubtful, reviewed(domain.ReviewAccepted)),
		uploaded("doc-4", "stub-4.pdf", stub(4), clean, nil),
		uploaded("doc-5", "stub-5.pdf", stub(5), clean, nil),
		uploadedW2("w2-sycamore-2025", "2025", "SYCAMORE PUBLISHING INC.", "27-1234567", cents(5_044_000), cents(5_569_486)),
		uploadedW2("w2-birch-2024", "2024", "Birch Logistics LLC", "", cents(4_100_000), cents(4_350_000)),
		uploadedW2("w2-unread-box5", "2024", "Aspen Works", "", cents(1_000_000), nil),
	}
}

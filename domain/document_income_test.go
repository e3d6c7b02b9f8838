package domain_test

import (
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"payline/domain"
)

// upload is an end user's uploaded document as stored.
func upload(id string, parsed domain.ParsedDocument, fraud domain.DocumentFraud, review *domain.DocumentReview) domain.Record {
	typ := domain.DocumentPaystub
	if parsed.W2 != nil {
		typ = domain.DocumentW2
	}
	return domain.Record{ID: id, Kind: domain.RecordDocument, EndUserID: "u", DocumentType: typ, CreatedAt: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC),
		Document: &domain.DocumentBody{DocumentType: typ, ParsedData: parsed, Fraud: fraud, Review: review}}
}

// w2Upload is an uploaded W-2 of a year with its boxes 1 and 5 as read.
func w2Upload(id, year, employer, ein string, box1, box5 *int64, fraud domain.DocumentFraud, review *domain.DocumentReview) domain.Record {
	w := domain.W2{DocumentType: domain.DocumentW2, EmployerName: employer, EmployerEIN: ein, TaxYear: year}
	w.FromBoxes(domain.W2Boxes{Box1: box1, Box5: box5})
	return upload(id, domain.ParsedDocument{W2: &w}, fraud, review)
}

func amount(v int64) *int64 { return &v }

var (
	notSuspected = domain.DocumentFraud{Status: domain.FraudNotSuspected}
	doubted      = domain.DocumentFraud{Status: domain.FraudNeedsReview, Reasons: []domain.FraudReason{{Code: domain.FraudFieldsUncertain, Kind: domain.ReasonDoubt, Fields: []string{"box1"}}}}
	evidenced    = domain.DocumentFraud{Status: domain.FraudSuspected, Reasons: []domain.FraudReason{{Code: domain.FraudTextLayerMismatch, Kind: domain.ReasonEvidence}}}
	accepted     = &domain.DocumentReview{Status: domain.ReviewCompleted, Outcome: domain.ReviewAccepted, Basis: "reviewed by a member of Acme Lending"}
	rejected     = &domain.DocumentReview{Status: domain.ReviewCompleted, Outcome: domain.ReviewRejected, Basis: "reviewed by a member of Acme Lending"}
)

// TestUploadedW2s: an uploaded W-2 counts when its figures may be used
// (not suspected, or accepted by a reviewer) and its tax year, employer,
// box 1 and box 5 were read; every other one is left out with why, as
// paystubs are; a platform's W-2 document is not an upload.
func TestUploadedW2s(t *testing.T) {
	platform := w2Upload("platform", "2025", "Acme", "", amount(1), amount(1), notSuspected, nil)
	account := "0195f0a0-0000-7000-8000-000000000001"
	platform.Document.AccountID = &account
	docs := []domain.Record{
		w2Upload("a-2025", "2025", "Acme Corp.", "12-3456789", amount(5_000_000), amount(5_200_000), notSuspected, nil),
		w2Upload("a-2024", "2024", "ACME", "", amount(4_000_000), amount(4_100_000), doubted, accepted),
		w2Upload("doubt", "2023", "Acme", "", amount(1), amount(1), doubted, &domain.DocumentReview{Status: domain.ReviewRequired}),
		w2Upload("evidence", "2023", "Acme", "", amount(1), amount(1), evidenced, nil),
		w2Upload("refused", "2023", "Acme", "", amount(1), amount(1), doubted, rejected),
		w2Upload("no-box5", "2023", "Acme", "", amount(1), nil, notSuspected, nil),
		w2Upload("no-year", "", "Acme", "", amount(1), amount(1), notSuspected, nil),
		upload("unread", domain.ParsedDocument{}, domain.DocumentFraud{Status: domain.FraudUnavailable}, nil),
		platform,
	}
	docs[7].DocumentType, docs[7].Document.DocumentType = domain.DocumentW2, domain.DocumentW2
	w2s, excluded := domain.UploadedW2s(docs)
	var got []string
	for _, w := range w2s {
		got = append(got, w.DocumentID+" "+w.W2.TaxYear+" "+w.EmployerKey()+" "+w.ReviewBasis)
	}
	want := []string{"a-2025 2025 ein:123456789 ", "a-2024 2024 name:acme reviewed by a member of Acme Lending"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("W-2s that count (-want +got):\n%s", diff)
	}
	if w2s[0].Wages != 5_000_000 || w2s[0].MedicareWages != 5_200_000 {
		t.Errorf("boxes 1 and 5 of %s: %d, %d", w2s[0].DocumentID, w2s[0].Wages, w2s[0].MedicareWages)
	}
	reasons := map[string]string{}
	for _, x := range excluded {
		if x.DocumentType != domain.DocumentW2 {
			t.Errorf("%s left out as a %q", x.DocumentID, x.DocumentType)
		}
		reasons[x.DocumentID] = x.Reason
	}
	wantReasons := map[string]string{"doubt": domain.ExcludedNeedsReview, "evidence": domain.ExcludedSuspected, "refused": domain.ExcludedRejected,
		"no-box5": domain.ExcludedIncomplete, "no-year": domain.ExcludedIncomplete, "unread": domain.ExcludedUnread}
	if diff := cmp.Diff(wantReasons, reasons); diff != "" {
		t.Errorf("W-2s left out (-want +got):\n%s", diff)
	}
}

// TestDocumentEmploymentsSayWhatTheyRestOn: an employment of uploaded
// paystubs names the stubs a reviewer accepted and the review, keeps the
// pay periods printed backwards (income takes their pay dates), and its
// left-out stubs say they are paystubs.
func TestDocumentEmploymentsSayWhatTheyRestOn(t *testing.T) {
	stub := func(pay, start, end string) domain.ParsedDocument {
		return domain.ParsedDocument{Paystub: &domain.ReadPaystub{DocumentType: domain.DocumentPaystub, EmployerName: "Acme", PayDate: pay,
			PayPeriodStart: start, PayPeriodEnd: end, GrossPayAmount: amount(100_000), NetPayAmount: amount(80_000)}}
	}
	docs := []domain.Record{
		upload("s-1", stub("2026-02-06", "2026-01-26", "2026-02-01"), notSuspected, nil),
		upload("s-2", stub("2026-02-13", "2026-02-08", "2026-02-02"), doubted, accepted),
		upload("s-3", stub("2026-02-20", "2026-02-09", "2026-02-15"), doubted, nil),
	}
	emps, excluded := domain.DocumentEmployments(docs)
	if len(emps) != 1 || !slices.Equal(emps[0].DocumentIDs, []string{"s-1", "s-2"}) || !slices.Equal(emps[0].ReviewedIDs, []string{"s-2"}) ||
		!slices.Equal(emps[0].ReviewBases, []string{"reviewed by a member of Acme Lending"}) {
		t.Fatalf("employments %+v", emps)
	}
	want := []domain.PrintedPeriod{{DocumentID: "s-2", PayDate: "2026-02-13", Start: "2026-02-08", End: "2026-02-02"}}
	if diff := cmp.Diff(want, emps[0].InvertedPeriods); diff != "" {
		t.Errorf("inverted periods (-want +got):\n%s", diff)
	}
	if p := emps[0].Paystubs[1]; p.PayPeriodStart != "2026-02-13" || p.PayPeriodEnd != "2026-02-13" {
		t.Errorf("an inverted period counts as %s to %s, want its pay date", p.PayPeriodStart, p.PayPeriodEnd)
	}
	if len(excluded) != 1 || excluded[0].DocumentID != "s-3" || excluded[0].Reason != domain.ExcludedNeedsReview || excluded[0].DocumentType != domain.DocumentPaystub {
		t.Errorf("excluded %+v", excluded)
	}
}

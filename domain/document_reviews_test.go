package domain_test

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"payline/domain"
	"payline/storage"
)

// fakePages draws a file's pages as text naming them: it has pages pages.
type fakePages struct{ pages int }

func (f fakePages) RenderPage(_ context.Context, contentType string, data []byte, page, dpi int) ([]byte, string, error) {
	if page > f.pages {
		return nil, "", domain.ErrNoSuchPage
	}
	return []byte(contentType + " page " + string(rune('0'+page))), "image/png", nil
}

// reviews is the review service of a world, over its real stores.
func (w *world) reviews() *domain.DocumentReviewService {
	return domain.NewDocumentReviewService(w.tx, w.tx, w.tx.Reports(), fakePages{pages: 2}, w.reporter, w.clock)
}

// member is a signed-in member of the world's customer with the role.
func (w *world) member(role domain.Role) domain.Session {
	return domain.Session{MemberID: domain.NewID(), CustomerID: w.sc.CustomerID, WorkspaceName: "acme", Email: string(role) + "@acme.test",
		Role: role, Mode: w.sc.Mode}
}

// upload stores files as erin's paystubs (or W-2s) through Link and
// returns the documents stored, by file name.
func (w *world) upload(docType string, files ...domain.UploadFile) map[string]domain.Record {
	w.t.Helper()
	_, value := w.mustToken(domain.LinkTokenRequest{})
	if _, err := w.link.UploadDocuments(w.ctx, value, docType, files); err != nil {
		w.t.Fatalf("UploadDocuments: %v", err)
	}
	docs, err := w.accounts.Documents(w.ctx, w.sc, "erin", docType, domain.PageRequest{Limit: 100})
	if err != nil {
		w.t.Fatal(err)
	}
	out := map[string]domain.Record{}
	for _, d := range docs.Items {
		out[d.Document.FileName] = d
	}
	return out
}

// document reads one of erin's documents as stored.
func (w *world) document(id string) domain.Record {
	w.t.Helper()
	r, err := w.tx.Records().Record(w.ctx, w.sc, domain.RecordDocument, id)
	if err != nil {
		w.t.Fatal(err)
	}
	return r
}

// unbalanced is a stub whose net pay does not follow from its gross, taxes
// and deductions: a doubt (ARITHMETIC_MISMATCH), so it needs review.
func unbalanced(n int) domain.ReadPaystub {
	p := cleanStub(n)
	p.NetPayAmount = cents(165000)
	return p
}

// TestDocumentReviewAccepted goes through the queue as a reviewer would,
// on both databases: an upload the checks doubt is stored with a review
// required and documents.review_required; it is listed in the queue
// (newest first, paged, by end user) and its page is drawn; a reviewer
// accepts it with a correction, which stores the corrected figure and
// the review (who, when, before and after, the basis), an audit entry
// naming the field and documents.reviewed, all at once; the document then
// counts as income with the basis; a second review is refused.
func TestDocumentReviewAccepted(t *testing.T) {
	bothDialects(t, domain.ModeSandbox, func(t *testing.T, w *world) {
		missing := cleanStub(3)
		missing.GrossPayAmount = nil
		docs := w.upload(domain.DocumentPaystub, stubFile(t, "clean.pdf", cleanStub(1)), stubFile(t, "off.pdf", unbalanced(2)),
			stubFile(t, "no-gross.pdf", missing))
		off, noGross, clean := docs["off.pdf"], docs["no-gross.pdf"], docs["clean.pdf"]
		if off.Document.Review == nil || off.Document.Review.Status != domain.ReviewRequired || off.Document.Fraud.Status != domain.FraudNeedsReview {
			t.Fatalf("the unbalanced stub: fraud %+v, review %+v", off.Document.Fraud, off.Document.Review)
		}
		if clean.Document.Review != nil {
			t.Fatalf("the clean stub needs a review: %+v", clean.Document.Review)
		}
		if n := w.countEvents(domain.EventDocumentsReviewRequired); n != 2 {
			t.Errorf("%d documents.review_required events, want 2", n)
		}
		s := w.reviews()

		// The queue: the two in doubt, newest first, a page at a time.
		first, err := s.Queue(w.ctx, w.sc, domain.ReviewFilter{Status: domain.ReviewRequired}, domain.PageRequest{Limit: 1})
		if err != nil || len(first.Items) != 1 || first.Next == nil {
			t.Fatalf("the queue's first page: %+v, %v", first, err)
		}
		second, err := s.Queue(w.ctx, w.sc, domain.ReviewFilter{Status: domain.ReviewRequired}, domain.PageRequest{Limit: 1, Cursor: first.Next})
		if err != nil || len(second.Items) != 1 || second.Next != nil {
			t.Fatalf("the queue's second page: %+v, %v", second, err)
		}
		queued := []string{first.Items[0].ID, second.Items[0].ID}
		if want := []string{noGross.ID, off.ID}; !(queued[0] == want[0] && queued[1] == want[1]) && !(queued[0] == want[1] && queued[1] == want[0]) {
			t.Errorf("queued %v, want %v", queued, want)
		}
		if first.Items[0].Link == nil {
			t.Error("a queued document without its download link")
		}
		if other, err := s.Queue(w.ctx, w.sc, domain.ReviewFilter{Status: domain.ReviewRequired, EndUserID: "someone-else"}, domain.PageRequest{Limit: 25}); err != nil || len(other.Items) != 0 {
			t.Errorf("another end user's queue: %+v, %v", other, err)
		}

		// The page beside the fields.
		img, typ, err := s.Page(w.ctx, w.sc, "erin", off.ID, 1)
		if err != nil || typ != "image/png" || string(img) != "application/pdf page 1" {
			t.Errorf("page 1: %q %s %v", img, typ, err)
		}
		_, _, err = s.Page(w.ctx, w.sc, "erin", off.ID, 3)
		wantCode(t, err, domain.CodeDocumentPageNotFound)

		// Accepted, with the net pay corrected from the page.
		w.clock.Advance(time.Hour)
		rita := w.member(domain.RoleReviewer)
		got, err := s.Review(w.ctx, rita, "erin", off.ID, domain.ReviewInput{Outcome: domain.ReviewAccepted,
			Corrections: map[string]string{"net_pay_amount": "$1,600.00", "gross_pay_amount": "2000"}, Note: "  net pay checked on the page  "})
		if err != nil {
			t.Fatalf("Review: %v", err)
		}
		at := domain.Timestamp(w.clock.Now())
		want := &domain.DocumentReview{Status: domain.ReviewCompleted, Outcome: domain.ReviewAccepted, ReviewedAt: &at, ReviewerID: rita.MemberID,
			Basis: "reviewed by a member of acme", Note: "net pay checked on the page",
			Corrections: []domain.FieldCorrection{{Field: "net_pay_amount", Before: "165000", After: "160000"}}}
		stored := w.document(off.ID)
		if diff := cmp.Diff(want, stored.Document.Review, cmp.Comparer(func(a, b domain.Timestamp) bool { return time.Time(a).Equal(time.Time(b)) })); diff != "" {
			t.Errorf("the stored review (-want +got):\n%s", diff)
		}
		if p := stored.Document.ParsedData.Paystub; *p.NetPayAmount != 160000 || *p.GrossPayAmount != 200000 {
			t.Errorf("the stored stub: net %d, gross %d", *p.NetPayAmount, *p.GrossPayAmount)
		}
		if got.Document.Review.Status != domain.ReviewCompleted || got.Link == nil {
			t.Errorf("Review answered %+v", got)
		}
		if stored.Document.Fraud.Status != domain.FraudNeedsReview {
			t.Errorf("the checks' outcome changed: %+v", stored.Document.Fraud)
		}

		// Audited, and announced, in the same transaction.
		log, err := w.tx.Audit().AuditLog(w.ctx, w.sc, 10)
		if err != nil || len(log) == 0 {
			t.Fatalf("audit log: %v", err)
		}
		e := log[0]
		if e.Action != domain.AuditDocumentReviewed || e.Actor != "member:reviewer@acme.test" || e.Target != off.ID ||
			e.Detail != "accepted; corrected net_pay_amount" || !e.At.Equal(w.clock.Now()) {
			t.Errorf("audit entry %+v", e)
		}
		if strings.Contains(e.Detail, "1600") {
			t.Errorf("the audit log holds a figure: %q", e.Detail)
		}
		payload := w.lastPayload(domain.EventDocumentsReviewed)
		if payload["document_id"] != off.ID || payload["end_user_id"] != "erin" || payload["outcome"] != "accepted" ||
			payload["reviewed_at"] != domain.APITime(w.clock.Now()) {
			t.Errorf("documents.reviewed payload %v", payload)
		}
		if c, _ := payload["corrections"].([]any); len(c) != 1 {
			t.Errorf("documents.reviewed corrections %v", payload["corrections"])
		}

		// It counts now, with the basis; the one still in doubt does not.
		all, err := w.accounts.Documents(w.ctx, w.sc, "erin", domain.DocumentPaystub, domain.PageRequest{Limit: 25})
		if err != nil {
			t.Fatal(err)
		}
		emps, excluded := domain.DocumentEmployments(all.Items)
		if len(emps) != 1 || len(emps[0].Paystubs) != 2 || len(emps[0].ReviewBases) != 1 || emps[0].ReviewBases[0] != "reviewed by a member of acme" {
			t.Errorf("employments %+v", emps)
		}
		if len(excluded) != 1 || excluded[0].DocumentID != noGross.ID || excluded[0].Reason != domain.ExcludedNeedsReview {
			t.Errorf("excluded %+v", excluded)
		}

		// Once only.
		_, err = s.Review(w.ctx, w.member(domain.RoleAdministrator), "erin", off.ID, domain.ReviewInput{Outcome: domain.ReviewRejected, Note: "no"})
		wantCode(t, err, domain.CodeDocumentAlreadyReviewed)
		_, err = s.Review(w.ctx, rita, "erin", clean.ID, domain.ReviewInput{Outcome: domain.ReviewAccepted})
		wantCode(t, err, domain.CodeDocumentReviewNotRequired)

		// Accepting the stub without a gross pay says to fill it in.
		_, err = s.Review(w.ctx, rita, "erin", noGross.ID, domain.ReviewInput{Outcome: domain.ReviewAccepted})
		wantCode(t, err, domain.CodeMissingFields)
		if !strings.Contains(err.Error(), "fill in the gross pay") || !strings.Contains(err.Error(), "corrections.gross_pay_amount") {
			t.Errorf("the refusal says %q", err)
		}
		if _, err := s.Review(w.ctx, w.member(domain.RoleAdministrator), "erin", noGross.ID, domain.ReviewInput{Outcome: domain.ReviewAccepted,
			Corrections: map[string]string{"gross_pay_amount": "2,000.00"}}); err != nil {
			t.Fatalf("accepting with the gross pay filled in: %v", err)
		}

		// The queue of completed reviews lists both; none is required.
		done, err := s.Queue(w.ctx, w.sc, domain.ReviewFilter{Status: domain.ReviewCompleted}, domain.PageRequest{Limit: 25})
		if err != nil || len(done.Items) != 2 {
			t.Errorf("completed: %d, %v", len(done.Items), err)
		}
		left, err := s.Queue(w.ctx, w.sc, domain.ReviewFilter{Status: domain.ReviewRequired}, domain.PageRequest{Limit: 25})
		if err != nil || len(left.Items) != 0 {
			t.Errorf("still required: %d, %v", len(left.Items), err)
		}
		if n := w.countEvents(domain.EventDocumentsReviewed); n != 2 {
			t.Errorf("%d documents.reviewed events, want 2", n)
		}
	})
}

// lastPayload is the payload of the scope's latest event of the name.
func (w *world) lastPayload(name string) map[string]any {
	w.t.Helper()
	evs, err := w.tx.Events().ListEvents(w.ctx, w.sc)
	if err != nil {
		w.t.Fatal(err)
	}
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Name == name {
			var p map[string]any
			if err := json.Unmarshal(evs[i].Payload, &p); err != nil {
				w.t.Fatal(err)
			}
			return p
		}
	}
	w.t.Fatalf("no %s event", name)
	return nil
}

// TestDocumentReviewRefusals: every bad decision is refused with the
// field named, before anything is written: the document stays required,
// with no audit entry and no event; roles other than administrator and
// reviewer, other tenants and other end users are refused.
func TestDocumentReviewRefusals(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	off := w.upload(domain.DocumentPaystub, stubFile(t, "off.pdf", unbalanced(1)))["off.pdf"]
	s := w.reviews()
	rita := w.member(domain.RoleReviewer)
	accept := func(field, value string) domain.ReviewInput {
		return domain.ReviewInput{Outcome: domain.ReviewAccepted, Corrections: map[string]string{field: value}}
	}
	tests := []struct {
		name  string
		sess  domain.Session
		user  string
		in    domain.ReviewInput
		code  string
		field string // named in the message
	}{
		{"no outcome", rita, "erin", domain.ReviewInput{}, domain.CodeMissingFields, "outcome"},
		{"an unknown outcome", rita, "erin", domain.ReviewInput{Outcome: "maybe"}, domain.CodeInvalidFields, "outcome"},
		{"rejected without a note", rita, "erin", domain.ReviewInput{Outcome: domain.ReviewRejected}, domain.CodeMissingFields, "note"},
		{"rejected with corrections", rita, "erin", domain.ReviewInput{Outcome: domain.ReviewRejected, Note: "forged",
			Corrections: map[string]string{"net_pay_amount": "1"}}, domain.CodeInvalidFields, "corrections"},
		{"a note too long", rita, "erin", domain.ReviewInput{Outcome: domain.ReviewAccepted, Note: strings.Repeat("x", domain.MaxReviewNote+1)}, domain.CodeInvalidFields, "note"},
		{"an unknown field", rita, "erin", accept("bonus", "1"), domain.CodeInvalidFields, "corrections.bonus"},
		{"a W-2 box on a paystub", rita, "erin", accept("box1", "1"), domain.CodeInvalidFields, "corrections.box1"},
		{"three decimals", rita, "erin", accept("net_pay_amount", "1600.001"), domain.CodeInvalidFields, "corrections.net_pay_amount"},
		{"a negative amount", rita, "erin", accept("net_pay_amount", "-1600"), domain.CodeInvalidFields, "corrections.net_pay_amount"},
		{"commas out of place", rita, "erin", accept("gross_pay_amount", "1,60,0.00"), domain.CodeInvalidFields, "corrections.gross_pay_amount"},
		{"an exponent", rita, "erin", accept("gross_pay_amount", "1e3"), domain.CodeInvalidFields, "corrections.gross_pay_amount"},
		{"words", rita, "erin", accept("total_taxes", "three hundred"), domain.CodeInvalidFields, "corrections.total_taxes"},
		{"too much", rita, "erin", accept("gross_pay_ytd", "100000000.01"), domain.CodeInvalidFields, "corrections.gross_pay_ytd"},
		{"a date written the US way", rita, "erin", accept("pay_date", "01/09/2026"), domain.CodeInvalidFields, "corrections.pay_date"},
		{"a date that does not exist", rita, "erin", accept("pay_date", "2026-02-30"), domain.CodeInvalidFields, "corrections.pay_date"},
		{"a period that ends before it starts", rita, "erin", accept("pay_period_start", "2026-03-01"), domain.CodeInvalidFields, "corrections.pay_period_start"},
		{"an EIN of eight digits", rita, "erin", accept("employer_ein", "12-345678"), domain.CodeInvalidFields, "corrections.employer_ein"},
		{"a name with a control character", rita, "erin", accept("employer_name", "Acme\x07"), domain.CodeInvalidFields, "corrections.employer_name"},
		{"clearing the net pay", rita, "erin", accept("net_pay_amount", ""), domain.CodeMissingFields, "corrections.net_pay_amount"},
		{"a viewer", w.member(domain.RoleViewer), "erin", accept("net_pay_amount", "1600"), domain.CodeRoleForbidden, "reviewer"},
		{"a developer", w.member(domain.RoleDeveloper), "erin", accept("net_pay_amount", "1600"), domain.CodeRoleForbidden, "reviewer"},
		{"another end user's document", rita, "frank", accept("net_pay_amount", "1600"), domain.CodeDocumentNotFound, off.ID},
		{"another customer's member", domain.Session{MemberID: domain.NewID(), CustomerID: domain.NewID(), WorkspaceName: "Globex",
			Email: "gus@globex.test", Role: domain.RoleAdministrator, Mode: w.sc.Mode}, "erin", accept("net_pay_amount", "1600"), domain.CodeDocumentNotFound, off.ID},
		{"the same customer in another mode", domain.Session{MemberID: domain.NewID(), CustomerID: w.sc.CustomerID, WorkspaceName: "acme",
			Email: "ada@acme.test", Role: domain.RoleAdministrator, Mode: domain.ModeProduction}, "erin", accept("net_pay_amount", "1600"), domain.CodeDocumentNotFound, off.ID},
	}
	events := len(w.events())
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Review(w.ctx, tc.sess, tc.user, off.ID, tc.in)
			wantCode(t, err, tc.code)
			if !strings.Contains(err.Error(), tc.field) {
				t.Errorf("the refusal %q does not name %s", err, tc.field)
			}
		})
	}
	if d := w.document(off.ID); d.Document.Review.Status != domain.ReviewRequired || *d.Document.ParsedData.Paystub.NetPayAmount != 165000 {
		t.Errorf("a refused review changed the document: %+v", d.Document.Review)
	}
	if len(w.events()) != events {
		t.Error("a refused review wrote an event")
	}
	if log, _ := w.tx.Audit().AuditLog(w.ctx, w.sc, 10); slices.ContainsFunc(log, func(e domain.AuditEntry) bool { return e.Action == domain.AuditDocumentReviewed }) {
		t.Errorf("a refused review wrote an audit entry: %+v", log)
	}

	// Another tenant sees nothing of the queue, nor of the pages.
	globex := domain.Scope{CustomerID: domain.NewID(), Mode: w.sc.Mode}
	if q, err := s.Queue(w.ctx, globex, domain.ReviewFilter{}, domain.PageRequest{Limit: 25}); err != nil || len(q.Items) != 0 {
		t.Errorf("another customer's queue: %d, %v", len(q.Items), err)
	}
	_, _, err := s.Page(w.ctx, globex, "erin", off.ID, 1)
	wantCode(t, err, domain.CodeDocumentNotFound)
	_, _, err = s.Page(w.ctx, w.sc, "erin", off.ID, 0)
	wantCode(t, err, domain.CodeInvalidFields)
	_, err = s.Queue(w.ctx, w.sc, domain.ReviewFilter{Status: "maybe"}, domain.PageRequest{Limit: 25})
	wantCode(t, err, domain.CodeInvalidFields)
}

// TestDocumentReviewRejected: a rejected document keeps what was read,
// records the note and never counts.
func TestDocumentReviewRejected(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	off := w.upload(domain.DocumentPaystub, stubFile(t, "off.pdf", unbalanced(1)))["off.pdf"]
	s := w.reviews()
	if _, err := s.Review(w.ctx, w.member(domain.RoleAdministrator), "erin", off.ID, domain.ReviewInput{Outcome: domain.ReviewRejected,
		Note: "the employer says this stub is not theirs"}); err != nil {
		t.Fatal(err)
	}
	d := w.document(off.ID)
	if r := d.Document.Review; r.Outcome != domain.ReviewRejected || r.Basis != "" || r.Note != "the employer says this stub is not theirs" || len(r.Corrections) != 0 {
		t.Errorf("review %+v", r)
	}
	if d.Document.CountsAsIncome() {
		t.Error("a rejected document counts")
	}
	_, excluded := domain.DocumentEmployments([]domain.Record{d})
	if len(excluded) != 1 || excluded[0].Reason != domain.ExcludedRejected {
		t.Errorf("excluded %+v", excluded)
	}
	if log, _ := w.tx.Audit().AuditLog(w.ctx, w.sc, 1); len(log) != 1 || log[0].Detail != "rejected" {
		t.Errorf("audit %+v", log)
	}
}

// TestDocumentReviewW2: a W-2's boxes are corrected through its boxes, its
// figures follow (W2.FromBoxes), and accepting needs its tax year.
func TestDocumentReviewW2(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	// The fake reads "W-2 odd" as a W-2 edited a week after it was made:
	// a doubt, so it needs a review.
	doc := w.upload(domain.DocumentW2, domain.UploadFile{Name: "w2.pdf", Data: []byte("%PDF-1.4 W-2 odd")})["w2.pdf"]
	if doc.Document.Review == nil {
		t.Fatalf("the W-2 needs no review: %+v", doc.Document.Fraud)
	}
	s := w.reviews()
	admin := w.member(domain.RoleAdministrator)
	_, err := s.Review(w.ctx, admin, "erin", doc.ID, domain.ReviewInput{Outcome: domain.ReviewAccepted,
		Corrections: map[string]string{"box1": "51,234.56"}})
	wantCode(t, err, domain.CodeMissingFields)
	if !strings.Contains(err.Error(), "the tax year") {
		t.Errorf("the refusal says %q", err)
	}
	if _, err := s.Review(w.ctx, admin, "erin", doc.ID, domain.ReviewInput{Outcome: domain.ReviewAccepted,
		Corrections: map[string]string{"box1": "51,234.56", "box2": "4000", "tax_year": "2025", "employer_ein": "123456789",
			"employer_name": "Acme Corp"}}); err != nil {
		t.Fatal(err)
	}
	w2 := w.document(doc.ID).Document.ParsedData.W2
	if *w2.Boxes.Box1 != 5_123_456 || w2.TotalWages.Amount != 5_123_456 || w2.FederalTaxes.Amount != 400_000 ||
		w2.TaxYear != "2025" || w2.EmployerEIN != "12-3456789" || w2.EmployerName != "Acme Corp" {
		t.Errorf("the corrected W-2: %+v boxes %+v", w2, w2.Boxes)
	}
	fields := []string{}
	for _, c := range w.document(doc.ID).Document.Review.Corrections {
		fields = append(fields, c.Field)
	}
	if diff := cmp.Diff([]string{"tax_year", "employer_name", "employer_ein", "box1", "box2"}, fields); diff != "" {
		t.Errorf("corrections in the table's order (-want +got):\n%s", diff)
	}
}

// failingAudit is a review transaction whose audit log refuses writes.
type failingAudit struct{ domain.DocumentReviewTx }

func (f failingAudit) Audit() domain.AuditStore { return refusingAudit{} }

type refusingAudit struct{ domain.AuditStore }

func (refusingAudit) AppendAudit(context.Context, domain.AuditEntry) error {
	return errors.New("the audit log is full")
}

type auditFailingTx struct{ *storage.Transactor }

func (t auditFailingTx) InDocumentReviewTx(ctx context.Context, fn func(context.Context, domain.DocumentReviewTx) error) error {
	return t.Transactor.InDocumentReviewTx(ctx, func(ctx context.Context, tx domain.DocumentReviewTx) error {
		return fn(ctx, failingAudit{tx})
	})
}

// TestDocumentReviewIsOneTransaction: when the audit entry cannot be
// written, the review fails whole: the document is as it was and no event
// was written.
func TestDocumentReviewIsOneTransaction(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	off := w.upload(domain.DocumentPaystub, stubFile(t, "off.pdf", unbalanced(1)))["off.pdf"]
	s := domain.NewDocumentReviewService(w.tx, auditFailingTx{w.tx}, w.tx.Reports(), fakePages{pages: 1}, nil, w.clock)
	events := len(w.events())
	_, err := s.Review(w.ctx, w.member(domain.RoleReviewer), "erin", off.ID, domain.ReviewInput{Outcome: domain.ReviewAccepted,
		Corrections: map[string]string{"net_pay_amount": "1600"}})
	if err == nil || !strings.Contains(err.Error(), "audit log is full") {
		t.Fatalf("err = %v", err)
	}
	if d := w.document(off.ID); d.Document.Review.Status != domain.ReviewRequired || *d.Document.ParsedData.Paystub.NetPayAmount != 165000 {
		t.Errorf("the document changed without its audit entry: %+v", d.Document.Review)
	}
	if len(w.events()) != events {
		t.Error("an event was written without its audit entry")
	}
}

// TestParseAmountText reads amounts as people type them, into cents.
func TestParseAmountText(t *testing.T) {
	for in, want := range map[string]int64{"1234.56": 123456, "1,234.56": 123456, "$1,234.5": 123450, " $ 12 ": 1200, "0": 0,
		"1,000,000": 100_000_000, "0.07": 7} {
		if got, err := domain.ParseAmountText(in); err != nil || got != want {
			t.Errorf("%q: %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-1", "(5.00)", "1.234", "12,34", "1e2", "1.2.3", "abc", "1,234,56", "100000000.01", "0x10"} {
		if got, err := domain.ParseAmountText(in); err == nil {
			t.Errorf("%q: %d, want a refusal", in, got)
		}
	}
}

// typedDollars is the grammar ParseAmountText takes, written
// independently: an optional $, digits (grouped by threes with commas, or
// not), at most two decimals.
var typedDollars = regexp.MustCompile(`^\$?\s*((0|[1-9][0-9]*)|([1-9][0-9]{0,2}(,[0-9]{3})+))(\.[0-9]{1,2})?$`)

// FuzzParseAmountText: whatever a reviewer types, ParseAmountText never
// panics; what it takes is in the grammar, at most MaxReviewedCents, and
// its dollars read back to the same cents.
func FuzzParseAmountText(f *testing.F) {
	for _, seed := range []string{"1,972.98", "$1,972.98", "1972.985", "-5", "(5)", "1,23", "1e3", "0", "100000000.00", "100000000.01", "$", ",", "1.", ".5"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		cents, err := domain.ParseAmountText(text)
		if err != nil {
			return
		}
		if !typedDollars.MatchString(strings.TrimSpace(text)) {
			t.Fatalf("%q taken as %d cents", text, cents)
		}
		if cents < 0 || cents > domain.MaxReviewedCents {
			t.Fatalf("%q: %d cents out of range", text, cents)
		}
		if back, err := domain.ParseAmountText(domain.USD(cents).Decimal()); err != nil || back != cents {
			t.Fatalf("%q: %s reads back as %d, %v", text, domain.USD(cents).Decimal(), back, err)
		}
	})
}

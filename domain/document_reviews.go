package domain

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// The review queue: uploaded paystubs and W-2s the checks left in doubt
// (needs_review, or suspected) wait for a person, a workspace member who
// is an administrator or a reviewer, who reads the page beside what was
// read from it and accepts the document, correcting fields if need be,
// or rejects it. An accepted document counts toward income with the basis
// "reviewed by a member of <customer>" (DocumentEmployments); a rejected
// one never does. Each document is reviewed once.

// ListDocumentReviews is the review queue's list name, for its cursors.
const ListDocumentReviews = "document_reviews"

// ReviewPageDPI is how finely a page is drawn for a reviewer: a letter
// page is 1275 × 1650 pixels, enough to check a figure by eye.
const ReviewPageDPI = 150

// MaxReviewNote bounds a review's note, in characters.
const MaxReviewNote = 2000

// ReviewFilter narrows the review queue: the documents whose review has
// Status (ReviewRequired or ReviewCompleted; "" for either), of one end
// user when EndUserID is set.
type ReviewFilter struct {
	Status    string
	EndUserID string
}

// ParseReviewStatus reads the queue's status filter: required (the
// default, when empty), completed, or all.
func ParseReviewStatus(s string) (string, error) {
	switch s {
	case "", ReviewRequired:
		return ReviewRequired, nil
	case ReviewCompleted:
		return ReviewCompleted, nil
	case "all":
		return "", nil
	}
	return "", Errorf(KindInvalid, CodeInvalidFields, "status: must be required, completed or all, got %q", s)
}

// DocumentReviewStore reads the review queue and its documents.
type DocumentReviewStore interface {
	// DocumentReviews pages the scope's documents that have a review of
	// the filter's status, newest upload first.
	DocumentReviews(ctx context.Context, s Scope, f ReviewFilter, p PageRequest) (Page[Record], error)
	// Record returns ErrNoRows when the scope has no such record.
	Record(ctx context.Context, s Scope, kind, id string) (Record, error)
}

// ReviewedDocumentStore changes a document under review, in the review's
// transaction.
type ReviewedDocumentStore interface {
	// DocumentForUpdate reads one of the scope's documents and holds it
	// until the transaction ends, so two reviews of it cannot both pass
	// the check that it is still required. ErrNoRows when the scope has
	// none with the id.
	DocumentForUpdate(ctx context.Context, s Scope, id string) (Record, error)
	// UpdateDocument replaces the body of one of the scope's documents
	// (and the review status the queue reads with it). ErrNoRows when the
	// scope has none with the id.
	UpdateDocument(ctx context.Context, s Scope, r Record) error
}

// DocumentReviewTx is what a review changes in its one transaction: the
// document, the audit log, and the documents.reviewed event with its
// deliveries.
type DocumentReviewTx interface {
	EventTx
	ReviewedDocuments() ReviewedDocumentStore
	Audit() AuditStore
}

// DocumentReviewTransactor runs a review in one transaction; rolled back
// when fn returns an error.
type DocumentReviewTransactor interface {
	InDocumentReviewTx(ctx context.Context, fn func(ctx context.Context, tx DocumentReviewTx) error) error
}

// DocumentFiles finds the file a document was read from.
type DocumentFiles interface {
	// File finds a file by id in any tenant (the caller checks whose it
	// is). ErrNoRows if none.
	File(ctx context.Context, id string) (File, error)
}

// DocumentLinker gives documents of a list fresh download links (the
// Reporter does).
type DocumentLinker interface {
	DocumentLinks(ctx context.Context, s Scope, docs []Record) []DocumentLink
}

// DocumentReviewService keeps the review queue: lists it, draws a
// document's pages for the person reviewing it, and records reviews.
type DocumentReviewService struct {
	docs  DocumentReviewStore
	tx    DocumentReviewTransactor
	files DocumentFiles
	pages PageRenderer
	links DocumentLinker
	clock Clock
}

// NewDocumentReviewService wires the review use cases: docs reads the
// queue, tx writes a review with its audit entry and event, files and
// pages draw a document's pages, links gives listed documents download
// links (nil: none).
func NewDocumentReviewService(docs DocumentReviewStore, tx DocumentReviewTransactor, files DocumentFiles, pages PageRenderer,
	links DocumentLinker, clock Clock) *DocumentReviewService {
	return &DocumentReviewService{docs: docs, tx: tx, files: files, pages: pages, links: links, clock: clock}
}

// Queue pages the scope's uploaded documents under review, newest upload
// first, each with a fresh download link. Errors: INVALID_FIELDS for a
// bad filter.
func (s *DocumentReviewService) Queue(ctx context.Context, sc Scope, f ReviewFilter, p PageRequest) (Page[Record], error) {
	if f.Status != "" && f.Status != ReviewRequired && f.Status != ReviewCompleted {
		return Page[Record]{}, Errorf(KindInvalid, CodeInvalidFields, "status: must be required or completed, got %q", f.Status)
	}
	if f.EndUserID != "" {
		if err := CheckIDText("end_user_id", f.EndUserID); err != nil {
			return Page[Record]{}, err
		}
	}
	page, err := s.docs.DocumentReviews(ctx, sc, f, p)
	if err != nil {
		return Page[Record]{}, err
	}
	if s.links != nil {
		links := s.links.DocumentLinks(ctx, sc, page.Items)
		for i := range page.Items {
			page.Items[i].Link = &links[i]
		}
	}
	return page, nil
}

// document is one of the end user's uploaded documents in the scope.
// Errors: INVALID_FIELDS, DOCUMENT_NOT_FOUND (another end user's or
// tenant's included).
func (s *DocumentReviewService) document(ctx context.Context, sc Scope, endUserID, id string) (Record, error) {
	if err := CheckID("document_id", id); err != nil {
		return Record{}, err
	}
	r, err := s.docs.Record(ctx, sc, RecordDocument, id)
	if errors.Is(err, ErrNoRows) || (err == nil && (r.EndUserID != endUserID || r.Document == nil)) {
		return Record{}, Errorf(KindNotFound, CodeDocumentNotFound, "end user %q has no document %s", endUserID, id)
	}
	return r, err
}

// Page draws a page (from 1) of the file an end user's uploaded document
// was read from, for the person reviewing it: an image and its content
// type. Errors: INVALID_FIELDS for a page under 1, DOCUMENT_NOT_FOUND,
// DOCUMENT_PAGE_NOT_FOUND past the file's last page or for a document
// with no file of its own (one Payline made).
func (s *DocumentReviewService) Page(ctx context.Context, sc Scope, endUserID, documentID string, page int) ([]byte, string, error) {
	if page < 1 {
		return nil, "", Errorf(KindInvalid, CodeInvalidFields, "page: pages count from 1, got %d", page)
	}
	doc, err := s.document(ctx, sc, endUserID, documentID)
	if err != nil {
		return nil, "", err
	}
	noPage := Errorf(KindNotFound, CodeDocumentPageNotFound, "document %s has no page %d", doc.ID, page)
	if doc.Document.AccountID != nil {
		return nil, "", Errorf(KindNotFound, CodeDocumentPageNotFound, "document %s was not uploaded: it has no pages to draw (download its PDF instead)", doc.ID)
	}
	f, err := s.files.File(ctx, doc.ID)
	if errors.Is(err, ErrNoRows) || (err == nil && f.Scope() != sc) {
		return nil, "", noPage
	}
	if err != nil {
		return nil, "", err
	}
	img, typ, err := s.pages.RenderPage(ctx, f.ContentType, f.Body, page, ReviewPageDPI)
	if errors.Is(err, ErrNoSuchPage) {
		return nil, "", noPage
	}
	if err != nil {
		return nil, "", fmt.Errorf("draw page %d of document %s: %w", page, doc.ID, err)
	}
	return img, typ, nil
}

// ReviewInput is a reviewer's decision on a document: accepted or
// rejected, the corrections of an accepted one (field name to the value
// as text: CorrectableFields names them), and a note (required to reject).
type ReviewInput struct {
	Outcome     string
	Corrections map[string]string
	Note        string
}

// check validates the decision's shape, before any document is read.
func (in ReviewInput) check() error {
	var p Problems
	switch in.Outcome {
	case ReviewAccepted, ReviewRejected:
	case "":
		p.Missing("outcome")
	default:
		p.Invalid("outcome", "must be accepted or rejected, got %q", in.Outcome)
	}
	note := strings.TrimSpace(in.Note)
	switch {
	case utf8.RuneCountInString(note) > MaxReviewNote:
		p.Invalid("note", "must be at most %d characters", MaxReviewNote)
	case !storable(note):
		p.Invalid("note", "must be text (valid UTF-8 without NUL characters)")
	case in.Outcome == ReviewRejected && note == "":
		p.Missing("note")
	}
	if in.Outcome == ReviewRejected && len(in.Corrections) > 0 {
		p.Invalid("corrections", "a rejected document is not corrected: leave corrections out, and say why in the note")
	}
	return p.Err()
}

// Review records a workspace member's review of an end user's uploaded
// document: accepted, with any corrections of what was read, or rejected
// with a note. The corrected data, the review (who, when, each field
// before and after, the basis "reviewed by a member of <customer>"), its
// audit entry and the documents.reviewed event commit in one
// transaction. A document is reviewed once. endUserID, when not "", is
// the end user the document must be of (REST's path names one; GraphQL's
// global ids need none). Errors: ROLE_FORBIDDEN for a
// member who is neither an administrator nor a reviewer; MISSING_FIELDS
// and INVALID_FIELDS for a bad decision or correction (each field named),
// and for accepting a paystub that still lacks its pay date, gross or net
// pay (saying which to fill in); DOCUMENT_NOT_FOUND;
// DOCUMENT_REVIEW_NOT_REQUIRED for a document the checks left no doubt
// about; DOCUMENT_ALREADY_REVIEWED.
func (s *DocumentReviewService) Review(ctx context.Context, sess Session, endUserID, documentID string, in ReviewInput) (Record, error) {
	if !sess.Role.CanReview() {
		return Record{}, Errorf(KindForbidden, CodeRoleForbidden,
			"only administrators and reviewers review documents; your role is %s", sess.Role)
	}
	if err := in.check(); err != nil {
		return Record{}, err
	}
	if err := CheckID("document_id", documentID); err != nil {
		return Record{}, err
	}
	sc, now := sess.Scope(), s.clock.Now()
	var out Record
	err := s.tx.InDocumentReviewTx(ctx, func(ctx context.Context, tx DocumentReviewTx) error {
		doc, err := tx.ReviewedDocuments().DocumentForUpdate(ctx, sc, documentID)
		if errors.Is(err, ErrNoRows) || (err == nil && ((endUserID != "" && doc.EndUserID != endUserID) || doc.Document == nil)) {
			if endUserID == "" {
				return Errorf(KindNotFound, CodeDocumentNotFound, "no document with id %s", documentID)
			}
			return Errorf(KindNotFound, CodeDocumentNotFound, "end user %q has no document %s", endUserID, documentID)
		}
		if err != nil {
			return err
		}
		body, err := reviewed(*doc.Document, sess, in, Timestamp(now))
		if err != nil {
			return fmt.Errorf("document %s: %w", doc.ID, err)
		}
		doc.Document = &body
		if err := tx.ReviewedDocuments().UpdateDocument(ctx, sc, doc); err != nil {
			return err
		}
		entry := NewAudit(ctx, sc, "member:"+sess.Email, AuditDocumentReviewed, doc.ID, now)
		entry.Detail = reviewDetail(*body.Review)
		if err := tx.Audit().AppendAudit(ctx, entry); err != nil {
			return err
		}
		out = doc
		return PublishEvent(ctx, tx, sc, EventDocumentsReviewed, now, DocumentReviewedPayload(doc))
	})
	if err != nil {
		return Record{}, err
	}
	if s.links != nil {
		l := s.links.DocumentLinks(ctx, sc, []Record{out})
		out.Link = &l[0]
	}
	return out, nil
}

// reviewed is a document's body once a member's decision is applied: its
// parsed data corrected and its review completed. It refuses a document
// that needs no review or was reviewed already, bad corrections, and an
// acceptance that leaves the document without what income needs.
func reviewed(b DocumentBody, sess Session, in ReviewInput, at Timestamp) (DocumentBody, error) {
	switch {
	case b.Review == nil:
		return DocumentBody{}, Errorf(KindConflict, CodeDocumentReviewNotRequired,
			"its checks left no doubt for a person to settle (fraud status %s): it needs no review", b.Fraud.Status)
	case b.Review.Status != ReviewRequired:
		when := ""
		if b.Review.ReviewedAt != nil {
			when = " on " + APITime(time.Time(*b.Review.ReviewedAt))
		}
		return DocumentBody{}, Errorf(KindConflict, CodeDocumentAlreadyReviewed, "it was already reviewed%s (%s); a document is reviewed once",
			when, b.Review.Outcome)
	}
	review := DocumentReview{Status: ReviewCompleted, Outcome: in.Outcome, ReviewedAt: &at, ReviewerID: sess.MemberID,
		Note: strings.TrimSpace(in.Note)}
	if in.Outcome == ReviewAccepted {
		data, corrections, err := corrected(b.DocumentType, b.ParsedData, in.Corrections, time.Time(at))
		if err != nil {
			return DocumentBody{}, err
		}
		if words, fields := missingToAccept(b.DocumentType, data); len(words) > 0 {
			return DocumentBody{}, &Error{Kind: KindInvalid, Code: CodeMissingFields, Fields: fields,
				Message: fmt.Sprintf("to accept this %s, fill in %s from the page (%s): it counts toward income only with them",
					documentWord(b.DocumentType), inWords(words), strings.Join(fields, ", "))}
		}
		b.ParsedData, review.Corrections = data, corrections
		review.Basis = "reviewed by a member of " + sess.WorkspaceName
	}
	b.Review = &review
	return b, nil
}

// documentWord names a document type in a sentence.
func documentWord(documentType string) string {
	if documentType == DocumentW2 {
		return "W-2"
	}
	return documentType
}

// reviewDetail is a review's audit detail: its outcome and the fields it
// corrected, by name only ("accepted; corrected gross_pay_amount,
// pay_date").
func reviewDetail(r DocumentReview) string {
	if len(r.Corrections) == 0 {
		return r.Outcome
	}
	names := make([]string, len(r.Corrections))
	for i, c := range r.Corrections {
		names[i] = c.Field
	}
	return r.Outcome + "; corrected " + strings.Join(names, ", ")
}

package domain

import (
	"context"
	"errors"
)

// Reasons are of two kinds: evidence that a file was tampered with, which
// makes a document suspected, and doubts a person should settle, which
// make it needs_review. A reader's misread can cause a doubt (figures
// that do not add up, a field not found), never evidence: doubt is not
// evidence of fraud (docs/documents.md, "Checks and their kinds").
const (
	ReasonEvidence = "evidence"
	ReasonDoubt    = "doubt"
)

// FraudNeedsReview is the status of a document whose checks left a doubt
// for a person: it counts toward income once a reviewer accepts it.
const FraudNeedsReview = "needs_review"

// reasonKinds says of each check code whether its failure is evidence of
// tampering. Every code not listed is a doubt.
var reasonKinds = map[string]string{
	FraudTextLayerMismatch:  ReasonEvidence,
	FraudFiguresReused:      ReasonEvidence,
	FraudYTDNotCumulative:   ReasonEvidence,
	FraudPayDateOffSchedule: ReasonEvidence,
}

// ReasonKind is a check code's kind: ReasonEvidence or ReasonDoubt.
func ReasonKind(code string) string {
	if k, ok := reasonKinds[code]; ok {
		return k
	}
	return ReasonDoubt
}

// FieldReading says where a field of an uploaded document was read and
// how sure the reader is of it, so a person reviewing it can find it on
// the page.
type FieldReading struct {
	// Field is the parsed data's field ("net_pay_amount", "box1").
	Field string `json:"field"`
	// Page is the page it was read on, from 1.
	Page int `json:"page"`
	// Box is where on the page: x0, y0, x1, y1 as fractions of the page's
	// width and height from its top left.
	Box [4]float64 `json:"box"`
	// Confidence is how sure the reader is, from 0 to 1: the text layer's
	// words are 1 less what the structure leaves in doubt; OCR's are its
	// word confidences.
	Confidence float64 `json:"confidence"`
	// Source is text_layer or ocr.
	Source string `json:"source"`
}

// Review statuses and outcomes of an uploaded document.
const (
	ReviewRequired  = "required"
	ReviewCompleted = "completed"
	ReviewAccepted  = "accepted"
	ReviewRejected  = "rejected"
)

// DocumentReview is a person's review of an uploaded document the checks
// left in doubt: required until a reviewer accepts it (with corrections,
// if any) or rejects it.
type DocumentReview struct {
	Status  string `json:"status"`
	Outcome string `json:"outcome,omitempty"`
	// ReviewedAt and ReviewerID say when and by which workspace member.
	ReviewedAt *Timestamp `json:"reviewed_at,omitempty"`
	ReviewerID string     `json:"reviewer_id,omitempty"`
	// Basis is what a report says the figures rest on: "reviewed by a
	// member of <customer>".
	Basis       string            `json:"basis,omitempty"`
	Note        string            `json:"note,omitempty"`
	Corrections []FieldCorrection `json:"corrections,omitempty"`
}

// FieldCorrection is one field a reviewer changed: its value before and
// after, as the parsed data's JSON writes it.
type FieldCorrection struct {
	Field  string `json:"field"`
	Before string `json:"before"`
	After  string `json:"after"`
}

// CountsAsIncome says whether an uploaded document's figures may be used:
// read and not suspected, or accepted by a reviewer.
func (b DocumentBody) CountsAsIncome() bool {
	if b.Review != nil && b.Review.Status == ReviewCompleted {
		return b.Review.Outcome == ReviewAccepted
	}
	return b.Fraud.Status == FraudNotSuspected
}

// ReviewOf is the review a document needs when it is stored: required
// when its checks left it needs_review or suspected, none otherwise.
func ReviewOf(f DocumentFraud) *DocumentReview {
	if f.Status == FraudNeedsReview || f.Status == FraudSuspected {
		return &DocumentReview{Status: ReviewRequired}
	}
	return nil
}

// PageRenderer draws one page of an uploaded file as a picture, for a
// person reviewing what was read from it (the documents package renders
// PDFs with poppler; a picture is its own page).
type PageRenderer interface {
	// RenderPage draws page (from 1) of a file of the content type at
	// about dpi dots per inch, as an image of the returned content type.
	// Errors: ErrNoSuchPage when the file has fewer pages; the context's.
	RenderPage(ctx context.Context, contentType string, data []byte, page, dpi int) (image []byte, imageType string, err error)
}

// ErrNoSuchPage is a PageRenderer's answer for a page past a file's last.
var ErrNoSuchPage = errors.New("the file has no such page")

package domain

// Events of the review of uploaded documents (docs/webhooks.md): a
// document's checks left a doubt for a person, and a person settled it.
const (
	// EventDocumentsReviewRequired is sent, with documents.parsed, for an
	// uploaded document stored with a review required.
	EventDocumentsReviewRequired = "documents.review_required"
	// EventDocumentsReviewed is sent when a workspace member accepts or
	// rejects a document under review.
	EventDocumentsReviewed = "documents.reviewed"
)

// DocumentReviewRequiredPayload is a documents.review_required event's
// payload: the document and why a person should look at it (its fraud
// outcome with the reasons and the fields they name), which
// documents.parsed already sends.
func DocumentReviewRequiredPayload(r Record) map[string]any {
	return map[string]any{"document_id": r.ID, "document_type": r.DocumentType, "end_user_id": r.EndUserID,
		"fraud": r.Document.Fraud}
}

// DocumentReviewedPayload is a documents.reviewed event's payload: the
// document, the outcome, the fields corrected with their values before
// and after (figures documents.parsed already sent) and when. It names no
// reviewer: the audit log does.
func DocumentReviewedPayload(r Record) map[string]any {
	rv := r.Document.Review
	corrections := rv.Corrections
	if corrections == nil {
		corrections = []FieldCorrection{}
	}
	return map[string]any{"document_id": r.ID, "document_type": r.DocumentType, "end_user_id": r.EndUserID,
		"outcome": rv.Outcome, "corrections": corrections, "reviewed_at": rv.ReviewedAt}
}

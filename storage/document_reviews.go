package storage

import (
	"context"

	"github.com/jmoiron/sqlx"

	"payline/domain"
)

// documentReviewsNewest orders the review queue by upload, newest first.
var documentReviewsNewest = keyset[domain.Record]{list: domain.ListDocumentReviews, column: "sort_key", desc: true,
	key: func(r domain.Record) keyValue { return keyValue{r.SortKey, r.ID} }}

// reviewStatus is the review_status column of a record: its document's
// review status, null for a record without a review.
func reviewStatus(r domain.Record) *string {
	if r.Document == nil || r.Document.Review == nil {
		return nil
	}
	s := r.Document.Review.Status
	return &s
}

// ReviewedDocuments is the documents under review, on the stores' database
// or transaction.
func (s stores) ReviewedDocuments() domain.ReviewedDocumentStore { return s }

// DocumentReviews implements domain.DocumentReviewStore: the review
// status is a column (the body is sealed), indexed per tenant.
func (s stores) DocumentReviews(ctx context.Context, sc domain.Scope, f domain.ReviewFilter, p domain.PageRequest) (domain.Page[domain.Record], error) {
	q := sqlBuilder{}
	q.where("customer_id = ? AND mode = ? AND kind = ? AND review_status IS NOT NULL", sc.CustomerID, string(sc.Mode), domain.RecordDocument)
	if f.Status != "" {
		q.where("review_status = ?", f.Status)
	}
	if f.EndUserID != "" {
		q.where("end_user_id = ?", f.EndUserID)
	}
	return selectPage(ctx, s.q, documentReviewsNewest, `SELECT `+recordColumns+` FROM account_records`, q, p, s.record)
}

// DocumentForUpdate implements domain.ReviewedDocumentStore: the row is
// locked on PostgreSQL (FOR NO KEY UPDATE, as AccountForUpdate explains);
// SQLite's write transactions already exclude each other.
func (s stores) DocumentForUpdate(ctx context.Context, sc domain.Scope, id string) (domain.Record, error) {
	var r recordRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT `+recordColumns+` FROM account_records
		WHERE id = ? AND kind = ? AND customer_id = ? AND mode = ?`+rowLock(s.q, "FOR NO KEY UPDATE")),
		id, domain.RecordDocument, sc.CustomerID, string(sc.Mode)); err != nil {
		return domain.Record{}, translate(err)
	}
	return s.record(r)
}

// UpdateDocument implements domain.ReviewedDocumentStore: the body is
// sealed again, bound to its row as when it was stored.
func (s stores) UpdateDocument(ctx context.Context, sc domain.Scope, r domain.Record) error {
	plain, err := encodeRecord(r)
	if err != nil {
		return err
	}
	body, err := s.seal.seal(plain, "account_records", r.ID)
	if err != nil {
		return err
	}
	return expectOne(s.q.ExecContext(ctx, s.q.Rebind(`UPDATE account_records SET body = ?, review_status = ?
		WHERE id = ? AND kind = ? AND customer_id = ? AND mode = ?`), body, reviewStatus(r), r.ID, domain.RecordDocument,
		sc.CustomerID, string(sc.Mode)))
}

// InDocumentReviewTx implements domain.DocumentReviewTransactor: InTx,
// reaching only what a review changes.
func (t *Transactor) InDocumentReviewTx(ctx context.Context, fn func(context.Context, domain.DocumentReviewTx) error) error {
	return t.inTx(ctx, func(ctx context.Context, tx *txStores) error { return fn(ctx, tx) })
}

var (
	_ domain.DocumentReviewStore      = stores{}
	_ domain.DocumentReviewTx         = (*txStores)(nil)
	_ domain.DocumentReviewTransactor = (*Transactor)(nil)
)

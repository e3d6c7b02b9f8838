package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"payline/domain"
)

func (s stores) Records() domain.RecordStore { return s }

type recordRow struct {
	ID           string    `db:"id"`
	Kind         string    `db:"kind"`
	AccountID    *string   `db:"account_id"` // null for an uploaded document
	EndUserID    string    `db:"end_user_id"`
	DocumentType string    `db:"document_type"`
	SortKey      string    `db:"sort_key"`
	CreatedAt    time.Time `db:"created_at"`
	Body         []byte    `db:"body"`
}

const recordColumns = `id, kind, account_id, end_user_id, document_type, sort_key, created_at, body`

func (s stores) record(r recordRow) (domain.Record, error) {
	body, err := s.seal.open(r.Body, "account_records", r.ID)
	if err != nil {
		return domain.Record{}, err
	}
	var account string
	if r.AccountID != nil {
		account = *r.AccountID
	}
	rec := domain.Record{ID: r.ID, Kind: r.Kind, AccountID: account, EndUserID: r.EndUserID, DocumentType: r.DocumentType,
		SortKey: r.SortKey, CreatedAt: r.CreatedAt.UTC()}
	if err := decodeRecord(&rec, body); err != nil {
		return domain.Record{}, fmt.Errorf("%s record %s: %w", r.Kind, r.ID, err)
	}
	return rec, nil
}

func (s stores) PutRecords(ctx context.Context, sc domain.Scope, rs []domain.Record) (int, error) {
	added := 0
	for _, r := range rs {
		plain, err := encodeRecord(r)
		if err != nil {
			return added, err
		}
		body, err := s.seal.seal(plain, "account_records", r.ID)
		if err != nil {
			return added, err
		}
		n, err := insertIfNew(ctx, s.q, `INSERT INTO account_records (customer_id, mode, `+recordColumns+`, review_status)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`, sc.CustomerID, string(sc.Mode), r.ID, r.Kind,
			nullable(r.AccountID), r.EndUserID, r.DocumentType, r.SortKey, r.CreatedAt, body, reviewStatus(r))
		if err != nil {
			return added, err
		}
		added += n
	}
	return added, nil
}

// insertIfNew runs an INSERT ... ON CONFLICT DO NOTHING and reports
// whether it added the row (1) or found it already there (0).
func insertIfNew(ctx context.Context, q sqlx.ExtContext, query string, args ...any) (int, error) {
	res, err := q.ExecContext(ctx, q.Rebind(query), args...)
	if err != nil {
		return 0, translate(err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}

func (s stores) FindRecords(ctx context.Context, sc domain.Scope, f domain.RecordFilter, p domain.PageRequest) (domain.Page[domain.Record], error) {
	q := sqlBuilder{}
	q.where("customer_id = ? AND mode = ? AND kind = ?", sc.CustomerID, string(sc.Mode), f.Kind)
	if f.AccountID != "" {
		q.where("account_id = ?", f.AccountID)
	}
	if f.EndUserID != "" {
		q.where("end_user_id = ?", f.EndUserID)
	}
	if f.DocumentType != "" {
		q.where("document_type = ?", f.DocumentType)
	}
	return selectPage(ctx, s.q, recordsNewest(f.Kind), `SELECT `+recordColumns+` FROM account_records`, q, p, s.record)
}

func (s stores) RecordsOfAccounts(ctx context.Context, sc domain.Scope, kind string, accountIDs []string, p domain.PageRequest) (map[string]domain.Page[domain.Record], error) {
	q := sqlBuilder{}
	q.where("customer_id = ? AND mode = ? AND kind = ?", sc.CustomerID, string(sc.Mode), kind)
	return selectPagesBy(ctx, s.q, recordsNewest(kind), "account_records", recordColumns, "account_id", accountIDs, q, p,
		s.record, func(r domain.Record) string { return r.AccountID })
}

func (s stores) DocumentsOfEndUsers(ctx context.Context, sc domain.Scope, docType string, endUserIDs []string, p domain.PageRequest) (map[string]domain.Page[domain.Record], error) {
	q := sqlBuilder{}
	q.where("customer_id = ? AND mode = ? AND kind = ?", sc.CustomerID, string(sc.Mode), domain.RecordDocument)
	if docType != "" {
		q.where("document_type = ?", docType)
	}
	return selectPagesBy(ctx, s.q, recordsNewest(domain.RecordDocument), "account_records", recordColumns, "end_user_id", endUserIDs, q, p,
		s.record, func(r domain.Record) string { return r.EndUserID })
}

func (s stores) Record(ctx context.Context, sc domain.Scope, kind, id string) (domain.Record, error) {
	var r recordRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT `+recordColumns+` FROM account_records
		WHERE id = ? AND kind = ? AND customer_id = ? AND mode = ?`), id, kind, sc.CustomerID, string(sc.Mode)); err != nil {
		return domain.Record{}, translate(err)
	}
	return s.record(r)
}

func (s stores) SetBillNavigatorStatus(ctx context.Context, sc domain.Scope, endUserID, status, reason string, at time.Time) error {
	_, err := s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO bill_navigator (customer_id, mode, end_user_id, status, reason, updated_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (customer_id, mode, end_user_id)
		DO UPDATE SET status = excluded.status, reason = excluded.reason, updated_at = excluded.updated_at`),
		sc.CustomerID, string(sc.Mode), endUserID, status, reason, at)
	return translate(err)
}

func (s stores) BillNavigatorStatus(ctx context.Context, sc domain.Scope, endUserID string) (string, error) {
	var status string
	err := sqlx.GetContext(ctx, s.q, &status, s.q.Rebind(`SELECT status FROM bill_navigator
		WHERE customer_id = ? AND mode = ? AND end_user_id = ?`), sc.CustomerID, string(sc.Mode), endUserID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return status, translate(err)
}

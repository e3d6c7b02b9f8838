package storage

import (
	"context"
	"time"

	"payline/domain"
)

// RetentionStore prunes the database by a domain.RetentionPolicy.
type RetentionStore struct{ db *DB }

// NewRetentionStore returns the database's retention store.
func NewRetentionStore(db *DB) *RetentionStore { return &RetentionStore{db: db} }

// pruneBatch is how many rows one DELETE removes, so a first pass over a
// large backlog holds no lock for long.
const pruneBatch = 1000

// Prune implements domain.RetentionStore. The sandbox outbox goes with the
// delivery attempts. Superseded report PDFs are the
// voie and voe files no stored report names; document PDFs (W-2s, forms,
// uploads) are never pruned here.
func (s *RetentionStore) Prune(ctx context.Context, eventsBefore, deliveriesBefore, reportsBefore time.Time) (domain.Pruned, error) {
	var p domain.Pruned
	var err error
	if !deliveriesBefore.IsZero() {
		if p.Deliveries, err = s.deleteBatches(ctx, `webhook_deliveries`, `created_at < ?`, deliveriesBefore); err != nil {
			return p, err
		}
		// The sandbox outbox is a log of what would have been sent, kept
		// as long as the log of what was.
		if _, err = s.deleteBatches(ctx, `outbox_messages`, `created_at < ?`, deliveriesBefore); err != nil {
			return p, err
		}
	}
	if !eventsBefore.IsZero() {
		if p.Events, err = s.deleteBatches(ctx, `events`, `created_at < ?`, eventsBefore); err != nil {
			return p, err
		}
	}
	if !reportsBefore.IsZero() {
		if p.ReportVersions, err = s.deleteBatches(ctx, `files`,
			`created_at < ? AND kind IN ('voie', 'voe') AND id NOT IN (SELECT document_id FROM verification_reports)`, reportsBefore); err != nil {
			return p, err
		}
		// A superseded build's listing goes with its PDF.
		if _, err := s.db.ExecContext(ctx, s.db.Rebind(`DELETE FROM report_versions WHERE refreshed_at < ?
			AND document_id NOT IN (SELECT document_id FROM verification_reports)`), reportsBefore); err != nil {
			return p, translate(err)
		}
	}
	return p, nil
}

func (s *RetentionStore) deleteBatches(ctx context.Context, table, cond string, before time.Time) (int, error) {
	total := 0
	for {
		res, err := s.db.ExecContext(ctx, s.db.Rebind(`DELETE FROM `+table+` WHERE id IN (SELECT id FROM `+table+` WHERE `+cond+` LIMIT ?)`),
			before, pruneBatch)
		if err != nil {
			return total, translate(err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return total, err
		}
		total += int(n)
		if n < pruneBatch {
			return total, nil
		}
	}
}

package storage_test

import (
	"context"
	"testing"
	"time"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestReviewMigrationKeepsMembers: migration 00038 lets members have the
// reviewer role (SQLite rebuilds the members table for it) and keeps
// every member with their sessions; documents stored before it need no
// review and are not in the queue.
func TestReviewMigrationKeepsMembers(t *testing.T) {
	storagetest.Dialects(t, storagetest.Blank, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		if err := db.MigrateTo(ctx, 37); err != nil {
			t.Fatal(err)
		}
		now := time.Now().UTC()
		execAll(t, db, append(tenantRows(now), []stmt{
			{`INSERT INTO members (id, customer_id, email, password_hash, role, created_at) VALUES ('m', 'c', 'ada@acme.test', 'x', 'administrator', ?)`, []any{now}},
			{`INSERT INTO member_sessions (token_hash, member_id, mode, created_at, expires_at) VALUES ('68', 'm', 'sandbox', ?, ?)`, []any{now, now.Add(time.Hour)}},
			{`INSERT INTO account_records (id, customer_id, mode, kind, account_id, end_user_id, document_type, sort_key, created_at, body)
				VALUES ('d', 'c', 'sandbox', 'document', NULL, 'u', 'paystub', 'k', ?, '{}')`, []any{now}},
		}...))
		if err := db.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		ks := storage.NewKeyStore(db)
		m, err := ks.MemberOf(ctx, "c", "m")
		if err != nil || m.Role != domain.RoleAdministrator {
			t.Fatalf("the member after the migration: %+v, %v", m, err)
		}
		if s, err := ks.SessionByHash(ctx, []byte("h")); err != nil || s.MemberID != "m" {
			t.Errorf("the session after the migration: %+v, %v", s, err)
		}
		rita := domain.Member{ID: domain.NewID(), CustomerID: "c", Email: "rita@acme.test", PasswordHash: []byte("x"), Role: domain.RoleReviewer, CreatedAt: now}
		if err := ks.CreateMember(ctx, rita); err != nil {
			t.Fatalf("a reviewer: %v", err)
		}
		if _, err := db.Exec(db.Rebind(`INSERT INTO members (id, customer_id, email, password_hash, role, created_at) VALUES ('o', 'c', 'o@acme.test', 'x', 'owner', ?)`), now); err == nil {
			t.Error("the members table takes a role that does not exist")
		}
		q, err := storage.NewTransactor(db, nil).DocumentReviews(ctx, domain.Scope{CustomerID: "c", Mode: domain.ModeSandbox},
			domain.ReviewFilter{}, domain.PageRequest{Limit: 10})
		if err != nil || len(q.Items) != 0 {
			t.Errorf("a document stored before reviews is queued: %+v, %v", q.Items, err)
		}
	})
}

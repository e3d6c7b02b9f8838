package storage_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestPlaintextFromBeforeSealingIsSealed: rows written before people's
// data was sealed still read after migration 00016, ReSeal seals them
// (and nothing else), they read the same afterwards, and a sealed value
// copied to another row does not open.
func TestPlaintextFromBeforeSealingIsSealed(t *testing.T) {
	storagetest.Dialects(t, storagetest.Blank, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		if err := db.MigrateTo(ctx, 15); err != nil {
			t.Fatal(err)
		}
		now := time.Now().UTC()
		const stub = `{"id":"s1","account_id":"a","pay_date":"2026-01-02","gross_pay_amount":123456}`
		execAll(t, db, append(tenantRows(now), []stmt{
			{`INSERT INTO link_tokens (id, customer_id, mode, token_hash, created_at, expires, api_version, org_name, end_user_id,
				solution, features, required_jobs, skip_intro_screen, disable_direct_deposit_splitting, language)
				VALUES ('t', 'c', 'sandbox', 'h', ?, ?, '2025-07-08', 'Acme', 'u', '', '[]', '[]', false, false, '')`, []any{now, now}},
			{`INSERT INTO accounts (id, customer_id, mode, created_at, link_token_id, platform_id, end_user_id, connected,
				monitoring_status, data_updated_at, data_refreshed_at, connection)
				VALUES ('a', 'c', 'sandbox', ?, 't', 'p', 'u', true, 'active', '{}', '{}', 'good')`, []any{now}},
			{`INSERT INTO paystubs (id, customer_id, mode, account_id, pay_date, created_at, body) VALUES ('s1', 'c', 'sandbox', 'a', '2026-01-02', ?, ?)`, []any{now, stub}},
			{`INSERT INTO paystubs (id, customer_id, mode, account_id, pay_date, created_at, body) VALUES ('s2', 'c', 'sandbox', 'a', '2026-01-16', ?, ?)`, []any{now, stub}},
			{`INSERT INTO files (id, customer_id, mode, kind, filename, content_type, sha256, created_at, body)
				VALUES ('f', 'c', 'sandbox', 'report', 'r.pdf', 'application/pdf', 'x', ?, ?)`, []any{now, []byte("%PDF-1.4 Ada Lovelace")}},
		}...))
		if err := db.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		tx := storage.NewTransactor(db, nil)
		sc := domain.Scope{CustomerID: "c", Mode: domain.ModeSandbox}
		read := func(when string) {
			t.Helper()
			a, err := tx.Account(ctx, sc, "a")
			if err != nil || a.Connection != "good" {
				t.Errorf("%s: account connection %q (%v)", when, a.Connection, err)
			}
			p, err := tx.Paystub(ctx, sc, "a", "s1")
			if err != nil || p.GrossPayAmount != 123456 {
				t.Errorf("%s: paystub %+v (%v)", when, p, err)
			}
			f, err := tx.File(ctx, "f")
			if err != nil || string(f.Body) != "%PDF-1.4 Ada Lovelace" {
				t.Errorf("%s: file %q (%v)", when, f.Body, err)
			}
		}
		read("before sealing")
		stale, err := db.StaleSealed(ctx)
		if err != nil || len(stale) != 3 || stale["paystubs.body"] != 2 {
			t.Errorf("stale before: %v (%v)", stale, err)
		}
		n, err := db.ReSeal(ctx, 1, nil)
		if err != nil || n != 4 {
			t.Errorf("ReSeal sealed %d (%v), want 4", n, err)
		}
		if stale, err := db.StaleSealed(ctx); err != nil || len(stale) != 0 {
			t.Errorf("stale after: %v (%v)", stale, err)
		}
		var raw []byte
		if err := db.Get(&raw, `SELECT body FROM files WHERE id = 'f'`); err != nil || bytes.Contains(raw, []byte("Lovelace")) || raw[0] != domain.SealedMarker {
			t.Errorf("file body after sealing: %q (%v)", raw, err)
		}
		read("after sealing")
		if n, err := db.ReSeal(ctx, 10, nil); err != nil || n != 0 {
			t.Errorf("a second ReSeal sealed %d (%v)", n, err)
		}

		// s1's sealed body copied into s2 does not open there.
		if _, err := db.Exec(`UPDATE paystubs SET body = (SELECT body FROM paystubs WHERE id = 's1') WHERE id = 's2'`); err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Paystub(ctx, sc, "a", "s2"); err == nil {
			t.Error("a sealed body copied to another row opened")
		}
	})
}

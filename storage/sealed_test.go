package storage_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/internal/secretbox"
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
			if err != nil || p.GrossPayAmount.Amount != 123456 {
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
		if err := db.Get(&raw, `SELECT body FROM files WHERE id = 'f'`); err != nil || bytes.Contains(raw, []byte("Lovelace")) || raw[0] != secretbox.Marker {
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

// TestRebindSealed: API secrets and bill cards sealed when their binding
// was the bare row id are bound anew to their table-named binding, every
// value stays readable, a second pass changes nothing, and a value no
// binding opens is named.
func TestRebindSealed(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		ks := storage.NewKeyStore(db)
		keys := domain.NewKeyService(ks, ks, domain.SystemClock{})
		created, err := keys.CreateKey(ctx, "acme", domain.ModeSandbox)
		if err != nil {
			t.Fatal(err)
		}
		// Seal the secret the old way, bound to the bare id.
		legacy, err := storagetest.TestBox.Seal([]byte(created.Secret), storage.LegacyBareAD(created.Key.ID))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE api_keys SET sealed_secret = ? WHERE id = ?`), legacy, created.Key.ID); err != nil {
			t.Fatal(err)
		}
		n, err := db.RebindSealed(ctx)
		if err != nil || n != 1 {
			t.Fatalf("rebind: %d values, %v", n, err)
		}
		var sealed []byte
		if err := db.GetContext(ctx, &sealed, db.Rebind(`SELECT sealed_secret FROM api_keys WHERE id = ?`), created.Key.ID); err != nil {
			t.Fatal(err)
		}
		if plain, err := storagetest.TestBox.Open(sealed, storage.KeySecretAD(created.Key.ID)); err != nil || string(plain) != created.Secret {
			t.Errorf("the re-bound secret opens as %q, %v", plain, err)
		}
		if _, err := storagetest.TestBox.Open(sealed, storage.LegacyBareAD(created.Key.ID)); err == nil {
			t.Error("the re-bound secret still opens under the bare id")
		}
		if n, err := db.RebindSealed(ctx); err != nil || n != 0 {
			t.Errorf("a second pass: %d values, %v", n, err)
		}
		// A value sealed for another row opens under neither binding.
		other, _ := storagetest.TestBox.Seal([]byte("x"), storage.KeySecretAD("someone-else"))
		if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE api_keys SET sealed_secret = ? WHERE id = ?`), other, created.Key.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := db.RebindSealed(ctx); err == nil || !strings.Contains(err.Error(), created.Key.ID) {
			t.Errorf("a value no binding opens: %v", err)
		}
	})
}

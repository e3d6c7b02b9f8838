package storage_test

import (
	"context"
	"testing"
	"time"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestMoneyMigrationConvertsRows: rows written when amounts were floats of
// dollars come out of migration 00006 as exact cents and whole
// percentages.
func TestMoneyMigrationConvertsRows(t *testing.T) {
	storagetest.Dialects(t, storagetest.Blank, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		if err := db.MigrateTo(ctx, 5); err != nil {
			t.Fatal(err)
		}
		now := time.Now().UTC()
		execAll(t, db, append(tenantRows(now), []stmt{
			{`INSERT INTO link_tokens (id, customer_id, mode, token_hash, created_at, expires, api_version, org_name, end_user_id,
				solution, features, required_jobs, amount, skip_intro_screen, disable_direct_deposit_splitting, language)
				VALUES ('t', 'c', 'sandbox', 'aa', ?, ?, '2025-07-08', 'Acme', 'u', '', '[]', '[]', 19.99, false, false, '')`, []any{now, now}},
			{`INSERT INTO accounts (id, customer_id, mode, created_at, link_token_id, platform_id, end_user_id, connected,
				monitoring_status, data_updated_at, data_refreshed_at, connection)
				VALUES ('a', 'c', 'sandbox', ?, 't', 'p', 'u', true, 'active', '{}', '{}', 'good')`, []any{now}},
			{`INSERT INTO jobs (id, customer_id, mode, account_id, platform_id, platform_name, end_user_id, link_token_id, name,
				created_at, params, monitoring) VALUES ('j1', 'c', 'sandbox', 'a', 'p', 'P', 'u', 't', 'direct_deposit_switch', ?,
				'{"action":"partial_switch","allocation":{"type":"amount","value":4.35,"target":{"account_type":"checking"}}}', false)`, []any{now}},
			{`INSERT INTO jobs (id, customer_id, mode, account_id, platform_id, platform_name, end_user_id, link_token_id, name,
				created_at, params, monitoring) VALUES ('j2', 'c', 'sandbox', 'a', 'p', 'P', 'u', 'other', 'direct_deposit_switch', ?,
				'{"action":"partial_switch","allocation":{"type":"percentage","value":50,"target":{"account_type":"savings"}}}', false)`, []any{now}},
		}...))
		if err := db.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		tx := storage.NewTransactor(db, nil)
		sc := domain.Scope{CustomerID: "c", Mode: domain.ModeSandbox}
		tok, err := tx.LinkToken(ctx, sc, "t")
		if err != nil || tok.Amount == nil || *tok.Amount != domain.USD(1999) {
			t.Errorf("link token amount %+v (%v), want 1999 cents", tok.Amount, err)
		}
		j1, err := tx.Job(ctx, sc, "j1")
		if err != nil || j1.Params.Allocation == nil || j1.Params.Allocation.Amount != domain.USD(435) {
			t.Errorf("amount job %+v (%v), want 435 cents", j1.Params.Allocation, err)
		}
		j2, err := tx.Job(ctx, sc, "j2")
		if err != nil || j2.Params.Allocation == nil || j2.Params.Allocation.Percentage != 50 || j2.Params.Allocation.Target.AccountType != "savings" {
			t.Errorf("percentage job %+v (%v), want 50%%", j2.Params.Allocation, err)
		}
	})
}

// stmt is one statement with its arguments, for writing rows as an older
// schema held them.
type stmt struct {
	sql  string
	args []any
}

// tenantRows are a customer "c" and a payroll platform "p", as every
// schema version has held them.
func tenantRows(now time.Time) []stmt {
	return []stmt{
		{`INSERT INTO customers (id, name, created_at) VALUES ('c', 'acme', ?)`, []any{now}},
		{`INSERT INTO platforms (id, name, display_name, type, esp, partnership, last_updated, merchant_categories, supported_jobs,
			amount_supported, fractional_amount_supported, percentage_supported, min_percentage, max_percentage)
			VALUES ('p', 'P', 'P', 'payroll', false, false, ?, '[]', '[]', true, true, true, 1, 100)`, []any{now}},
	}
}

func execAll(t *testing.T, db *storage.DB, stmts []stmt) {
	t.Helper()
	for _, s := range stmts {
		if _, err := db.Exec(db.Rebind(s.sql), s.args...); err != nil {
			t.Fatalf("%s: %v", s.sql, err)
		}
	}
}

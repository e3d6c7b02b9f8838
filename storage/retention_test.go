package storage_test

import (
	"context"
	"testing"
	"time"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestRetentionPrunesWhatItsPolicySays: events and delivery attempts older
// than their retention go; newer ones stay; of verification report PDFs,
// only old ones no stored report names go (a report's current PDF stays
// however old, and document PDFs are never pruned); a zero retention keeps
// everything of its kind.
func TestRetentionPrunesWhatItsPolicySays(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		now := time.Now().UTC()
		old, recent := now.Add(-100*24*time.Hour), now.Add(-time.Hour)
		ks := storage.NewKeyStore(db)
		created, err := domain.NewKeyService(ks, ks, domain.SystemClock{}).CreateKey(ctx, "keeper", domain.ModeSandbox)
		if err != nil {
			t.Fatal(err)
		}
		c := created.Customer
		exec := func(q string, args ...any) {
			t.Helper()
			if _, err := db.ExecContext(ctx, db.Rebind(q), args...); err != nil {
				t.Fatal(err)
			}
		}
		for id, at := range map[string]time.Time{"event-old": old, "event-new": recent} {
			exec(`INSERT INTO events (id, customer_id, mode, name, created_at, payload) VALUES (?, ?, 'sandbox', 'account.added', ?, '{}')`, id, c.ID, at)
		}
		exec(`INSERT INTO webhooks (id, customer_id, mode, api_key_id, url, enabled_events, version, status, created_at, last_updated)
			VALUES ('hook', ?, 'sandbox', ?, 'https://example.com', '[]', '2025-07-08', 'active', ?, ?)`, c.ID, created.Key.ID, now, now)
		for id, at := range map[string]time.Time{"delivery-old": old, "delivery-new": recent} {
			exec(`INSERT INTO webhook_deliveries (id, customer_id, mode, webhook_id, event_id, event_name, attempt, latency_us, error, outcome, created_at)
				VALUES (?, ?, 'sandbox', 'hook', 'event-old', 'account.added', 1, 1, '', 'delivered', ?)`, id, c.ID, at)
		}
		for _, f := range []struct {
			id, kind string
			at       time.Time
		}{{"voie-superseded-old", "voie", old}, {"voie-current-old", "voie", old}, {"voie-superseded-new", "voie", recent}, {"w2-old", "w2", old}} {
			exec(`INSERT INTO files (id, customer_id, mode, kind, filename, content_type, sha256, created_at, body) VALUES (?, ?, 'sandbox', ?, 'f.pdf', 'application/pdf', 'x', ?, ?)`,
				f.id, c.ID, f.kind, f.at, []byte("%PDF-"))
		}
		exec(`INSERT INTO verification_reports (customer_id, mode, end_user_id, report_type, id, data_version, document_id, refreshed_at, body)
			VALUES (?, 'sandbox', 'u', 'voie', 'r', 'v', 'voie-current-old', ?, '{}')`, c.ID, old)

		store := storage.NewRetentionStore(db)
		keepEvents := domain.RetentionPolicy{Deliveries: 30 * 24 * time.Hour, ReportVersions: 30 * 24 * time.Hour}
		p, err := keepEvents.Prune(ctx, store, now)
		if err != nil {
			t.Fatal(err)
		}
		if p != (domain.Pruned{Deliveries: 1, ReportVersions: 1}) {
			t.Errorf("pruned %+v", p)
		}
		ids := func(table string) map[string]bool {
			var got []string
			if err := db.SelectContext(ctx, &got, `SELECT id FROM `+table); err != nil {
				t.Fatal(err)
			}
			out := map[string]bool{}
			for _, id := range got {
				out[id] = true
			}
			return out
		}
		if e := ids("events"); !e["event-old"] || !e["event-new"] {
			t.Errorf("a zero event retention deleted events: %v", e)
		}
		if d := ids("webhook_deliveries"); d["delivery-old"] || !d["delivery-new"] {
			t.Errorf("deliveries left: %v", d)
		}
		if f := ids("files"); f["voie-superseded-old"] || !f["voie-current-old"] || !f["voie-superseded-new"] || !f["w2-old"] {
			t.Errorf("files left: %v", f)
		}
		p, err = domain.DefaultRetention.Prune(ctx, store, now)
		if err != nil || p != (domain.Pruned{Events: 1}) {
			t.Errorf("the default policy then pruned %+v, %v", p, err)
		}
	})
}

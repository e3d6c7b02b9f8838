package storage_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

func (tn tenant) apiKey(t *testing.T) domain.APIKey {
	t.Helper()
	k := domain.APIKey{ID: domain.NewID(), CustomerID: tn.sc.CustomerID, Mode: tn.sc.Mode, CreatedAt: tn.now,
		SecretHash: []byte(domain.NewID())}
	if err := storage.NewKeyStore(tn.db).CreateAPIKey(context.Background(), tn.sc, k, "secret"); err != nil {
		t.Fatal(err)
	}
	return k
}

func (tn tenant) webhook(t *testing.T, key domain.APIKey, url string, events ...string) domain.Webhook {
	t.Helper()
	w := domain.Webhook{ID: domain.NewID(), CustomerID: tn.sc.CustomerID, Mode: tn.sc.Mode, APIKeyID: key.ID, URL: url,
		EnabledEvents: events, Status: domain.WebhookActive, Version: domain.LatestVersion, CreatedAt: tn.now, LastUpdated: tn.now}
	if err := tn.tx.Webhooks().CreateWebhook(context.Background(), tn.sc, w); err != nil {
		t.Fatal(err)
	}
	return w
}

func TestWebhookStore(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		tn, other := newTenant(t, db), newTenant(t, db)
		key := tn.apiKey(t)
		added := tn.webhook(t, key, "https://a.example.com", "account.added")
		stubs := tn.webhook(t, key, "https://b.example.com", "paystubs.added")
		got, err := tn.tx.Webhooks().Webhook(ctx, tn.sc, added.ID)
		if err != nil || got.URL != added.URL || len(got.EnabledEvents) != 1 || got.APIKeyID != key.ID {
			t.Fatalf("Webhook: %+v, %v", got, err)
		}
		if _, err := other.tx.Webhooks().Webhook(ctx, other.sc, added.ID); !errors.Is(err, domain.ErrNoRows) {
			t.Errorf("another tenant read the webhook: %v", err)
		}
		if n, err := tn.tx.Webhooks().CountWebhooksOfKey(ctx, tn.sc, key.ID); err != nil || n != 2 {
			t.Errorf("CountWebhooksOfKey: %d, %v", n, err)
		}
		active, err := tn.tx.Webhooks().ActiveWebhooksFor(ctx, tn.sc, "account.added")
		if err != nil || len(active) != 1 || active[0].ID != added.ID {
			t.Errorf("ActiveWebhooksFor: %+v, %v", active, err)
		}
		page, err := tn.tx.Webhooks().FindWebhooks(ctx, tn.sc, domain.PageRequest{Limit: 1})
		if err != nil || len(page.Items) != 1 || page.Next == nil {
			t.Errorf("FindWebhooks: %d, next %v, %v", len(page.Items), page.Next, err)
		}
		found, err := tn.tx.Webhooks().WebhooksByID(ctx, tn.sc, []string{stubs.ID, domain.NewID()})
		if err != nil || len(found) != 1 || found[0].ID != stubs.ID {
			t.Errorf("WebhooksByID: %d, %v", len(found), err)
		}

		// Paused webhooks take no deliveries.
		failing := tn.now.Add(time.Minute)
		added.Status, added.FailingSince = domain.WebhookPaused, &failing
		if err := tn.tx.Webhooks().UpdateWebhook(ctx, tn.sc, added); err != nil {
			t.Fatal(err)
		}
		if active, _ := tn.tx.Webhooks().ActiveWebhooksFor(ctx, tn.sc, "account.added"); len(active) != 0 {
			t.Errorf("a paused webhook is active: %d", len(active))
		}
		if got, _ := tn.tx.Webhooks().Webhook(ctx, tn.sc, added.ID); got.FailingSince == nil || !got.FailingSince.Equal(failing) {
			t.Errorf("failing since %v", got.FailingSince)
		}

		// Deliveries: recorded, paged newest first, excerpts sealed and read back.
		e := domain.Event{ID: domain.NewID(), Name: "account.added", CreatedAt: tn.now, Payload: domain.EventPayload(`{"account_id":"x"}`)}
		if err := tn.tx.Events().CreateEvent(ctx, tn.sc, e); err != nil {
			t.Fatal(err)
		}
		for i, outcome := range []string{domain.DeliveryRetrying, domain.DeliveryDelivered} {
			d := domain.Delivery{ID: domain.NewID(), WebhookID: stubs.ID, EventID: e.ID, EventName: e.Name, Attempt: i + 1, StatusCode: 200,
				ResponseExcerpt: "thanks", Outcome: outcome, CreatedAt: tn.now.Add(time.Duration(i) * time.Second)}
			if err := tn.tx.Webhooks().RecordDelivery(ctx, tn.sc, d); err != nil {
				t.Fatal(err)
			}
		}
		ds, err := tn.tx.Webhooks().FindDeliveries(ctx, tn.sc, stubs.ID, domain.PageRequest{Limit: 10})
		if err != nil || len(ds.Items) != 2 || ds.Items[0].Attempt != 2 || ds.Items[0].ResponseExcerpt != "thanks" {
			t.Fatalf("FindDeliveries: %+v, %v", ds.Items, err)
		}
		of, err := tn.tx.Webhooks().DeliveriesOfWebhooks(ctx, tn.sc, []string{stubs.ID, added.ID}, domain.PageRequest{Limit: 1})
		if err != nil || len(of[stubs.ID].Items) != 1 || len(of[added.ID].Items) != 0 {
			t.Errorf("DeliveriesOfWebhooks: %v", err)
		}
		w, ev, err := tn.tx.Webhooks().DeliveryTarget(ctx, tn.sc, stubs.ID, e.ID)
		if err != nil || w.ID != stubs.ID || ev.ID != e.ID || string(ev.Payload) != string(e.Payload) {
			t.Errorf("DeliveryTarget: %v", err)
		}
		if _, _, err := tn.tx.Webhooks().DeliveryTarget(ctx, tn.sc, stubs.ID, domain.NewID()); !errors.Is(err, domain.ErrNoRows) {
			t.Errorf("DeliveryTarget of no event: %v", err)
		}

		if err := tn.tx.Webhooks().DeleteWebhook(ctx, tn.sc, stubs.ID); err != nil {
			t.Fatal(err)
		}
		if err := tn.tx.Webhooks().DeleteWebhook(ctx, tn.sc, stubs.ID); !errors.Is(err, domain.ErrNoRows) {
			t.Errorf("deleting twice: %v, want ErrNoRows", err)
		}
		if ds, _ := tn.tx.Webhooks().FindDeliveries(ctx, tn.sc, stubs.ID, domain.PageRequest{Limit: 10}); len(ds.Items) != 0 {
			t.Errorf("%d deliveries outlived their webhook", len(ds.Items))
		}
	})
}

func TestDeleteStaleListeners(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Empty)
	ctx := context.Background()
	tn := newTenant(t, db)
	key := tn.apiKey(t)
	stale := tn.webhook(t, key, domain.ListenerURLPrefix+"stale", "account.added")
	fresh := tn.webhook(t, key, domain.ListenerURLPrefix+"fresh", "account.added")
	plain := tn.webhook(t, key, "https://a.example.com", "account.added")
	fresh.LastUpdated = tn.now.Add(time.Hour)
	if err := tn.tx.Webhooks().UpdateWebhook(ctx, tn.sc, fresh); err != nil {
		t.Fatal(err)
	}
	n, err := tn.tx.Webhooks().DeleteStaleListeners(ctx, domain.ListenerURLPrefix, tn.now.Add(time.Minute))
	if err != nil || n != 1 {
		t.Fatalf("deleted %d, %v; want the stale listener only", n, err)
	}
	if _, err := tn.tx.Webhooks().Webhook(ctx, tn.sc, stale.ID); !errors.Is(err, domain.ErrNoRows) {
		t.Error("the stale listener is still there")
	}
	for _, id := range []string{fresh.ID, plain.ID} {
		if _, err := tn.tx.Webhooks().Webhook(ctx, tn.sc, id); err != nil {
			t.Errorf("webhook %s went too: %v", id, err)
		}
	}
}

// TestTransactionMemoisesWebhooks: inside one transaction the fan-out
// lookup is read once per scope and event, and a webhook change made in
// the transaction forgets it. PostgreSQL only: a webhook committed by
// another connection meanwhile is what a fresh read would see (read
// committed) and the memo does not; SQLite's one connection cannot
// write beside the transaction.
func TestTransactionMemoisesWebhooks(t *testing.T) {
	db := storagetest.Open(t, storage.Postgres, storagetest.Empty)
	ctx := context.Background()
	tn := newTenant(t, db)
	key := tn.apiKey(t)
	tn.webhook(t, key, "https://a.example.com", "account.added")
	count := func(ctx context.Context, tx domain.Tx) int {
		t.Helper()
		hooks, err := tx.Webhooks().ActiveWebhooksFor(ctx, tn.sc, "account.added")
		if err != nil {
			t.Fatal(err)
		}
		return len(hooks)
	}
	err := tn.tx.InTx(ctx, func(txCtx context.Context, tx domain.Tx) error {
		if n := count(txCtx, tx); n != 1 {
			t.Fatalf("first lookup: %d webhooks", n)
		}
		tn.webhook(t, key, "https://beside.example.com", "account.added") // committed by another connection
		if n := count(txCtx, tx); n != 1 {
			t.Errorf("second lookup: %d webhooks, want the memoised 1", n)
		}
		inside := domain.Webhook{ID: domain.NewID(), CustomerID: tn.sc.CustomerID, Mode: tn.sc.Mode, APIKeyID: key.ID, URL: "https://b.example.com",
			EnabledEvents: []string{"account.added"}, Status: domain.WebhookActive, Version: domain.LatestVersion, CreatedAt: tn.now, LastUpdated: tn.now}
		if err := tx.Webhooks().CreateWebhook(txCtx, tn.sc, inside); err != nil {
			return err
		}
		if n := count(txCtx, tx); n != 3 {
			t.Errorf("after a create in the transaction: %d webhooks, want 3 (the memo forgotten)", n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

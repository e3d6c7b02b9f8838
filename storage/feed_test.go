package storage_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"payline/domain"
	"payline/internal/testwait"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestFeedListensAgainAfterItsConnectionDies: the PostgreSQL connection
// that LISTENs is killed (as a database restart or a proxy's idle cut
// would); /readyz's check names the problem while it lasts, the feed
// listens again, and subscribers receive events committed afterwards.
func TestFeedListensAgainAfterItsConnectionDies(t *testing.T) {
	db := storagetest.Open(t, storage.Postgres, storagetest.Empty)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	customer := domain.Customer{ID: domain.NewID(), Name: "feed", CreatedAt: time.Now().UTC()}
	if err := storage.NewKeyStore(db).CreateCustomer(ctx, customer); err != nil {
		t.Fatal(err)
	}
	sc := domain.Scope{CustomerID: customer.ID, Mode: domain.ModeSandbox}
	events := db.Feed().Subscribe(ctx, sc)
	tx := storage.NewTransactor(db, nil)
	publish := func() string {
		e := domain.Event{ID: domain.NewID(), Name: "account.added", CreatedAt: time.Now().UTC(), Payload: []byte(`{}`)}
		if err := tx.InTx(ctx, func(ctx context.Context, tx domain.Tx) error { return tx.Events().CreateEvent(ctx, sc, e) }); err != nil {
			t.Fatal(err)
		}
		return e.ID
	}
	// receives publishes until one arrives: the listener may still be
	// connecting, and events committed before it listens are not replayed.
	receives := func() {
		t.Helper()
		for {
			id := publish()
			select {
			case e := <-events:
				if e.ID == id {
					return
				}
			case <-time.After(200 * time.Millisecond):
			case <-ctx.Done():
				t.Fatal("no event arrived")
			}
		}
	}
	receives()
	var killed int
	if err := db.GetContext(ctx, &killed, `SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND query LIKE 'LISTEN%payline_events%' AND pid <> pg_backend_pid()) k`); err != nil || killed != 1 {
		t.Fatalf("killed %d listeners: %v", killed, err)
	}
	deadline, _ := ctx.Deadline()
	testwait.Eventually(t, time.Until(deadline), func() bool { // the listener notices its connection is gone
		return db.Feed().Problem() != ""
	}, "the feed never reported its lost connection")
	receives()
	testwait.Until(t, time.Until(deadline), func() error {
		if problem := db.Feed().Problem(); problem != "" {
			return fmt.Errorf("the feed still reports %q after events arrive again", problem)
		}
		return nil
	})
}

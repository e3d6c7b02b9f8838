package storage_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"payline/storage"
	"payline/storage/storagetest"
)

// TestInvalidationReadsRecover: an SQLite server whose reads of the
// change notices failed for a while may have missed notices pruned
// meanwhile, so when reads come back it drops what it keeps
// (Reconnected), as after PostgreSQL's listener reconnects.
func TestInvalidationReadsRecover(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Empty)
	reconnected, failed := make(chan struct{}, 1), make(chan struct{}, 1)
	signal := func(c chan struct{}) {
		select {
		case c <- struct{}{}:
		default:
		}
	}
	// The reader warns once when its reads start failing.
	log := slog.New(handlerFunc(func(r slog.Record) { signal(failed) }))
	inv, err := db.ReadInvalidationsEvery(storage.InvalidationHandlers{Reconnected: func() { signal(reconnected) }}, log, 5*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer inv.Close()
	ctx := context.Background()
	// The notices' table gone for a while: every read fails.
	if _, err := db.DB.ExecContext(ctx, `ALTER TABLE invalidation_notices RENAME TO invalidation_notices_away`); err != nil {
		t.Fatal(err)
	}
	select {
	case <-failed:
	case <-time.After(10 * time.Second):
		t.Fatal("no read failed without the notices' table")
	}
	if _, err := db.DB.ExecContext(ctx, `ALTER TABLE invalidation_notices_away RENAME TO invalidation_notices`); err != nil {
		t.Fatal(err)
	}
	select {
	case <-reconnected:
	case <-time.After(10 * time.Second):
		t.Fatal("reads came back and nothing was dropped")
	}
}

// handlerFunc is a slog handler that calls f with each record.
type handlerFunc func(slog.Record)

func (f handlerFunc) Enabled(context.Context, slog.Level) bool      { return true }
func (f handlerFunc) Handle(_ context.Context, r slog.Record) error { f(r); return nil }
func (f handlerFunc) WithAttrs([]slog.Attr) slog.Handler            { return f }
func (f handlerFunc) WithGroup(string) slog.Handler                 { return f }

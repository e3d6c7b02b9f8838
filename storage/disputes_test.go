package storage_test

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"payline/domain"
	"payline/internal/secretbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestDisputeStore, on both databases: a dispute reads back whole, its
// note sealed (not in the row's bytes) and still readable after the
// master key is rotated; an update naming a stale version writes nothing;
// the lists filter by tenant, end user, status and overdue; the open
// disputes of several end users come in one call; the overdue sweep sees
// a dispute once it is due and not after it was raised.
func TestDisputeStore(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		ks := storage.NewKeyStore(db)
		keys := domain.NewKeyService(ks, ks, domain.SystemClock{})
		acme, err := keys.CreateKey(ctx, "acme", domain.ModeSandbox)
		if err != nil {
			t.Fatal(err)
		}
		globex, err := keys.CreateKey(ctx, "globex", domain.ModeSandbox)
		if err != nil {
			t.Fatal(err)
		}
		sc, other := acme.Key.Scope(), globex.Key.Scope()
		tx := storage.NewTransactor(db, nil)
		at := time.Date(2026, 4, 30, 16, 30, 0, 0, time.UTC)
		newDispute := func(sc domain.Scope, endUser, note string, received time.Time) domain.Dispute {
			due, noticeDue := domain.DisputeClocks(received)
			d := domain.Dispute{ID: domain.NewID(), Scope: sc, EndUserID: endUser, Note: note, Status: domain.DisputeOpen,
				Item:       domain.DisputeItem{Type: domain.DisputedPaystub, ID: domain.NewID(), Field: "net_pay_amount", AccountID: domain.NewID()},
				ReceivedAt: received, DueAt: due, Notice: domain.FurnisherNotice{Status: domain.NoticePending, DueAt: noticeDue},
				Steps: []domain.DisputeStep{{Status: domain.DisputeOpen, By: "end_user", At: received}}, UpdatedAt: received, Version: 1}
			if err := tx.InDisputeTx(ctx, func(ctx context.Context, t domain.DisputeTx) error { return t.Disputes().CreateDispute(ctx, d) }); err != nil {
				panic(err)
			}
			return d
		}
		erin := newDispute(sc, "erin", "My net pay was $1,912.40.", at)
		frank := newDispute(sc, "frank", "Not my employer.", at.Add(time.Hour))
		newDispute(other, "erin", "Another customer's.", at)

		got, err := tx.Dispute(ctx, sc, erin.ID)
		if err != nil || got.Note != erin.Note || got.Item != erin.Item || !got.DueAt.Equal(erin.DueAt) || len(got.Steps) != 1 ||
			!got.Notice.DueAt.Equal(erin.Notice.DueAt) {
			t.Fatalf("read back: %+v, %v", got, err)
		}
		if _, err := tx.Dispute(ctx, other, erin.ID); !errors.Is(err, domain.ErrNoRows) {
			t.Errorf("another tenant reads it: %v", err)
		}
		var raw []byte
		if err := db.GetContext(ctx, &raw, db.Rebind(`SELECT sealed_detail FROM disputes WHERE id = ?`), erin.ID); err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(raw, []byte("1,912.40")) {
			t.Error("the note is stored in the clear")
		}

		// A stale version writes nothing; the current one does.
		stale := got
		stale.Version = got.Version // names version 0 as the one it read
		stale.Status = domain.DisputeInvestigating
		if err := tx.InDisputeTx(ctx, func(ctx context.Context, t domain.DisputeTx) error { return t.Disputes().UpdateDispute(ctx, stale) }); !errors.Is(err, domain.ErrNoRows) {
			t.Errorf("a stale update: %v", err)
		}
		got.Version++
		got.Status = domain.DisputeInvestigating
		if err := tx.InDisputeTx(ctx, func(ctx context.Context, t domain.DisputeTx) error { return t.Disputes().UpdateDispute(ctx, got) }); err != nil {
			t.Fatal(err)
		}

		page, err := tx.FindDisputes(ctx, sc, domain.DisputeFilter{Status: domain.DisputeInvestigating}, domain.PageRequest{Limit: 25})
		if err != nil || len(page.Items) != 1 || page.Items[0].ID != erin.ID {
			t.Errorf("investigating: %+v, %v", page.Items, err)
		}
		page, err = tx.FindDisputes(ctx, sc, domain.DisputeFilter{}, domain.PageRequest{Limit: 1})
		if err != nil || len(page.Items) != 1 || page.Items[0].ID != frank.ID || page.Next == nil {
			t.Fatalf("newest first, paged: %+v, %v", page, err)
		}
		next, err := tx.FindDisputes(ctx, sc, domain.DisputeFilter{}, domain.PageRequest{Limit: 1, Cursor: page.Next})
		if err != nil || len(next.Items) != 1 || next.Items[0].ID != erin.ID || next.Next != nil {
			t.Errorf("second page: %+v, %v", next, err)
		}
		open, err := tx.OpenDisputesOfEndUsers(ctx, sc, []string{"erin", "frank", "nobody"})
		if err != nil || len(open["erin"]) != 1 || len(open["frank"]) != 1 || len(open) != 2 {
			t.Errorf("open disputes by end user: %v, %v", open, err)
		}

		// Overdue: due 30 days on, listed until raised.
		due, err := tx.DueOverdue(ctx, erin.DueAt.Add(-time.Second), 10)
		if err != nil || len(due) != 0 {
			t.Errorf("due a second early: %v, %v", due, err)
		}
		due, err = tx.DueOverdue(ctx, erin.DueAt, 10)
		if err != nil || len(due) != 2 || due[0].ID != erin.ID {
			t.Fatalf("due at erin's due time: %v, %v", due, err) // erin's and the other customer's
		}
		over, err := tx.FindDisputes(ctx, sc, domain.DisputeFilter{Overdue: true, Now: erin.DueAt}, domain.PageRequest{Limit: 25})
		if err != nil || len(over.Items) != 1 || over.Items[0].ID != erin.ID {
			t.Errorf("overdue at erin's due time: %+v, %v", over.Items, err)
		}
		raised := erin.DueAt
		got.Version++
		got.OverdueAt = &raised
		if err := tx.InDisputeTx(ctx, func(ctx context.Context, t domain.DisputeTx) error { return t.Disputes().UpdateDispute(ctx, got) }); err != nil {
			t.Fatal(err)
		}
		if due, _ := tx.DueOverdue(ctx, erin.DueAt, 10); len(due) != 1 || due[0].ID == erin.ID {
			t.Errorf("due after erin's was raised: %v", due)
		}

		// A master key rotation seals the note anew; it still reads.
		nextKey, err := secretbox.New(bytes.Repeat([]byte{0x6b}, secretbox.KeySize), bytes.Repeat([]byte{0x5a}, secretbox.KeySize))
		if err != nil {
			t.Fatal(err)
		}
		db.SealWith(nextKey)
		if _, err := db.ReSeal(ctx, 100, nil); err != nil {
			t.Fatal(err)
		}
		alone, err := secretbox.New(bytes.Repeat([]byte{0x6b}, secretbox.KeySize))
		if err != nil {
			t.Fatal(err)
		}
		db.SealWith(alone)
		if d, err := tx.Dispute(ctx, sc, erin.ID); err != nil || d.Note != erin.Note {
			t.Errorf("after the rotation: %q, %v", d.Note, err)
		}
	})
}

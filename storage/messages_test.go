package storage_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"payline/domain"
	"payline/internal/secretbox"
	"payline/storage"
	"payline/storage/storagetest"
)

func TestOutboxSealedAndScoped(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		store := storage.NewMessageStore(db)
		mine := domain.Scope{CustomerID: "c-mine", Mode: domain.ModeSandbox}
		theirs := domain.Scope{CustomerID: "c-theirs", Mode: domain.ModeSandbox}
		at := time.Date(2026, 11, 28, 20, 0, 0, 123456000, time.UTC)
		var want []domain.OutboxMessage
		for i, to := range []string{"jordan@example.com", "+15555550123", "sam@example.com"} {
			ch := domain.ChannelEmail
			if to[0] == '+' {
				ch = domain.ChannelSMS
			}
			m := domain.OutboxMessage{ID: domain.NewID(), Channel: ch, To: to, ToMasked: domain.MaskAddress(ch, to), FromName: "Acme",
				Subject: "Connect your payroll", Text: "Open https://p.example/l/secret" + to, HTML: "<p>Open</p>", Ref: "lo_1",
				CreatedAt: at.Add(time.Duration(i) * time.Minute)}
			if err := store.AddOutboxMessage(ctx, mine, m); err != nil {
				t.Fatal(err)
			}
			want = append([]domain.OutboxMessage{m}, want...) // newest first
		}
		other := domain.OutboxMessage{ID: domain.NewID(), Channel: domain.ChannelEmail, To: "x@example.com", ToMasked: "x***@example.com",
			Subject: "theirs", Text: "t", CreatedAt: at}
		if err := store.AddOutboxMessage(ctx, theirs, other); err != nil {
			t.Fatal(err)
		}
		first, err := store.OutboxMessages(ctx, mine, domain.PageRequest{Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		if first.Next == nil {
			t.Fatal("no next cursor after 2 of 3")
		}
		second, err := store.OutboxMessages(ctx, mine, domain.PageRequest{Limit: 2, Cursor: first.Next})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, append(first.Items, second.Items...)); diff != "" {
			t.Errorf("outbox (-want +got):\n%s", diff)
		}
		// Nothing readable at rest: neither the address nor the link.
		var raw []byte
		if err := db.GetContext(ctx, &raw, db.Rebind(`SELECT sealed_to FROM outbox_messages WHERE id = ?`), want[0].ID); err != nil {
			t.Fatal(err)
		}
		var text []byte
		if err := db.GetContext(ctx, &text, db.Rebind(`SELECT body_text FROM outbox_messages WHERE id = ?`), want[0].ID); err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(raw, []byte("sam@")) || bytes.Contains(text, []byte("secret")) {
			t.Error("the outbox stores the recipient or the body in the clear")
		}
		// A sealed value moved to another row does not open there.
		if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE outbox_messages SET sealed_to = ? WHERE id = ?`), raw, want[1].ID); err != nil {
			t.Fatal(err)
		}
		if _, err := store.OutboxMessages(ctx, mine, domain.PageRequest{Limit: 10}); err == nil {
			t.Error("a recipient sealed for another row opened")
		}
	})
}

func TestOptOutsByKeyedHash(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		store := storage.NewMessageStore(db)
		const phone = "+15555550123"
		at := time.Date(2026, 11, 28, 20, 0, 0, 0, time.UTC)
		check := func(mode domain.Mode, want bool) {
			t.Helper()
			got, err := store.OptedOut(ctx, mode, phone)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("OptedOut(%s) = %v, want %v", mode, got, want)
			}
		}
		check(domain.ModeProduction, false)
		if err := store.SetOptedOut(ctx, domain.ModeProduction, phone, true, domain.OptOutReply, at); err != nil {
			t.Fatal(err)
		}
		check(domain.ModeProduction, true)
		check(domain.ModeSandbox, false)
		var hashes [][]byte
		if err := db.SelectContext(ctx, &hashes, `SELECT phone_hash FROM message_opt_outs`); err != nil {
			t.Fatal(err)
		}
		if len(hashes) != 1 || bytes.Contains(hashes[0], []byte("5555550123")) || len(hashes[0]) != 32 {
			t.Errorf("stored %q, want one 32-byte keyed hash", hashes)
		}
		// A master key rotation seals the hashing key anew; the hashes stay.
		next, err := secretbox.New(bytes.Repeat([]byte{0x6b}, secretbox.KeySize), bytes.Repeat([]byte{0x5a}, secretbox.KeySize))
		if err != nil {
			t.Fatal(err)
		}
		db.SealWith(next)
		if _, err := db.ReSeal(ctx, 100, nil); err != nil {
			t.Fatal(err)
		}
		alone, err := secretbox.New(bytes.Repeat([]byte{0x6b}, secretbox.KeySize))
		if err != nil {
			t.Fatal(err)
		}
		db.SealWith(alone)
		store = storage.NewMessageStore(db) // nothing cached: the key is read under the new master key
		check(domain.ModeProduction, true)
		if err := store.SetOptedOut(ctx, domain.ModeProduction, phone, false, domain.OptOutReply, at.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		check(domain.ModeProduction, false)
	})
}

func TestOutboxPrunedWithDeliveries(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		store := storage.NewMessageStore(db)
		sc := domain.Scope{CustomerID: "c1", Mode: domain.ModeSandbox}
		now := time.Date(2026, 11, 28, 21, 0, 0, 0, time.UTC)
		for _, age := range []time.Duration{31 * 24 * time.Hour, time.Hour} {
			m := domain.OutboxMessage{ID: domain.NewID(), Channel: domain.ChannelSMS, To: "+15555550123", ToMasked: "***-***-0123",
				Text: "t", CreatedAt: now.Add(-age)}
			if err := store.AddOutboxMessage(ctx, sc, m); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := storage.NewRetentionStore(db).Prune(ctx, time.Time{}, now.Add(-domain.DefaultRetention.Deliveries), time.Time{}); err != nil {
			t.Fatal(err)
		}
		page, err := store.OutboxMessages(ctx, sc, domain.PageRequest{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) != 1 || !page.Items[0].CreatedAt.Equal(now.Add(-time.Hour)) {
			t.Errorf("after pruning: %+v, want the hour-old message only", page.Items)
		}
	})
}

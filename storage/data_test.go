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

func TestProductStore(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		tn, other := newTenant(t, db), newTenant(t, db)
		a := tn.account(t, tn.token(t, "h"), tn.now)
		if _, err := tn.tx.Data().Product(ctx, tn.sc, a.ID, domain.ProductIdentity); !errors.Is(err, domain.ErrNoRows) {
			t.Fatalf("before any read: %v", err)
		}
		id := domain.Identity{FullName: "Erin Doe", DateOfBirth: "1990-01-02", Emails: []string{"erin@example.com"}}
		put := func(v domain.Identity, at time.Time) bool {
			t.Helper()
			changed, err := tn.tx.Data().PutProduct(ctx, tn.sc, a.ID, domain.ProductIdentity, domain.ProductData{Identity: &v}, at)
			if err != nil {
				t.Fatal(err)
			}
			return changed
		}
		if !put(id, tn.now) {
			t.Error("the first write changed nothing")
		}
		if put(id, tn.now.Add(time.Hour)) {
			t.Error("writing the same identity again reads as a change")
		}
		got, err := tn.tx.Data().Product(ctx, tn.sc, a.ID, domain.ProductIdentity)
		if err != nil || got.Identity == nil || got.Identity.FullName != "Erin Doe" || !got.UpdatedAt.Equal(tn.now) {
			t.Fatalf("read back %+v (updated %v), %v; an unchanged write keeps updated_at", got.Identity, got.UpdatedAt, err)
		}
		id.FullName = "Erin Roe"
		if !put(id, tn.now.Add(2*time.Hour)) {
			t.Error("a new name reads as no change")
		}
		if got, _ := tn.tx.Data().Product(ctx, tn.sc, a.ID, domain.ProductIdentity); got.Identity.FullName != "Erin Roe" {
			t.Errorf("after the change: %q", got.Identity.FullName)
		}
		if _, err := other.tx.Data().Product(ctx, other.sc, a.ID, domain.ProductIdentity); !errors.Is(err, domain.ErrNoRows) {
			t.Errorf("another tenant read the product: %v", err)
		}
	})
}

func TestPaystubStore(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		tn := newTenant(t, db)
		a := tn.account(t, tn.token(t, "h"), tn.now)
		stub := func(date domain.Date) domain.Paystub {
			return domain.Paystub{ID: domain.NewID(), AccountID: a.ID, PayDate: date, PayPeriodStart: date, PayPeriodEnd: date,
				GrossPayAmount: domain.USD(250000), NetPayAmount: domain.USD(190000), GrossPayYTD: domain.USD(250000)}
		}
		stubs := []domain.Paystub{stub("2026-01-15"), stub("2026-01-31"), stub("2026-02-15")}
		if date, err := tn.tx.Data().LatestPayDate(ctx, tn.sc, a.ID); err != nil || date != "" {
			t.Errorf("LatestPayDate before any: %q, %v", date, err)
		}
		n, err := tn.tx.Data().PutPaystubs(ctx, tn.sc, a.ID, stubs)
		if err != nil || n != 3 {
			t.Fatalf("PutPaystubs: %d, %v", n, err)
		}
		if n, err := tn.tx.Data().PutPaystubs(ctx, tn.sc, a.ID, stubs); err != nil || n != 0 {
			t.Errorf("the same stubs again added %d, %v", n, err)
		}
		page, err := tn.tx.Data().FindPaystubs(ctx, tn.sc, a.ID, "", domain.PageRequest{Limit: 2})
		if err != nil || len(page.Items) != 2 || page.Items[0].PayDate != "2026-02-15" || page.Next == nil {
			t.Fatalf("first page: %+v, %v (newest pay date first)", page.Items, err)
		}
		rest, err := tn.tx.Data().FindPaystubs(ctx, tn.sc, a.ID, "", domain.PageRequest{Limit: 2, Cursor: page.Next})
		if err != nil || len(rest.Items) != 1 || rest.Items[0].PayDate != "2026-01-15" {
			t.Errorf("second page: %+v, %v", rest.Items, err)
		}
		since, err := tn.tx.Data().FindPaystubs(ctx, tn.sc, a.ID, "2026-01-31", domain.PageRequest{Limit: 10})
		if err != nil || len(since.Items) != 2 {
			t.Errorf("from 2026-01-31: %d, %v", len(since.Items), err)
		}
		got, err := tn.tx.Data().Paystub(ctx, tn.sc, a.ID, stubs[1].ID)
		if err != nil || got.GrossPayAmount.Amount != 250000 || got.PayDate != "2026-01-31" {
			t.Errorf("Paystub: %+v, %v", got, err)
		}
		if _, err := tn.tx.Data().Paystub(ctx, tn.sc, a.ID, domain.NewID()); !errors.Is(err, domain.ErrNoRows) {
			t.Errorf("an unknown paystub: %v", err)
		}
		if date, err := tn.tx.Data().LatestPayDate(ctx, tn.sc, a.ID); err != nil || date != "2026-02-15" {
			t.Errorf("LatestPayDate: %q, %v", date, err)
		}
	})
}

func TestMonitoredAccounts(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Empty)
	ctx := context.Background()
	tn := newTenant(t, db)
	tok := tn.token(t, "h")
	var ids []string
	for range 3 {
		ids = append(ids, tn.account(t, tok, tn.now).ID)
	}
	err := tn.tx.InTx(ctx, func(ctx context.Context, tx domain.Tx) error {
		a, err := tx.Accounts().AccountForUpdate(ctx, tn.sc, ids[0])
		if err != nil {
			return err
		}
		a.MonitoringStatus = domain.MonitoringCustomerDisabled
		return tx.Accounts().UpdateAccount(ctx, tn.sc, a)
	})
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	after := ""
	for {
		page, err := tn.tx.Accounts().MonitoredAccounts(ctx, 1, after)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		seen = append(seen, page[0].ID)
		after = page[0].ID
	}
	if len(seen) != 2 {
		t.Fatalf("monitored %v, want the two accounts still monitored", seen)
	}
	for _, id := range seen {
		if id == ids[0] {
			t.Error("an account whose monitoring the customer disabled is monitored")
		}
	}
}

package storage_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"testing"
	"time"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

func mustCreateCustomer(t *testing.T, s *storage.KeyStore, name string) domain.Customer {
	t.Helper()
	c := domain.Customer{ID: domain.NewID(), Name: name, CreatedAt: time.Now().UTC().Truncate(time.Microsecond)}
	if err := s.CreateCustomer(context.Background(), c); err != nil {
		t.Fatalf("create customer %s: %v", name, err)
	}
	return c
}

func mustCreateKey(t *testing.T, s *storage.KeyStore, sc domain.Scope, secret string) domain.APIKey {
	t.Helper()
	h := sha256.Sum256([]byte(secret))
	k := domain.APIKey{ID: domain.NewID(), CustomerID: sc.CustomerID, Mode: sc.Mode, CreatedAt: time.Now().UTC().Truncate(time.Microsecond),
		SecretHash: h[:]}
	if err := s.CreateAPIKey(context.Background(), sc, k, secret); err != nil {
		t.Fatalf("create key: %v", err)
	}
	return k
}

func TestCustomerNamesAreUnique(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		s := storage.NewKeyStore(db)
		mustCreateCustomer(t, s, "acme")
		err := s.CreateCustomer(context.Background(), domain.Customer{ID: domain.NewID(), Name: "acme", CreatedAt: time.Now()})
		if !errors.Is(err, domain.ErrDuplicate) {
			t.Fatalf("second acme: got %v, want ErrDuplicate", err)
		}
		if _, err := s.CustomerByName(context.Background(), "nobody"); !errors.Is(err, domain.ErrNoRows) {
			t.Fatalf("unknown customer: got %v, want ErrNoRows", err)
		}
	})
}

// TestKeysAreTenantScoped proves two customers never see or revoke each
// other's keys, and that a mode is a separate tenant too.
func TestKeysAreTenantScoped(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		s := storage.NewKeyStore(db)
		a := mustCreateCustomer(t, s, "alpha")
		b := mustCreateCustomer(t, s, "beta")
		aSandbox := domain.Scope{CustomerID: a.ID, Mode: domain.ModeSandbox}
		aProd := domain.Scope{CustomerID: a.ID, Mode: domain.ModeProduction}
		bSandbox := domain.Scope{CustomerID: b.ID, Mode: domain.ModeSandbox}
		ka := mustCreateKey(t, s, aSandbox, "secret-a")
		kb := mustCreateKey(t, s, bSandbox, "secret-b")

		for _, tc := range []struct {
			name  string
			scope domain.Scope
			want  []string
		}{
			{"alpha sandbox", aSandbox, []string{ka.ID}},
			{"alpha production", aProd, nil},
			{"beta sandbox", bSandbox, []string{kb.ID}},
		} {
			keys, err := s.APIKeys(ctx, tc.scope)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, k := range keys {
				got = append(got, k.ID)
				if k.CustomerID != tc.scope.CustomerID || k.Mode != tc.scope.Mode {
					t.Errorf("%s: key %s belongs to %s/%s", tc.name, k.ID, k.CustomerID, k.Mode)
				}
			}
			if len(got) != len(tc.want) || (len(got) == 1 && got[0] != tc.want[0]) {
				t.Errorf("%s: keys %v, want %v", tc.name, got, tc.want)
			}
		}

		// Beta cannot revoke alpha's key, nor can alpha's other mode.
		for _, sc := range []domain.Scope{bSandbox, aProd} {
			if err := s.RevokeAPIKey(ctx, sc, ka.ID, time.Now()); !errors.Is(err, domain.ErrNoRows) {
				t.Errorf("revoke from %v: got %v, want ErrNoRows", sc, err)
			}
		}
		got, err := s.APIKeyBySecretHash(ctx, ka.SecretHash)
		if err != nil || got.RevokedAt != nil {
			t.Fatalf("alpha's key after foreign revokes: %+v, %v", got, err)
		}
		if err := s.RevokeAPIKey(ctx, aSandbox, ka.ID, time.Now()); err != nil {
			t.Fatal(err)
		}
		got, _ = s.APIKeyBySecretHash(ctx, ka.SecretHash)
		if got.RevokedAt == nil {
			t.Error("owner's revoke did not take")
		}
		other, _ := s.APIKeyBySecretHash(ctx, kb.SecretHash)
		if other.RevokedAt != nil {
			t.Error("revoking alpha's key revoked beta's")
		}
		scope, err := s.APIKeyScope(ctx, kb.ID)
		if err != nil || scope != bSandbox {
			t.Errorf("scope of beta's key: %v, %v", scope, err)
		}
	})
}

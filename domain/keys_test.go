package domain_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"sync"
	"testing"
	"time"

	"payline/domain"
)

// memKeys is an in-memory key store, enough to test the service's rules;
// the SQL stores are tested against both databases in storage.
type memKeys struct {
	mu        sync.Mutex
	customers map[string]domain.Customer
	keys      map[string]domain.APIKey
	secrets   map[string]string
	lookups   int
	audit     []domain.AuditEntry
}

// InAdminTx runs fn on the store itself: the fake has no transactions.
func (m *memKeys) InAdminTx(ctx context.Context, fn func(context.Context, domain.AdminTx) error) error {
	return fn(ctx, m)
}

func (m *memKeys) Keys() domain.APIKeyStore            { return m }
func (m *memKeys) CustomerStore() domain.CustomerStore { return m }

// Members: the fake holds no members; the member rules are tested on the
// SQL stores (rest, cmd/payline).
func (m *memKeys) Members() domain.MemberStore { return nil }
func (m *memKeys) Audit() domain.AuditStore    { return m }

func (m *memKeys) AppendAudit(_ context.Context, e domain.AuditEntry) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.audit = append(m.audit, e)
	return nil
}

func (m *memKeys) AuditLog(_ context.Context, s domain.Scope, limit int) ([]domain.AuditEntry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []domain.AuditEntry
	for i := len(m.audit) - 1; i >= 0 && len(out) < limit; i-- {
		if e := m.audit[i]; e.CustomerID == s.CustomerID && e.Mode == s.Mode {
			out = append(out, e)
		}
	}
	return out, nil
}

func newMemKeys() *memKeys {
	return &memKeys{customers: map[string]domain.Customer{}, keys: map[string]domain.APIKey{}, secrets: map[string]string{}}
}

func (m *memKeys) CreateCustomer(_ context.Context, c domain.Customer) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.customers[c.Name]; ok {
		return domain.ErrDuplicate
	}
	m.customers[c.Name] = c
	return nil
}

func (m *memKeys) CustomerByName(_ context.Context, name string) (domain.Customer, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.customers[name]
	if !ok {
		return c, domain.ErrNoRows
	}
	return c, nil
}

func (m *memKeys) Customers(context.Context) ([]domain.Customer, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []domain.Customer
	for _, c := range m.customers {
		out = append(out, c)
	}
	return out, nil
}

func (m *memKeys) CreateAPIKey(_ context.Context, _ domain.Scope, k domain.APIKey, secret string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.keys[k.ID] = k
	m.secrets[k.ID] = secret
	return nil
}

func (m *memKeys) APIKeySecret(_ context.Context, s domain.Scope, id string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if k, ok := m.keys[id]; !ok || k.Scope() != s {
		return "", domain.ErrNoRows
	}
	return m.secrets[id], nil
}

func (m *memKeys) APIKeys(_ context.Context, s domain.Scope) ([]domain.APIKey, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []domain.APIKey
	for _, k := range m.keys {
		if k.Scope() == s {
			out = append(out, k)
		}
	}
	return out, nil
}

func (m *memKeys) RevokeAPIKey(_ context.Context, s domain.Scope, id string, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	k, ok := m.keys[id]
	if !ok || k.Scope() != s {
		return domain.ErrNoRows
	}
	k.RevokedAt = &at
	m.keys[id] = k
	return nil
}

func (m *memKeys) APIKeyBySecretHash(_ context.Context, h []byte) (domain.APIKey, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.lookups++
	for _, k := range m.keys {
		if bytes.Equal(k.SecretHash, h) {
			return k, nil
		}
	}
	return domain.APIKey{}, domain.ErrNoRows
}

func (m *memKeys) APIKeyScope(_ context.Context, id string) (domain.Scope, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k, ok := m.keys[id]
	if !ok {
		return domain.Scope{}, domain.ErrNoRows
	}
	return k.Scope(), nil
}

func (m *memKeys) APIKey(_ context.Context, s domain.Scope, id string) (domain.APIKey, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k, ok := m.keys[id]
	if !ok || k.Scope() != s {
		return domain.APIKey{}, domain.ErrNoRows
	}
	return k, nil
}

type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time { return c.now }

func newKeyService(t *testing.T) (*domain.KeyService, *memKeys, *fakeClock) {
	t.Helper()
	store := newMemKeys()
	clock := &fakeClock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	return domain.NewKeyService(store, store, clock), store, clock
}

func TestCreateKeyStoresNoPlainSecret(t *testing.T) {
	svc, store, _ := newKeyService(t)
	created, err := svc.CreateKey(context.Background(), "acme", domain.ModeSandbox)
	if err != nil {
		t.Fatal(err)
	}
	if len(created.Secret) != 64 {
		t.Errorf("secret %q is not 256 bits of hex", created.Secret)
	}
	stored := store.keys[created.Key.ID]
	if h := sha256.Sum256([]byte(created.Secret)); !bytes.Equal(stored.SecretHash, h[:]) {
		t.Error("stored hash is not SHA-256 of the secret")
	}
	// The secret goes to the store (which seals it: storage's sealed
	// tests), and webhooks are signed with what it gives back.
	if got, err := svc.SigningSecret(context.Background(), stored.Scope(), stored.ID); err != nil || got != created.Secret {
		t.Errorf("SigningSecret() = %q, %v", got, err)
	}
	if _, err := svc.SigningSecret(context.Background(), domain.Scope{CustomerID: domain.NewID(), Mode: domain.ModeSandbox}, stored.ID); err == nil {
		t.Error("another tenant read the key's secret")
	}
	again, err := svc.CreateKey(context.Background(), "acme", domain.ModeProduction)
	if err != nil || again.Customer.ID != created.Customer.ID {
		t.Errorf("second key made a second customer: %v", err)
	}
}

func TestAuthenticate(t *testing.T) {
	ctx := context.Background()
	svc, store, clock := newKeyService(t)
	good, _ := svc.CreateKey(ctx, "acme", domain.ModeSandbox)
	prod, _ := svc.CreateKey(ctx, "acme", domain.ModeProduction)
	for _, tc := range []struct {
		name, secret, code string
	}{
		{"missing", "", domain.CodeMissingAPISecret},
		{"unknown", "nope", domain.CodeInvalidAPISecret},
		{"other mode", prod.Secret, domain.CodeWrongModeAPISecret},
	} {
		_, err := svc.Authenticate(ctx, tc.secret, domain.ModeSandbox)
		if e := domain.AsError(err); e.Kind != domain.KindUnauthorized || e.Code != tc.code {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.code)
		}
	}
	k, err := svc.Authenticate(ctx, good.Secret, domain.ModeSandbox)
	if err != nil || k.ID != good.Key.ID {
		t.Fatalf("good secret: %v", err)
	}
	before := store.lookups
	if _, err := svc.Authenticate(ctx, good.Secret, domain.ModeSandbox); err != nil || store.lookups != before {
		t.Errorf("second call within the TTL hit the store (%d lookups)", store.lookups-before)
	}
	clock.now = clock.now.Add(domain.AuthCacheTTL + time.Second)
	if _, err := svc.Authenticate(ctx, good.Secret, domain.ModeSandbox); err != nil || store.lookups != before+1 {
		t.Errorf("call after the TTL did not re-check the store")
	}
	// Revoking through the service takes effect at once, cache or not.
	if err := svc.RevokeKey(ctx, good.Key.ID); err != nil {
		t.Fatal(err)
	}
	_, err = svc.Authenticate(ctx, good.Secret, domain.ModeSandbox)
	if e := domain.AsError(err); e.Code != domain.CodeRevokedAPISecret {
		t.Errorf("revoked: %v", err)
	}
	if err := svc.RevokeKey(ctx, domain.NewID()); !domain.IsKind(err, domain.KindNotFound) {
		t.Errorf("revoke unknown: %v", err)
	}
	if err := svc.RevokeKey(ctx, "not-an-id"); !domain.IsKind(err, domain.KindNotFound) {
		t.Errorf("revoke malformed: %v", err)
	}
}

func TestCustomerNames(t *testing.T) {
	svc, _, _ := newKeyService(t)
	ctx := context.Background()
	if _, err := svc.CreateCustomer(ctx, "  "); !domain.IsKind(err, domain.KindInvalid) {
		t.Errorf("blank name: %v", err)
	}
	if _, err := svc.CreateCustomer(ctx, "acme"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CreateCustomer(ctx, "acme"); !domain.IsKind(err, domain.KindConflict) {
		t.Errorf("duplicate: %v", err)
	}
}

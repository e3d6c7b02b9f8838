package storage

import (
	"context"
	"encoding/hex"
	"time"

	"payline/domain"
)

// KeyStore implements domain.CustomerStore and domain.APIKeyStore.
type KeyStore struct{ db *DB }

// NewKeyStore returns the customer and API key store of db.
func NewKeyStore(db *DB) *KeyStore { return &KeyStore{db: db} }

type customerRow struct {
	ID        string    `db:"id"`
	Name      string    `db:"name"`
	CreatedAt time.Time `db:"created_at"`
}

func (r customerRow) domain() domain.Customer {
	return domain.Customer{ID: r.ID, Name: r.Name, CreatedAt: r.CreatedAt.UTC()}
}

type apiKeyRow struct {
	ID           string     `db:"id"`
	CustomerID   string     `db:"customer_id"`
	Mode         string     `db:"mode"`
	SecretHash   string     `db:"secret_hash"`
	SealedSecret []byte     `db:"sealed_secret"`
	CreatedAt    time.Time  `db:"created_at"`
	RevokedAt    *time.Time `db:"revoked_at"`
}

func (r apiKeyRow) domain() domain.APIKey {
	hash, _ := hex.DecodeString(r.SecretHash)
	k := domain.APIKey{
		ID: r.ID, CustomerID: r.CustomerID, Mode: domain.Mode(r.Mode), CreatedAt: r.CreatedAt.UTC(),
		SecretHash: hash, SealedSecret: r.SealedSecret,
	}
	if r.RevokedAt != nil {
		t := r.RevokedAt.UTC()
		k.RevokedAt = &t
	}
	return k
}

const apiKeyColumns = `id, customer_id, mode, secret_hash, sealed_secret, created_at, revoked_at`

// CreateCustomer inserts a customer; domain.ErrDuplicate if the name is taken.
func (s *KeyStore) CreateCustomer(ctx context.Context, c domain.Customer) error {
	_, err := s.db.ExecContext(ctx, s.db.Rebind(`INSERT INTO customers (id, name, created_at) VALUES (?, ?, ?)`),
		c.ID, c.Name, c.CreatedAt)
	return translate(err)
}

// CustomerByName finds a customer by its unique name.
func (s *KeyStore) CustomerByName(ctx context.Context, name string) (domain.Customer, error) {
	var r customerRow
	err := s.db.GetContext(ctx, &r, s.db.Rebind(`SELECT id, name, created_at FROM customers WHERE name = ?`), name)
	return r.domain(), translate(err)
}

// Customers lists customers by name.
func (s *KeyStore) Customers(ctx context.Context) ([]domain.Customer, error) {
	var rows []customerRow
	if err := s.db.SelectContext(ctx, &rows, `SELECT id, name, created_at FROM customers ORDER BY name`); err != nil {
		return nil, translate(err)
	}
	out := make([]domain.Customer, len(rows))
	for i, r := range rows {
		out[i] = r.domain()
	}
	return out, nil
}

// CreateAPIKey stores a key under the scope's tenant.
func (s *KeyStore) CreateAPIKey(ctx context.Context, sc domain.Scope, k domain.APIKey) error {
	_, err := s.db.ExecContext(ctx, s.db.Rebind(`INSERT INTO api_keys (`+apiKeyColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?)`),
		k.ID, sc.CustomerID, string(sc.Mode), hex.EncodeToString(k.SecretHash), k.SealedSecret, k.CreatedAt, k.RevokedAt)
	return translate(err)
}

// APIKeys lists the scope's keys, newest first.
func (s *KeyStore) APIKeys(ctx context.Context, sc domain.Scope) ([]domain.APIKey, error) {
	var rows []apiKeyRow
	err := s.db.SelectContext(ctx, &rows, s.db.Rebind(`SELECT `+apiKeyColumns+` FROM api_keys
		WHERE customer_id = ? AND mode = ? ORDER BY created_at DESC, id DESC`), sc.CustomerID, string(sc.Mode))
	if err != nil {
		return nil, translate(err)
	}
	out := make([]domain.APIKey, len(rows))
	for i, r := range rows {
		out[i] = r.domain()
	}
	return out, nil
}

// RevokeAPIKey marks the scope's key revoked; domain.ErrNoRows when the
// scope has no such key. Revoking twice keeps the first time.
func (s *KeyStore) RevokeAPIKey(ctx context.Context, sc domain.Scope, id string, at time.Time) error {
	res, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?)
		WHERE id = ? AND customer_id = ? AND mode = ?`), at, id, sc.CustomerID, string(sc.Mode))
	if err != nil {
		return translate(err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return domain.ErrNoRows
	}
	return notifyInvalidate(ctx, s.db, s.db.Dialect, "key "+id)
}

// APIKeyBySecretHash finds a key by the hash of its secret, in any tenant.
func (s *KeyStore) APIKeyBySecretHash(ctx context.Context, hash []byte) (domain.APIKey, error) {
	var r apiKeyRow
	err := s.db.GetContext(ctx, &r, s.db.Rebind(`SELECT `+apiKeyColumns+` FROM api_keys WHERE secret_hash = ?`), hex.EncodeToString(hash))
	return r.domain(), translate(err)
}

// APIKeyScope finds the tenant that owns a key id.
func (s *KeyStore) APIKeyScope(ctx context.Context, id string) (domain.Scope, error) {
	var r apiKeyRow
	err := s.db.GetContext(ctx, &r, s.db.Rebind(`SELECT `+apiKeyColumns+` FROM api_keys WHERE id = ?`), id)
	return r.domain().Scope(), translate(err)
}

// APIKey returns one of the scope's keys.
func (s *KeyStore) APIKey(ctx context.Context, sc domain.Scope, id string) (domain.APIKey, error) {
	var r apiKeyRow
	err := s.db.GetContext(ctx, &r, s.db.Rebind(`SELECT `+apiKeyColumns+` FROM api_keys WHERE id = ? AND customer_id = ? AND mode = ?`),
		id, sc.CustomerID, string(sc.Mode))
	return r.domain(), translate(err)
}

package storage

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"
)

// MasterKeyRecord is the fingerprint of the key that seals a database's
// secrets (secretbox.Fingerprint).
type MasterKeyRecord struct {
	KeyID string `db:"key_id"`
	Check string `db:"check_value"`
}

// MasterKeyStore keeps the master key's fingerprint and finds a sealed
// secret to try a key on.
type MasterKeyStore struct{ db *DB }

func NewMasterKeyStore(db *DB) *MasterKeyStore { return &MasterKeyStore{db: db} }

// Recorded returns the fingerprint, if one was recorded.
func (s *MasterKeyStore) Recorded(ctx context.Context) (MasterKeyRecord, bool, error) {
	var r MasterKeyRecord
	err := sqlx.GetContext(ctx, s.db, &r, `SELECT key_id, check_value FROM master_key WHERE singleton = 1`)
	if errors.Is(err, sql.ErrNoRows) {
		return MasterKeyRecord{}, false, nil
	}
	return r, err == nil, translate(err)
}

// Record stores r unless a fingerprint is already there, and returns the
// one that is: when two processes start on a new database at once, both
// see the first one's.
func (s *MasterKeyStore) Record(ctx context.Context, r MasterKeyRecord, at time.Time) (MasterKeyRecord, error) {
	_, err := s.db.ExecContext(ctx, s.db.Rebind(`INSERT INTO master_key (singleton, key_id, check_value, recorded_at)
		VALUES (1, ?, ?, ?) ON CONFLICT (singleton) DO NOTHING`), r.KeyID, r.Check, at.UTC())
	if err != nil {
		return MasterKeyRecord{}, translate(err)
	}
	got, _, err := s.Recorded(ctx)
	return got, err
}

// Replace records r as the database's key, after every sealed value was
// sealed with it again (payline keys rotate-master).
func (s *MasterKeyStore) Replace(ctx context.Context, r MasterKeyRecord, at time.Time) error {
	_, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE master_key SET key_id = ?, check_value = ?, recorded_at = ? WHERE singleton = 1`),
		r.KeyID, r.Check, at.UTC())
	return translate(err)
}

// SealedSample returns one API key's id and sealed secret, for a database
// whose secrets were sealed before fingerprints were recorded.
func (s *MasterKeyStore) SealedSample(ctx context.Context) (keyID string, sealed []byte, found bool, err error) {
	var row struct {
		ID     string `db:"id"`
		Sealed []byte `db:"sealed_secret"`
	}
	err = sqlx.GetContext(ctx, s.db, &row, `SELECT id, sealed_secret FROM api_keys ORDER BY id LIMIT 1`)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil, false, nil
	}
	if err != nil {
		return "", nil, false, translate(err)
	}
	return row.ID, row.Sealed, true, nil
}

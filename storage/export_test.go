package storage

import "context"

// MigrateTo applies Payline's migrations up to version, for tests of one
// migration's conversion of existing rows.
func (db *DB) MigrateTo(ctx context.Context, version int64) error {
	provider, err := db.migrations()
	if err != nil {
		return err
	}
	_, err = provider.UpTo(ctx, version)
	return err
}

package storage

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"

	"github.com/pressly/goose/v3"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
)

//go:embed migrations
var migrations embed.FS

// Migrate brings the schema up to date: Payline's tables through goose,
// then River's job tables through rivermigrate. Both are idempotent.
func (db *DB) Migrate(ctx context.Context) error {
	provider, err := db.migrations()
	if err != nil {
		return err
	}
	if _, err := provider.Up(ctx); err != nil {
		return fmt.Errorf("apply migrations: %w", err)
	}
	migrator, err := rivermigrate.New(db.RiverDriver(), nil)
	if err != nil {
		return fmt.Errorf("river migrations: %w", err)
	}
	if _, err := migrator.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("apply river migrations: %w", err)
	}
	return nil
}

// migrations is the goose provider of the dialect's folder.
func (db *DB) migrations() (*goose.Provider, error) {
	dir, goDialect := "migrations/postgres", goose.DialectPostgres
	if db.Dialect == SQLite {
		dir, goDialect = "migrations/sqlite", goose.DialectSQLite3
	}
	sub, err := fs.Sub(migrations, dir)
	if err != nil {
		return nil, err
	}
	provider, err := goose.NewProvider(goDialect, db.DB.DB, sub)
	if err != nil {
		return nil, fmt.Errorf("migrations: %w", err)
	}
	return provider, nil
}

// RiverDriver returns the River driver for this database. Both drivers
// work over database/sql, so River jobs can be inserted in the same
// *sql.Tx as the rows that cause them.
func (db *DB) RiverDriver() riverdriver.Driver[*sql.Tx] {
	if db.Dialect == SQLite {
		return riversqlite.New(db.DB.DB)
	}
	return riverdatabasesql.New(db.DB.DB)
}

// MigrationVersions are the schema's applied migration and the latest one
// this binary carries; they differ until migrate runs.
func (db *DB) MigrationVersions(ctx context.Context) (current, latest int64, err error) {
	provider, err := db.migrations()
	if err != nil {
		return 0, 0, err
	}
	return provider.GetVersions(ctx)
}

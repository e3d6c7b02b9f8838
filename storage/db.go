package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq" // also registers the "postgres" driver
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"payline/domain"
)

// Dialect names the database engine behind a DB.
type Dialect string

// String returns the dialect name.
func (d Dialect) String() string { return string(d) }

// The two supported engines.
const (
	Postgres Dialect = "postgres"
	SQLite   Dialect = "sqlite"
)

// DB is an open, configured database of either dialect.
type DB struct {
	*sqlx.DB
	Dialect Dialect
	// Path is the SQLite file; empty for PostgreSQL.
	Path string
}

// ParseURL splits a --database-url into dialect and driver DSN. Accepted:
// sqlite:PATH (also sqlite://PATH) and postgres:// or postgresql:// URLs.
func ParseURL(raw string) (Dialect, string, error) {
	switch {
	case strings.HasPrefix(raw, "postgres://"), strings.HasPrefix(raw, "postgresql://"):
		if _, err := url.Parse(raw); err != nil {
			return "", "", fmt.Errorf("database url: %w", err)
		}
		return Postgres, raw, nil
	case strings.HasPrefix(raw, "sqlite:"):
		path := strings.TrimPrefix(strings.TrimPrefix(raw, "sqlite:"), "//")
		if path == "" {
			return "", "", errors.New("database url: sqlite: needs a file path, e.g. sqlite:payline.db")
		}
		return SQLite, path, nil
	}
	return "", "", fmt.Errorf("database url %q: use sqlite:PATH or postgres://USER@HOST:PORT/DB", redactURL(raw))
}

// redactURL hides a password in a URL before it is printed.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	return u.Redacted()
}

// Open connects to the database named by a --database-url and checks that
// it answers. It does not migrate; call Migrate.
func Open(ctx context.Context, rawURL string) (*DB, error) {
	dialect, dsn, err := ParseURL(rawURL)
	if err != nil {
		return nil, err
	}
	var db *DB
	switch dialect {
	case Postgres:
		x, err := sqlx.Open("postgres", dsn)
		if err != nil {
			return nil, err
		}
		x.SetMaxOpenConns(20)
		x.SetMaxIdleConns(20)
		x.SetConnMaxIdleTime(5 * time.Minute)
		db = &DB{DB: x, Dialect: Postgres}
	case SQLite:
		abs, err := filepath.Abs(dsn)
		if err != nil {
			return nil, err
		}
		// WAL for concurrent readers, a busy timeout instead of SQLITE_BUSY,
		// foreign keys on, and one connection: River's SQLite driver needs
		// it, and it serialises writers instead of failing them.
		q := url.Values{}
		q.Add("_pragma", "busy_timeout(10000)")
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "foreign_keys(1)")
		q.Add("_pragma", "synchronous(NORMAL)")
		q.Set("_time_format", "sqlite")
		q.Set("_txlock", "immediate")
		x, err := sqlx.Open("sqlite", "file:"+abs+"?"+q.Encode())
		if err != nil {
			return nil, err
		}
		x.SetMaxOpenConns(1)
		x.SetConnMaxIdleTime(0)
		x.SetConnMaxLifetime(0)
		db = &DB{DB: x, Dialect: SQLite, Path: abs}
	}
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := db.PingContext(pingCtx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to %s database: %w", dialect, err)
	}
	return db, nil
}

// translate turns driver errors into the domain's sentinel errors, keeping
// the original for logs.
func translate(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%w: %w", domain.ErrNoRows, err)
	}
	var pqErr *pq.Error
	if errors.As(err, &pqErr) && pqErr.Code == "23505" {
		return fmt.Errorf("%w: %w", domain.ErrDuplicate, err)
	}
	var sqErr *sqlite.Error
	if errors.As(err, &sqErr) && (sqErr.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || sqErr.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY) {
		return fmt.Errorf("%w: %w", domain.ErrDuplicate, err)
	}
	return err
}

// inTx runs fn in a transaction, committing when it returns nil. With
// SQLite's single connection, everything inside fn must use tx.
func (db *DB) inTx(ctx context.Context, fn func(tx *sqlx.Tx) error) error {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

package storage

import (
	"cmp"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
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
	// Statements counts the statements run through this handle (not those
	// of transactions), for tests that check how many queries a request
	// costs.
	Statements atomic.Int64
	feed       *Feed
	// life ends when the handle closes: work the handle does on its own
	// (grouped statements) belongs to it.
	life    context.Context
	endLife context.CancelFunc
	// deliveries and targets group the webhook workers' statements made
	// outside transactions (newDeliveryLog, newTargetReader).
	deliveries *grouped[loggedDelivery, struct{}]
	targets    *grouped[targetKey, deliveryTarget]
	// sealer seals people's data at rest (SealWith).
	sealer sealer
	// dsn is PostgreSQL's connection string, for the connections that
	// LISTEN (the event feed, the job queue's notifications).
	dsn string
}

// Close stops the event feed's listener and closes the database.
func (db *DB) Close() error {
	if db.endLife != nil {
		db.endLife()
	}
	return errors.Join(db.feed.Close(), db.DB.Close())
}

// Feed is the database's feed of committed events.
func (db *DB) Feed() *Feed { return db.feed }

// sqliteURIPath escapes what ends or changes a path in an SQLite URI.
var sqliteURIPath = strings.NewReplacer("%", "%25", "#", "%23", "?", "%3f")

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
		db = &DB{DB: x, Dialect: Postgres, dsn: dsn}
		db.feed = newFeed(db, dsn)
	case SQLite:
		abs, err := filepath.Abs(dsn)
		if err != nil {
			return nil, err
		}
		if err := createDatabaseFile(abs); err != nil {
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
		// The path is escaped in the URI: a '#' or '?' in a directory name
		// would otherwise end it, and SQLite would open another file.
		x, err := sqlx.Open("sqlite", "file:"+sqliteURIPath.Replace(abs)+"?"+q.Encode())
		if err != nil {
			return nil, err
		}
		x.SetMaxOpenConns(1)
		x.SetConnMaxIdleTime(0)
		x.SetConnMaxLifetime(0)
		db = &DB{DB: x, Dialect: SQLite, Path: abs}
		db.feed = newFeed(db, "")
	}
	db.life, db.endLife = context.WithCancel(context.Background())
	db.deliveries, db.targets = newDeliveryLog(db), newTargetReader(db)
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	err = db.PingContext(pingCtx)
	var pqErr *pq.Error
	if dialect == Postgres && errors.As(err, &pqErr) && pqErr.Code == "3D000" { // invalid_catalog_name
		// A new user's first run: create the database when the role may.
		if cerr := createDatabase(pingCtx, dsn); cerr != nil {
			db.Close()
			return nil, cerr
		}
		err = db.PingContext(pingCtx)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to %s database: %w", dialect, err)
	}
	return db, nil
}

// createDatabase creates the database a PostgreSQL URL names, connecting
// to the server's postgres database with the same role. A role that may
// not gets one line saying what to run instead.
func createDatabase(ctx context.Context, dsn string) error {
	u, err := url.Parse(dsn)
	if err != nil {
		return err
	}
	name := strings.TrimPrefix(u.Path, "/")
	admin := *u
	admin.Path = "/postgres"
	x, err := sqlx.Open("postgres", admin.String())
	if err != nil {
		return err
	}
	defer x.Close()
	_, err = x.ExecContext(ctx, "CREATE DATABASE "+pq.QuoteIdentifier(name))
	var pqErr *pq.Error
	if errors.As(err, &pqErr) && pqErr.Code == "42P04" { // duplicate_database: another process made it first
		return nil
	}
	if err != nil {
		user := ""
		if u.User != nil {
			user = " -U " + u.User.Username()
		}
		return fmt.Errorf("PostgreSQL database %q does not exist and this role cannot create it (%v): run createdb -h %s -p %s%s %s",
			name, err, u.Hostname(), cmp.Or(u.Port(), "5432"), user, name)
	}
	return nil
}

// rowLock is a row-locking clause on PostgreSQL and nothing on SQLite,
// whose write transactions begin IMMEDIATE and already exclude each other.
func rowLock(q sqlx.ExtContext, clause string) string {
	if q.DriverName() == "postgres" {
		return " " + clause
	}
	return ""
}

// translate turns driver errors into the domain's sentinel errors, keeping
// the original for logs.
func translate(err error) error {
	if err == nil || errors.Is(err, domain.ErrUnavailable) {
		return err
	}
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%w: %w", domain.ErrNoRows, err)
	}
	var pqErr *pq.Error
	if errors.As(err, &pqErr) && pqErr.Code == "23505" {
		return fmt.Errorf("%w: %w", domain.ErrDuplicate, err)
	}
	if unreachable(err) {
		return fmt.Errorf("%w: %w", domain.ErrUnavailable, err)
	}
	var sqErr *sqlite.Error
	if errors.As(err, &sqErr) && (sqErr.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || sqErr.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY) {
		return fmt.Errorf("%w: %w", domain.ErrDuplicate, err)
	}
	return err
}

// unreachable reports whether err says the database could not be reached
// rather than refused a statement: a refused or cut connection, or a
// PostgreSQL server shutting down, starting up or out of connections
// (SQLSTATE classes 08 and 57P, 53300).
func unreachable(err error) bool {
	var op *net.OpError
	if domain.Unreachable(err) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, driver.ErrBadConn) || errors.As(err, &op) {
		return true
	}
	var pqErr *pq.Error
	if errors.As(err, &pqErr) {
		c := string(pqErr.Code)
		return strings.HasPrefix(c, "08") || strings.HasPrefix(c, "57P") || c == "53300"
	}
	return false
}

// inTx runs fn in a transaction, committing when it returns nil and
// rolling back when it returns an error or panics (the panic goes on).
// fn gets a context marked as inside the transaction: the database handle
// refuses it (see checkOutside), so fn can reach only tx, and with
// SQLite's single connection it cannot wait on itself.
func (db *DB) inTx(ctx context.Context, fn func(ctx context.Context, tx *sqlx.Tx) error) (err error) {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return translate(err)
	}
	done := false
	defer func() {
		if !done {
			// The failure that stopped fn is the error; a rollback after it
			// may fail too (the connection broke), and the database rolls
			// the transaction back by itself then.
			_ = tx.Rollback()
		}
	}()
	if err := fn(context.WithValue(ctx, inTxKey{}, true), tx); err != nil {
		return err
	}
	done = true
	return translate(tx.Commit())
}

type inTxKey struct{}

// checkOutside panics when ctx belongs to a transaction: code inside
// InTx that reached for the outer database handle instead of the
// transaction is a bug that would deadlock on SQLite, so it fails loudly
// on both databases.
func (db *DB) checkOutside(ctx context.Context) {
	db.Statements.Add(1)
	if n, ok := ctx.Value(statementCountKey{}).(*atomic.Int64); ok {
		n.Add(1)
	}
	checkOutside(ctx)
}

type statementCountKey struct{}

// CountStatements returns a context under which every statement a DB
// runs (outside transactions, as Statements) is also counted into n.
// Tests give it to one request so what they count is that request's
// work alone, not a background poll or another test's.
func CountStatements(ctx context.Context, n *atomic.Int64) context.Context {
	return context.WithValue(ctx, statementCountKey{}, n)
}

func checkOutside(ctx context.Context) {
	if ctx.Value(inTxKey{}) != nil {
		panic("storage: the database handle was used inside a transaction; use the stores of the transaction")
	}
}

// The methods below shadow sqlx.DB's so every query made through a DB,
// by sqlx helpers too, checks that it is not inside a transaction.

// BeginTxx implements sqlx's transaction start with the transaction check.
func (db *DB) BeginTxx(ctx context.Context, opts *sql.TxOptions) (*sqlx.Tx, error) {
	checkOutside(ctx)
	return db.DB.BeginTxx(ctx, opts)
}

// QueryContext implements sqlx.QueryerContext with the transaction check.
func (db *DB) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	db.checkOutside(ctx)
	return db.DB.QueryContext(ctx, query, args...)
}

// QueryxContext implements sqlx.QueryerContext with the transaction check.
func (db *DB) QueryxContext(ctx context.Context, query string, args ...any) (*sqlx.Rows, error) {
	db.checkOutside(ctx)
	return db.DB.QueryxContext(ctx, query, args...)
}

// QueryRowxContext implements sqlx.QueryerContext with the transaction check.
func (db *DB) QueryRowxContext(ctx context.Context, query string, args ...any) *sqlx.Row {
	db.checkOutside(ctx)
	return db.DB.QueryRowxContext(ctx, query, args...)
}

// ExecContext implements sqlx.ExecerContext with the transaction check.
func (db *DB) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	db.checkOutside(ctx)
	return db.DB.ExecContext(ctx, query, args...)
}

// GetContext is sqlx's, through the checked QueryRowxContext.
func (db *DB) GetContext(ctx context.Context, dest any, query string, args ...any) error {
	return sqlx.GetContext(ctx, db, dest, query, args...)
}

// SelectContext is sqlx's, through the checked QueryxContext.
func (db *DB) SelectContext(ctx context.Context, dest any, query string, args ...any) error {
	return sqlx.SelectContext(ctx, db, dest, query, args...)
}

// sqliteTimeFormat is how the SQLite driver writes times (_time_format=sqlite).
const sqliteTimeFormat = "2006-01-02 15:04:05.999999999-07:00"

// aggregateTime scans a timestamp computed by SQL, such as MIN(created_at):
// PostgreSQL returns a time, SQLite the stored text, because an aggregate
// has no declared column type for the driver to convert by.
type aggregateTime struct{ time.Time }

func (t *aggregateTime) Scan(v any) error {
	switch x := v.(type) {
	case time.Time:
		t.Time = x
		return nil
	case string:
		return t.parse(x)
	case []byte:
		return t.parse(string(x))
	}
	return fmt.Errorf("aggregateTime: cannot scan %T", v)
}

func (t *aggregateTime) parse(s string) error {
	for _, layout := range []string{sqliteTimeFormat, time.RFC3339Nano} {
		if v, err := time.Parse(layout, s); err == nil {
			t.Time = v
			return nil
		}
	}
	return fmt.Errorf("aggregateTime: %q is not a time", s)
}

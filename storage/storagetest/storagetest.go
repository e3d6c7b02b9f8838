// Package storagetest gives tests fresh, migrated databases of both
// dialects. SQLite databases are copies of a template file; PostgreSQL
// databases are CREATE DATABASE ... TEMPLATE copies on the server named by
// PAYLINE_TEST_DATABASE_URL. Either way a test gets its own database in
// milliseconds and never sees another test's rows.
//
// Without PAYLINE_TEST_DATABASE_URL the PostgreSQL half is skipped with a
// loud message, except under CI=true, where it fails.
package storagetest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/domain/search"
	"payline/internal/secretbox"
	"payline/storage"
)

// EnvURL names the PostgreSQL server tests use.
const EnvURL = "PAYLINE_TEST_DATABASE_URL"

// Variant says what a fresh database holds beyond the schema.
type Variant int

const (
	// Empty is migrated only.
	Empty Variant = iota
	// Seeded also holds the default sandbox directory.
	Seeded
	// Blank has no schema at all, for tests of the migrations themselves.
	Blank
)

var (
	mu        sync.Mutex
	templates = map[string]string{} // dialect/variant → template (file path or database name)
	tmpDir    string
	cleanups  []func()
	// skippedPostgres counts tests whose PostgreSQL half was skipped.
	skippedPostgres atomic.Int64
)

// Main runs a package's tests and removes the templates afterwards. Use it
// from TestMain: os.Exit(storagetest.Main(m)).
func Main(m *testing.M) int {
	code := m.Run()
	if skippedPostgres.Load() > 0 {
		announceSkip()
	}
	mu.Lock()
	defer mu.Unlock()
	for _, c := range cleanups {
		c()
	}
	if tmpDir != "" {
		os.RemoveAll(tmpDir)
	}
	return code
}

// EnvDialects narrows the dialects Dialects runs: "sqlite", "postgres" or
// both, comma-separated (the default). CI runs a package's SQLite half and
// its PostgreSQL half in different stages (one under the race detector),
// so each test still runs on both databases, once each.
const EnvDialects = "PAYLINE_TEST_DIALECTS"

// DialectList is the dialects tests run on: both, unless EnvDialects
// names one. A value naming neither panics: a typo must not pass by
// running nothing.
func DialectList() []storage.Dialect {
	v := os.Getenv(EnvDialects)
	if v == "" {
		return []storage.Dialect{storage.SQLite, storage.Postgres}
	}
	var out []storage.Dialect
	for _, name := range strings.Split(v, ",") {
		switch d := storage.Dialect(strings.TrimSpace(name)); d {
		case storage.SQLite, storage.Postgres:
			out = append(out, d)
		default:
			panic(fmt.Sprintf("%s=%q: each comma-separated name must be %s or %s", EnvDialects, v, storage.SQLite, storage.Postgres))
		}
	}
	return out
}

// Dialects runs fn as a subtest per dialect of DialectList, each with a
// fresh database.
func Dialects(t *testing.T, v Variant, fn func(t *testing.T, db *storage.DB)) {
	t.Helper()
	for _, d := range DialectList() {
		t.Run(string(d), func(t *testing.T) {
			fn(t, Open(t, d, v))
		})
	}
}

// Open returns a fresh database of the dialect, closed when t ends.
func Open(t testing.TB, d storage.Dialect, v Variant) *storage.DB {
	t.Helper()
	rawURL := NewURL(t, d, v)
	db, err := storage.Open(context.Background(), rawURL)
	if err != nil {
		t.Fatalf("open %s: %v", d, err)
	}
	t.Cleanup(func() { db.Close() })
	db.SealWith(TestBox)
	return db
}

// TestBox seals people's data in the databases Open returns, under a
// fixed test master key.
var TestBox = func() *secretbox.Box {
	box, err := secretbox.New(bytes.Repeat([]byte{0x5a}, secretbox.KeySize))
	if err != nil {
		panic(err)
	}
	return box
}()

// NewURL creates a fresh database of the dialect and returns its
// --database-url, for tests that start the whole service.
func NewURL(t testing.TB, d storage.Dialect, v Variant) string {
	t.Helper()
	if d == storage.Postgres {
		return newPostgres(t, v)
	}
	tmpl, err := template(storage.SQLite, v, "")
	if err != nil {
		t.Fatalf("sqlite template: %v", err)
	}
	path := filepath.Join(t.TempDir(), "payline.db")
	if err := copyFile(tmpl, path); err != nil {
		t.Fatal(err)
	}
	return "sqlite:" + path
}

// PostgresServer returns the server URL, skipping (or failing under CI) when
// it is not configured.
func PostgresServer(t testing.TB) string {
	t.Helper()
	u := os.Getenv(EnvURL)
	if u == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set: CI must run the PostgreSQL half of every storage test", EnvURL)
		}
		skippedPostgres.Add(1)
		t.Skipf("*** SKIPPING PostgreSQL: set %s=postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable to run it ***", EnvURL)
	}
	return u
}

func newPostgres(t testing.TB, v Variant) string {
	t.Helper()
	server := PostgresServer(t)
	tmpl, err := template(storage.Postgres, v, server)
	if err != nil {
		t.Fatalf("postgres template: %v", err)
	}
	name := dbPrefix() + "test_" + randomHex(6)
	admin, err := storage.Open(context.Background(), server)
	if err != nil {
		t.Fatalf("connect to %s: %v", EnvURL, err)
	}
	defer admin.Close()
	if _, err := admin.Exec(fmt.Sprintf(`CREATE DATABASE %s TEMPLATE %s`, name, tmpl)); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() { dropDatabase(server, name) })
	return withDatabase(server, name)
}

// dbPrefix begins the names of the databases tests create on the server
// (PAYLINE_TEST_DB_PREFIX, default "payline_"), so checkouts or CI jobs
// sharing one server can tell theirs apart; letters, digits and
// underscores only.
func dbPrefix() string {
	p := os.Getenv("PAYLINE_TEST_DB_PREFIX")
	if p == "" {
		return "payline_"
	}
	for _, r := range p {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			panic("PAYLINE_TEST_DB_PREFIX may hold lower-case letters, digits and underscores only, got " + p)
		}
	}
	return p
}

// template builds the template of a dialect and variant once per process.
func template(d storage.Dialect, v Variant, server string) (string, error) {
	mu.Lock()
	defer mu.Unlock()
	key := fmt.Sprintf("%s/%d", d, v)
	if t, ok := templates[key]; ok {
		return t, nil
	}
	ctx := context.Background()
	var rawURL, handle string
	if d == storage.SQLite {
		if tmpDir == "" {
			dir, err := os.MkdirTemp("", "payline-storagetest-")
			if err != nil {
				return "", err
			}
			tmpDir = dir
		}
		handle = filepath.Join(tmpDir, fmt.Sprintf("template-%d.db", v))
		rawURL = "sqlite:" + handle
	} else {
		handle = dbPrefix() + "tmpl_" + randomHex(6)
		admin, err := storage.Open(ctx, server)
		if err != nil {
			return "", err
		}
		_, err = admin.Exec(`CREATE DATABASE ` + handle)
		admin.Close()
		if err != nil {
			return "", err
		}
		cleanups = append(cleanups, func() { dropDatabase(server, handle) })
		rawURL = withDatabase(server, handle)
	}
	db, err := storage.Open(ctx, rawURL)
	if err != nil {
		return "", err
	}
	if v == Blank {
		// nothing: the test migrates
	} else if err := db.Migrate(ctx); err != nil {
		db.Close()
		return "", err
	}
	if v == Seeded {
		platforms, employers := sandbox.Directory(sandbox.DefaultEmployerCount)
		svc := domain.NewDirectoryService(storage.NewDirectoryStore(db), domain.NoRelay{}, search.Build)
		if err := svc.Seed(ctx, platforms, employers); err != nil {
			db.Close()
			return "", err
		}
	}
	if d == storage.SQLite {
		// Fold the WAL into the main file so a plain copy is complete.
		if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
			db.Close()
			return "", err
		}
	}
	if err := db.Close(); err != nil {
		return "", err
	}
	templates[key] = handle
	return handle, nil
}

func dropDatabase(server, name string) {
	admin, err := storage.Open(context.Background(), server)
	if err != nil {
		return
	}
	defer admin.Close()
	// Cleanup after the tests ran: a database left behind costs disk, not
	// a result, and the next run's names are fresh.
	_, _ = admin.Exec(`DROP DATABASE IF EXISTS ` + name + ` WITH (FORCE)`)
}

func withDatabase(server, name string) string {
	u, err := url.Parse(server)
	if err != nil {
		return server
	}
	u.Path = "/" + name
	return u.String()
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

func randomHex(n int) string {
	s, err := domain.RandomHex(n)
	if err != nil {
		panic(err) // a test database needs a unique name; nothing to fall back on
	}
	return s
}

// announceSkip tells the developer at the terminal that the PostgreSQL
// half did not run. go test shows a passing package's output only with
// -v, so the line goes to the controlling terminal (/dev/tty), once per
// go test run: the first package to finish claims a marker named by the go
// command's process id. Without a terminal (CI, where a missing server
// fails instead) nothing is printed.
func announceSkip() {
	tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	if err != nil {
		return
	}
	defer tty.Close()
	marker := filepath.Join(os.TempDir(), fmt.Sprintf("payline-postgres-skipped-%d", os.Getppid()))
	f, err := os.OpenFile(marker, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return // another package of this run said it already
	}
	f.Close()
	fmt.Fprintf(tty, "*** The PostgreSQL half of the tests was SKIPPED: set %s=postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable to run it ***\n", EnvURL)
}

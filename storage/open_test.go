package storage_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestOpenCreatesMissingDatabase: a PostgreSQL URL naming a database that
// does not exist yet is created on first open (a new user's first run),
// where the role may.
func TestOpenCreatesMissingDatabase(t *testing.T) {
	server := storagetest.PostgresServer(t)
	u, err := url.Parse(server)
	if err != nil {
		t.Fatal(err)
	}
	name := "payline_created_" + strings.ReplaceAll(domain.NewID()[:8], "-", "")
	u.Path = "/" + name
	db, err := storage.Open(context.Background(), u.String())
	if err != nil {
		t.Fatalf("open a database that does not exist: %v", err)
	}
	db.Close()
	admin, err := sqlx.Open("postgres", server)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.Exec("DROP DATABASE " + pq.QuoteIdentifier(name)); err != nil {
		t.Errorf("the database was not created: %v", err)
	}
}

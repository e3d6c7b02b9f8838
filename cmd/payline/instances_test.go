package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// startInstances runs n instances on one PostgreSQL database; configure,
// if given, adjusts each one's configuration.
func startInstances(t *testing.T, n int, configure ...func(*ServeConfig)) (url string, ms []*Main) {
	t.Helper()
	url = storagetest.NewURL(t, storage.Postgres, storagetest.Empty)
	for range n {
		m := &Main{Config: ServeConfig{Addr: "127.0.0.1:0", DatabaseURL: url, Mode: domain.ModeSandbox},
			Stdout: io.Discard, Logger: slog.New(slog.DiscardHandler), Getenv: env("PAYLINE_MASTER_KEY", testMasterKey)}
		for _, c := range configure {
			c(&m.Config)
		}
		if err := m.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { m.Close(context.Background()) })
		ms = append(ms, m)
	}
	return url, ms
}

// TestKeyRevocationReachesEveryInstance: a key revoked with `payline keys
// revoke` is refused by every instance although each had just
// authenticated it and remembers that for an hour: only the revocation's
// notification can make them refuse it, so the test waits for the refusal
// rather than timing it.
func TestKeyRevocationReachesEveryInstance(t *testing.T) {
	url, ms := startInstances(t, 3, func(c *ServeConfig) { c.AuthCacheTTL = time.Hour })
	getenv := env("PAYLINE_MASTER_KEY", testMasterKey)
	var out bytes.Buffer
	if err := run(context.Background(), []string{"keys", "create", "--customer", "globex", "--mode", "sandbox", "--json", "--database-url", url},
		&out, io.Discard, getenv); err != nil {
		t.Fatal(err)
	}
	var created struct {
		KeyID  string `json:"key_id"`
		Secret string `json:"secret"`
	}
	if err := json.Unmarshal(out.Bytes(), &created); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	for _, m := range ms { // each instance now remembers the key as good
		if status, _ := apiGet(t, m.Addr(), created.Secret, "/v1/platforms?limit=1"); status != 200 {
			t.Fatalf("before revocation: %d", status)
		}
	}
	if err := run(context.Background(), []string{"keys", "revoke", created.KeyID, "--database-url", url}, io.Discard, io.Discard, getenv); err != nil {
		t.Fatal(err)
	}
	revoked := time.Now()
	for i, m := range ms {
		waitUntil(t, fmt.Sprintf("instance %d to refuse the revoked key", i), func() bool {
			status, body := apiGet(t, m.Addr(), created.Secret, "/v1/platforms?limit=1")
			if status == 401 {
				if code := body["error"].(map[string]any)["code"]; code != domain.CodeRevokedAPISecret {
					t.Errorf("instance %d: %v", i, body)
				}
			}
			return status == 401
		})
	}
	t.Logf("every instance refused the key %v after the revocation", time.Since(revoked).Round(time.Millisecond))
}

// TestDirectoryChangeReachesEveryInstance: a directory seeded through one
// process is searchable on every instance. PostgreSQL instances do not
// poll for directory changes (only SQLite's do), so the change can only
// arrive by notification; the test waits for it rather than timing it.
func TestDirectoryChangeReachesEveryInstance(t *testing.T) {
	url, ms := startInstances(t, 2)
	platforms, employers := sandbox.Directory(sandbox.DefaultEmployerCount)
	renamed := employers[0]
	renamed.Name = "Zanzibar Quokka Holdings"
	db, err := storage.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := storage.NewDirectoryStore(db).UpsertDirectory(context.Background(), platforms[:0], []domain.Employer{renamed}); err != nil {
		t.Fatal(err)
	}
	changed := time.Now()
	for i, m := range ms {
		waitUntil(t, fmt.Sprintf("instance %d to find the renamed employer", i), func() bool { return found(t, m, "zanzibar quokka") })
	}
	t.Logf("every instance found the renamed employer %v after the change", time.Since(changed).Round(time.Millisecond))
}

// found searches through m's directory service directly (the index the
// REST search uses).
func found(t *testing.T, m *Main, q string) bool {
	t.Helper()
	res, err := m.directory.Search(context.Background(), domain.SearchQuery{Q: q, Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Employer != nil && strings.Contains(strings.ToLower(r.Employer.Name), q) {
			return true
		}
	}
	return false
}

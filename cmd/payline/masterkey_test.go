package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"payline/storage"
	"payline/storage/storagetest"
)

// TestMasterKeyIsNeverReplaced: a start whose master key is missing or is
// not the one that sealed the database refuses with what to do, creates
// no new key, and the original key still works afterwards.
func TestMasterKeyIsNeverReplaced(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "p.db")
	url, keyFile := "sqlite:"+dbPath, dbPath+".master-key"
	keys := func(getenv func(string) string) (string, error) {
		var out bytes.Buffer
		err := run(ctx, []string{"keys", "list", "--database-url", url}, &out, io.Discard, getenv)
		return out.String(), err
	}
	var out bytes.Buffer
	if err := run(ctx, []string{"keys", "create", "--customer", "a", "--mode", "sandbox", "--database-url", url}, &out, io.Discard, env()); err != nil {
		t.Fatal(err)
	}
	original, err := os.ReadFile(keyFile)
	if err != nil {
		t.Fatal(err)
	}

	// The key file is gone: refused, and no new file appears.
	if err := os.Rename(keyFile, keyFile+".bak"); err != nil {
		t.Fatal(err)
	}
	_, err = keys(env())
	if err == nil || !strings.Contains(err.Error(), "does not exist") || !strings.Contains(err.Error(), keyFile) ||
		!strings.Contains(err.Error(), `README, "Master key"`) {
		t.Errorf("missing key file: %v", err)
	}
	if _, statErr := os.Stat(keyFile); statErr == nil {
		t.Error("a new key file was created for a database sealed with another key")
	}
	// serve refuses the same way, before printing anything.
	var served bytes.Buffer
	m := &Main{Config: ServeConfig{Addr: "127.0.0.1:0", DatabaseURL: url}, Stdout: &served, Logger: slog.New(slog.DiscardHandler), Getenv: env()}
	if err := m.Start(ctx); err == nil || !strings.Contains(err.Error(), "does not exist") || served.Len() != 0 {
		t.Errorf("serve without its key: %v, printed %q", err, served.String())
	}

	// Another key, in the file or in the environment: refused, naming both ids.
	other := strings.Repeat("cd", 32)
	if err := os.WriteFile(keyFile, []byte(other+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := keys(env()); err == nil || !strings.Contains(err.Error(), "is not the one that sealed") {
		t.Errorf("another key file: %v", err)
	}
	if _, err := keys(env("PAYLINE_MASTER_KEY", other)); err == nil || !strings.Contains(err.Error(), "from PAYLINE_MASTER_KEY") {
		t.Errorf("another key in the environment: %v", err)
	}

	// The original key, restored, opens everything.
	if err := os.WriteFile(keyFile, original, 0o600); err != nil {
		t.Fatal(err)
	}
	if listed, err := keys(env()); err != nil || !strings.Contains(listed, "sandbox") {
		t.Errorf("with the original key: %v\n%s", err, listed)
	}

	// A database sealed before fingerprints were recorded: the key must
	// open one of its secrets before it is recorded.
	db, err := storage.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `DELETE FROM master_key`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := keys(env("PAYLINE_MASTER_KEY", other)); err == nil || !strings.Contains(err.Error(), "sealed before ids were recorded") {
		t.Errorf("a wrong key on an unrecorded database: %v", err)
	}
	if _, err := keys(env()); err != nil {
		t.Errorf("the right key on an unrecorded database: %v", err)
	}
	if _, err := keys(env("PAYLINE_MASTER_KEY", other)); err == nil || !strings.Contains(err.Error(), "is not the one that sealed") {
		t.Errorf("after the right key was recorded: %v", err)
	}

	// PostgreSQL: the key comes from the environment; another one is refused.
	pg := storagetest.NewURL(t, storage.Postgres, storagetest.Empty)
	if err := run(ctx, []string{"keys", "create", "--customer", "a", "--mode", "sandbox", "--database-url", pg}, io.Discard, io.Discard,
		env("PAYLINE_MASTER_KEY", testMasterKey)); err != nil {
		t.Fatal(err)
	}
	err = run(ctx, []string{"keys", "list", "--database-url", pg}, io.Discard, io.Discard, env("PAYLINE_MASTER_KEY", other))
	if err == nil || !strings.Contains(err.Error(), "is not the one that sealed") {
		t.Errorf("postgres with another key: %v", err)
	}
}

// TestServeOnBusyPort: a port in use fails the start before a customer,
// a key or a secret is made, so no one-time secret is printed and lost.
func TestServeOnBusyPort(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	dbPath := filepath.Join(t.TempDir(), "p.db")
	var out bytes.Buffer
	err = run(context.Background(), []string{"serve", "--addr", busy.Addr().String(), "--database-url", "sqlite:" + dbPath}, &out, io.Discard, env())
	if err == nil || !strings.Contains(err.Error(), "address already in use") {
		t.Fatalf("serve on a busy port: %v", err)
	}
	if out.Len() != 0 {
		t.Errorf("printed before failing:\n%s", out.String())
	}
	if _, err := os.Stat(dbPath); err == nil {
		t.Error("the database was created before the port was bound")
	}
}

// TestServeAgainSaysHowToMakeAKey: a start on a database that has keys
// prints no secret, and says how to make a key.
func TestServeAgainSaysHowToMakeAKey(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "payline.db")
	first := startMain(t, url, io.Discard)
	first.Close(context.Background())
	var again bytes.Buffer
	m := startMain(t, url, &again)
	defer m.Close(context.Background())
	if secretLine.MatchString(again.String()) || !strings.Contains(again.String(), "payline keys create --customer 'sandbox' --mode sandbox") {
		t.Errorf("second start printed:\n%s", again.String())
	}
}

func TestVersion(t *testing.T) {
	for _, arg := range []string{"--version", "version"} {
		var out bytes.Buffer
		if err := run(context.Background(), []string{arg}, &out, io.Discard, env()); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(out.String(), "payline ") || !strings.Contains(out.String(), runtime.Version()) ||
			!strings.Contains(out.String(), "commit ") {
			t.Errorf("%s printed %q", arg, out.String())
		}
	}
}

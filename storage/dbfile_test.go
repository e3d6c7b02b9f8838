package storage_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"payline/storage"
)

// TestSQLiteFilesPrivate: a new SQLite database, and the -wal and -shm
// files SQLite makes beside it, are readable by their owner only (0600)
// under the usual umask (022), with which SQLite alone makes them 0644.
// A database that exists keeps the mode its owner gave it.
func TestSQLiteFilesPrivate(t *testing.T) {
	// The umask is the process's; no other test runs while this
	// top-level, non-parallel test does.
	defer syscall.Umask(syscall.Umask(0o022))
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "payline.db")
	db, err := storage.Open(ctx, "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil { // writes, so the -wal and -shm files exist
		t.Fatal(err)
	}
	for _, name := range []string{"payline.db", "payline.db-wal", "payline.db-shm"} {
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if mode := info.Mode().Perm(); mode != 0o600 {
			t.Errorf("%s has mode %v, want -rw------- (0600)", name, mode)
		}
	}

	shared := filepath.Join(dir, "shared.db")
	if err := os.WriteFile(shared, nil, 0o640); err != nil {
		t.Fatal(err)
	}
	other, err := storage.Open(ctx, "sqlite:"+shared)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if info, err := os.Stat(shared); err != nil || info.Mode().Perm() != 0o640 {
		t.Errorf("an existing database's mode changed: %v %v", info.Mode(), err)
	}
}

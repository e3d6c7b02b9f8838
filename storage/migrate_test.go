package storage_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/riverqueue/river"

	"payline/storage"
	"payline/storage/storagetest"
)

// columns lists "table.column" for Payline's own tables.
func columns(t *testing.T, db *storage.DB) []string {
	t.Helper()
	var cols []string
	var err error
	if db.Dialect == storage.Postgres {
		err = db.Select(&cols, `SELECT table_name || '.' || column_name FROM information_schema.columns
			WHERE table_schema = 'public'`)
	} else {
		err = db.Select(&cols, `SELECT m.name || '.' || p.name FROM sqlite_master m
			JOIN pragma_table_info(m.name) p WHERE m.type = 'table'`)
	}
	if err != nil {
		t.Fatal(err)
	}
	var own []string
	for _, c := range cols {
		if !strings.HasPrefix(c, "river_") && !strings.HasPrefix(c, "goose_") && !strings.HasPrefix(c, "sqlite_") {
			own = append(own, c)
		}
	}
	slices.Sort(own)
	return own
}

func TestMigrationsAgreeAcrossDialects(t *testing.T) {
	lite := storagetest.Open(t, storage.SQLite, storagetest.Empty)
	pg := storagetest.Open(t, storage.Postgres, storagetest.Empty)
	if diff := cmp.Diff(columns(t, pg), columns(t, lite)); diff != "" {
		t.Errorf("sqlite schema differs from postgres (-postgres +sqlite):\n%s", diff)
	}
	if len(columns(t, lite)) < 10 {
		t.Errorf("expected the foundation tables, got %v", columns(t, lite))
	}
}

func TestMigrateIsIdempotent(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		if err := db.Migrate(context.Background()); err != nil {
			t.Fatalf("second migrate: %v", err)
		}
	})
}

type pingArgs struct{ N int }

func (pingArgs) Kind() string { return "storage_test_ping" }

type pingWorker struct {
	river.WorkerDefaults[pingArgs]
	done chan int
}

func (w *pingWorker) Work(_ context.Context, j *river.Job[pingArgs]) error {
	w.done <- j.Args.N
	return nil
}

// TestRiverRunsJobs proves River is wired on both drivers: a job inserted
// inside a transaction of ours is worked once the transaction commits.
func TestRiverRunsJobs(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		w := &pingWorker{done: make(chan int, 1)}
		workers := river.NewWorkers()
		river.AddWorker(workers, w)
		client, err := river.NewClient(db.RiverDriver(), &river.Config{
			Queues:            map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 1}},
			Workers:           workers,
			FetchPollInterval: 50 * time.Millisecond,
			FetchCooldown:     10 * time.Millisecond,
			TestOnly:          true,
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := client.Start(ctx); err != nil {
			t.Fatal(err)
		}
		var stop sync.Once
		defer stop.Do(func() { _ = client.Stop(context.Background()) })

		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := client.InsertTx(ctx, tx, pingArgs{N: 7}, nil); err != nil {
			_ = tx.Rollback()
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil && !errors.Is(err, sql.ErrTxDone) {
			t.Fatal(err)
		}
		select {
		case n := <-w.done:
			if n != 7 {
				t.Errorf("worked job with N=%d, want 7", n)
			}
		case <-ctx.Done():
			t.Fatal("job was not worked within 30s")
		}
	})
}

// TestSQLitePathWithURICharacters: a database path whose directories hold
// '#', '?' or '%' opens that very file (in an SQLite URI they would end
// the path, and another file would open).
func TestSQLitePathWithURICharacters(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a#b?c%20d")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "payline.db")
	db, err := storage.Open(context.Background(), "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(path); err != nil || info.Size() == 0 {
		t.Fatalf("the database is not at %s: %v", path, err)
	}
}

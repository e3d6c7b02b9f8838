package storage_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestCrashedClientsJobsRunAgain: a delivery left running by a queue
// client that stopped beating runs again (even on its last attempt, as
// the cut-off attempt does not count), while one held by a client that
// still beats, and one held by a client that never beat, are left alone.
func TestCrashedClientsJobsRunAgain(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		now := time.Now().UTC()
		for _, c := range []struct {
			id        string
			heartbeat time.Time
		}{{"dead@1", now.Add(-time.Minute)}, {"alive@1", now.Add(time.Hour)}} {
			if _, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO queue_clients (client_id, instance_id, started_at, heartbeat_at) VALUES (?, ?, ?, ?)`),
				c.id, "x", now.Add(-time.Hour), c.heartbeat); err != nil {
				t.Fatal(err)
			}
		}
		for _, held := range []struct{ event, client string }{{"E-dead", "dead@1"}, {"E-alive", "alive@1"}, {"E-unknown", "older-payline"}} {
			insertRunningDelivery(t, db, held.event, held.client, 6)
		}

		q, err := storage.NewQueue(db, storage.QueueConfig{PollInterval: 50 * time.Millisecond, InstanceID: "rescuer",
			HeartbeatEvery: 50 * time.Millisecond, DeadAfter: 300 * time.Millisecond, OrphanAfter: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var delivered []string
		err = q.Start(ctx, storage.Runners{Job: noJobs, Schedule: func(context.Context, string) (string, error) { return "", nil },
			Refresh: func(context.Context, domain.RefreshRun) error { return nil },
			Delivery: func(_ context.Context, r domain.DeliveryRun, attempt int, _ *time.Time) (domain.DeliveryResult, error) {
				mu.Lock()
				defer mu.Unlock()
				delivered = append(delivered, r.EventID)
				return domain.DeliveryDone, nil
			}})
		if err != nil {
			t.Fatal(err)
		}
		defer q.Stop(ctx)
		expr := `args->>'event_id'`
		if db.Dialect == storage.SQLite {
			expr = `json_extract(CAST(args AS TEXT), '$.event_id')`
		}
		var states []struct {
			Event string `db:"event"`
			State string `db:"state"`
		}
		// One pass rescues every job of the dead client at once; the
		// others are still running as they were when it has completed.
		waitFor(t, 20*time.Second, "the dead client's delivery to run again and complete", func() bool {
			states = nil
			if err := db.SelectContext(ctx, &states, `SELECT `+expr+` AS event, state FROM river_job WHERE kind = 'webhook_delivery' ORDER BY id`); err != nil {
				t.Fatal(err)
			}
			return len(states) == 3 && states[0].State == "completed"
		})
		want := map[string]string{"E-dead": "completed", "E-alive": "running", "E-unknown": "running"}
		for _, s := range states {
			if want[s.Event] != s.State {
				t.Errorf("%s: %s, want %s", s.Event, s.State, want[s.Event])
			}
		}
		mu.Lock()
		if len(delivered) != 1 || delivered[0] != "E-dead" {
			t.Errorf("delivered %v, want only E-dead", delivered)
		}
		mu.Unlock()
		if q.Rescued() != 1 {
			t.Errorf("Rescued() = %d, want 1", q.Rescued())
		}
	})
}

// TestOrphanedJobsRunAgain: a job the database shows running under this
// process's own client, but that no worker here runs (River's completer
// gave up recording its result during a database outage), is queued again
// once it has stayed so for OrphanAfter.
func TestOrphanedJobsRunAgain(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		q, err := storage.NewQueue(db, storage.QueueConfig{PollInterval: 50 * time.Millisecond, InstanceID: "self",
			HeartbeatEvery: 50 * time.Millisecond, DeadAfter: 200 * time.Millisecond, OrphanAfter: 300 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var delivered []string
		err = q.Start(ctx, storage.Runners{Job: noJobs, Schedule: func(context.Context, string) (string, error) { return "", nil },
			Refresh: func(context.Context, domain.RefreshRun) error { return nil },
			Delivery: func(_ context.Context, r domain.DeliveryRun, attempt int, _ *time.Time) (domain.DeliveryResult, error) {
				mu.Lock()
				defer mu.Unlock()
				delivered = append(delivered, r.EventID)
				return domain.DeliveryDone, nil
			}})
		if err != nil {
			t.Fatal(err)
		}
		defer q.Stop(ctx)
		var self string
		if err := db.GetContext(ctx, &self, `SELECT client_id FROM queue_clients WHERE instance_id = 'self'`); err != nil {
			t.Fatal(err)
		}
		insertRunningDelivery(t, db, "E-orphan", self, 1)
		waitFor(t, 20*time.Second, "the orphaned delivery to run", func() bool {
			mu.Lock()
			defer mu.Unlock()
			return len(delivered) == 1 && delivered[0] == "E-orphan"
		})
	})
}

// insertRunningDelivery writes a webhook delivery job as River leaves one
// that a client was running when it stopped: state running, attempted by
// client, on its attempt'th attempt.
func insertRunningDelivery(t *testing.T, db *storage.DB, eventID, client string, attempt int) {
	t.Helper()
	insert := `INSERT INTO river_job (args, kind, max_attempts, queue, state, attempt, attempted_at, attempted_by, scheduled_at)
		VALUES (?, 'webhook_delivery', 6, 'webhooks', 'running', ?, now(), ARRAY[?], now())`
	if db.Dialect == storage.SQLite {
		insert = `INSERT INTO river_job (args, kind, max_attempts, queue, state, attempt, attempted_at, attempted_by, scheduled_at)
			VALUES (?, 'webhook_delivery', 6, 'webhooks', 'running', ?, CURRENT_TIMESTAMP, json_array(?), CURRENT_TIMESTAMP)`
	}
	args := `{"customer_id": "c", "mode": "sandbox", "webhook_id": "w", "event_id": "` + eventID + `"}`
	if _, err := db.ExecContext(context.Background(), db.Rebind(insert), args, attempt, client); err != nil {
		t.Fatal(err)
	}
}

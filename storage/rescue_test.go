package storage_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river/rivertype"

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

// TestRescuerRiverContract: what the rescuer relies on of River holds for
// the River in go.mod. It reads running jobs through River's API
// (JobList), taking the last of a job's AttemptedBy as the client that
// runs it; and, since River's API cannot make a running job available
// again, it writes one statement to river_job: by the columns id, state,
// attempt, max_attempts and attempted_by, the states 'running' and
// 'available', and attempted_by's last element in SQL. A River upgrade
// that changes any of these fails here before the rescuer misjudges
// anything.
func TestRescuerRiverContract(t *testing.T) {
	if rivertype.JobStateRunning != "running" || rivertype.JobStateAvailable != "available" {
		t.Fatalf("River's job states are now %q and %q; the rescuer's SQL names running and available",
			rivertype.JobStateRunning, rivertype.JobStateAvailable)
	}
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		columns := riverJobColumns(t, db)
		for _, c := range []string{"id", "state", "attempt", "max_attempts", "attempted_by"} {
			if !columns[c] {
				t.Errorf("river_job has no column %s, which the rescuer's update names (columns: %v)", c, columns)
			}
		}
		if db.Dialect == storage.Postgres {
			var states []string
			if err := db.SelectContext(ctx, &states, `SELECT e.enumlabel FROM pg_enum e JOIN pg_type ty ON ty.oid = e.enumtypid
				WHERE ty.typname = 'river_job_state'`); err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(states, "running") || !slices.Contains(states, "available") {
				t.Errorf("river_job_state is %v; the rescuer's update moves jobs from running to available", states)
			}
		}

		q, err := storage.NewQueue(db, storage.QueueConfig{PollInterval: 50 * time.Millisecond, InstanceID: "contract",
			HeartbeatEvery: time.Hour, DeadAfter: time.Hour, OrphanAfter: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		release, started := make(chan struct{}), make(chan struct{}, 1)
		err = q.Start(ctx, storage.Runners{Job: noJobs, Schedule: func(context.Context, string) (string, error) { return "", nil },
			Refresh: func(context.Context, domain.RefreshRun) error { return nil },
			Delivery: func(ctx context.Context, _ domain.DeliveryRun, _ int, _ *time.Time) (domain.DeliveryResult, error) {
				started <- struct{}{}
				<-release
				return domain.DeliveryDone, nil
			}})
		if err != nil {
			t.Fatal(err)
		}
		defer q.Stop(ctx)
		defer close(release)
		tx := storage.NewTransactor(db, q)
		if err := tx.EnqueueDelivery(ctx, domain.DeliveryRun{Scope: domain.Scope{CustomerID: "c", Mode: domain.ModeSandbox}, WebhookID: "w", EventID: "e"}); err != nil {
			t.Fatal(err)
		}
		<-started
		byAPI, err := q.RunningThroughAPI(ctx)
		if err != nil {
			t.Fatal(err)
		}
		bySQL, err := q.RunningByClient(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(byAPI) != 1 {
			t.Fatalf("River's JobList shows running %v, want the one job a worker holds", byAPI)
		}
		for id, client := range byAPI {
			if client != q.ClientID() {
				t.Errorf("the running job's AttemptedBy ends with %q, not the client %q that runs it", client, q.ClientID())
			}
			if bySQL[id] != client {
				t.Errorf("the rescuer's SQL reads job %d's client as %q, River's API as %q", id, bySQL[id], client)
			}
		}
	})
}

// riverJobColumns names river_job's columns.
func riverJobColumns(t *testing.T, db *storage.DB) map[string]bool {
	t.Helper()
	query := `SELECT column_name FROM information_schema.columns WHERE table_name = 'river_job' AND table_schema = current_schema()`
	if db.Dialect == storage.SQLite {
		query = `SELECT name FROM pragma_table_info('river_job')`
	}
	var names []string
	if err := db.SelectContext(context.Background(), &names, query); err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, n := range names {
		out[n] = true
	}
	return out
}

// TestSkewedInstancesRerunNoLiveJob: two queue instances whose own clocks
// are five minutes apart share a database. The one behind works a
// delivery that takes as long as the test wants; the one ahead judges it
// pass after pass. Heartbeats are written and judged by the database's
// clock, so the live job is never queued again: it is delivered once, and
// still running under its client, until it is let go. (Judged by each
// instance's clock, the one ahead would see the other's heartbeats ten
// minutes old and run the job a second time.)
func TestSkewedInstancesRerunNoLiveJob(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		var mu sync.Mutex
		var delivered []int
		release := make(chan struct{})
		// What the queues log (rescues, River's warnings) is printed when
		// the test fails.
		var logs bytes.Buffer
		logger := slog.New(slog.NewTextHandler(&lockedWriter{mu: &mu, w: &logs}, &slog.HandlerOptions{Level: slog.LevelWarn}))
		start := func(name string, skew time.Duration) *storage.Queue {
			q, err := storage.NewQueue(db, storage.QueueConfig{PollInterval: 50 * time.Millisecond, InstanceID: name, Logger: logger.With("instance", name),
				// DeadAfter is far below the skew (so judging by either
				// instance's own clock would fail) and far above a stall of
				// the busy CI machine: with 300 ms, a heartbeat held up that
				// long under -race once had the live job rescued and run twice.
				HeartbeatEvery: 50 * time.Millisecond, DeadAfter: 2 * time.Second, OrphanAfter: time.Hour,
				Clock: func() time.Time { return time.Now().Add(skew) }})
			if err != nil {
				t.Fatal(err)
			}
			err = q.Start(ctx, storage.Runners{Job: noJobs, Schedule: func(context.Context, string) (string, error) { return "", nil },
				Refresh: func(context.Context, domain.RefreshRun) error { return nil },
				Delivery: func(_ context.Context, _ domain.DeliveryRun, attempt int, _ *time.Time) (domain.DeliveryResult, error) {
					mu.Lock()
					delivered = append(delivered, attempt)
					mu.Unlock()
					<-release
					return domain.DeliveryDone, nil
				}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { q.Stop(context.Background()) })
			return q
		}
		count := func() int {
			mu.Lock()
			defer mu.Unlock()
			return len(delivered)
		}
		behind := start("behind", -5*time.Minute)
		tx := storage.NewTransactor(db, behind)
		if err := tx.EnqueueDelivery(ctx, domain.DeliveryRun{Scope: domain.Scope{CustomerID: "c", Mode: domain.ModeSandbox}, WebhookID: "w", EventID: "live"}); err != nil {
			t.Fatal(err)
		}
		waitFor(t, 20*time.Second, "the instance behind to start the delivery", func() bool { return count() == 1 })
		ahead := start("ahead", 5*time.Minute)
		// Each instance has judged the other many times over, long after
		// its own warm-up of DeadAfter.
		waitFor(t, 30*time.Second, "both instances to judge the other ten times", func() bool {
			return ahead.JudgedPasses() >= 10 && behind.JudgedPasses() >= 10
		})
		running, err := ahead.RunningThroughAPI(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// Only deliveries: the retention job each start queues may still
		// show running while River's completer has yet to record it.
		var deliveries []int64
		if err := db.SelectContext(ctx, &deliveries, `SELECT id FROM river_job WHERE kind = 'webhook_delivery'`); err != nil {
			t.Fatal(err)
		}
		for id := range running {
			if !slices.Contains(deliveries, id) {
				delete(running, id)
			}
		}
		if n := count(); n != 1 || len(running) != 1 || ahead.Rescued() != 0 || behind.Rescued() != 0 {
			mu.Lock()
			t.Errorf("the live delivery ran %d times (attempts %v); running %v; rescued by the instance ahead %d, behind %d; the queues logged:\n%s",
				n, delivered, running, ahead.Rescued(), behind.Rescued(), logs.String())
			mu.Unlock()
		}
		for _, client := range running {
			if client != behind.ClientID() {
				t.Errorf("the live delivery runs under %q, not the instance behind (%q)", client, behind.ClientID())
			}
		}
		close(release)
		waitFor(t, 20*time.Second, "the delivery to complete", func() bool {
			r, err := ahead.RunningThroughAPI(ctx)
			return err == nil && len(r) == 0
		})
		if n := count(); n != 1 {
			t.Errorf("the delivery ran %d times, want once", n)
		}
	})
}

// TestRescuerIgnoresSkewedClocks: heartbeats are written and judged by
// the database's clock, so a rescuer whose own clock runs minutes ahead
// or behind takes a live client for neither dead nor alive wrongly: it
// rescues the job of the client that stopped beating (the control) and
// leaves the live client's job running.
func TestRescuerIgnoresSkewedClocks(t *testing.T) {
	for _, skew := range []time.Duration{10 * time.Minute, -10 * time.Minute} {
		storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			now := `now()`
			if db.Dialect == storage.SQLite {
				now = `strftime('%Y-%m-%d %H:%M:%f', 'now')`
			}
			for _, c := range []string{"alive@1", "dead@1"} {
				if _, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO queue_clients (client_id, instance_id, started_at, heartbeat_at)
					VALUES (?, 'x', ?, `+now+`)`), c, time.Now().UTC()); err != nil {
					t.Fatal(err)
				}
			}
			// alive@1 keeps beating, by the database's clock, as a live
			// instance would; dead@1 stopped at its first beat.
			go func() {
				tick := time.NewTicker(20 * time.Millisecond)
				defer tick.Stop()
				for {
					select {
					case <-ctx.Done():
						return
					case <-tick.C:
						_, _ = db.ExecContext(ctx, `UPDATE queue_clients SET heartbeat_at = `+now+` WHERE client_id = 'alive@1'`)
					}
				}
			}()
			insertRunningDelivery(t, db, "E-alive", "alive@1", 1)
			insertRunningDelivery(t, db, "E-dead", "dead@1", 1)
			q, err := storage.NewQueue(db, storage.QueueConfig{PollInterval: 50 * time.Millisecond, InstanceID: "skewed",
				HeartbeatEvery: 50 * time.Millisecond, DeadAfter: 500 * time.Millisecond, OrphanAfter: time.Hour,
				Clock: func() time.Time { return time.Now().Add(skew) }})
			if err != nil {
				t.Fatal(err)
			}
			err = q.Start(ctx, storage.Runners{Job: noJobs, Schedule: func(context.Context, string) (string, error) { return "", nil },
				Refresh: func(context.Context, domain.RefreshRun) error { return nil },
				Delivery: func(context.Context, domain.DeliveryRun, int, *time.Time) (domain.DeliveryResult, error) {
					return domain.DeliveryDone, nil
				}})
			if err != nil {
				t.Fatal(err)
			}
			defer q.Stop(context.Background())
			expr := `args->>'event_id'`
			if db.Dialect == storage.SQLite {
				expr = `json_extract(CAST(args AS TEXT), '$.event_id')`
			}
			state := func(event string) string {
				var s string
				if err := db.GetContext(ctx, &s, db.Rebind(`SELECT state FROM river_job WHERE `+expr+` = ?`), event); err != nil {
					t.Fatal(err)
				}
				return s
			}
			waitFor(t, 20*time.Second, "the silent client's job to be rescued", func() bool { return state("E-dead") == "completed" })
			if got := state("E-alive"); got != "running" {
				t.Errorf("clock skewed %s: the live client's job is %s", skew, got)
			}
		})
	}
}

// lockedWriter serialises writes to w under mu.
type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestStoppedWorkRunsAtOnce: work cut off by a queue's stop (a deploy, a
// restart) is left available at once with its attempt unspent, whether
// the cut-off run failed (a context error) or asked to wait (a connector
// call cut short reads as an upstream away for seconds), and the next
// process runs it; a run that failed on its own is retried with River's
// backoff as before. Both stops: StopAndCancel, and Stop past its
// deadline (which then cancels what still runs).
func TestStoppedWorkRunsAtOnce(t *testing.T) {
	stops := map[string]func(q *storage.Queue) error{
		"StopAndCancel": func(q *storage.Queue) error {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			return q.StopAndCancel(ctx)
		},
		"Stop past its deadline": func(q *storage.Queue) error {
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			if err := q.Stop(ctx); !errors.Is(err, context.DeadlineExceeded) {
				return fmt.Errorf("Stop = %v, want its deadline exceeded (the runs wait for it)", err)
			}
			return nil
		},
	}
	for name, stop := range stops {
		t.Run(name, func(t *testing.T) {
			storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) { stoppedWorkRunsAtOnce(t, db, stop) })
		})
	}
}

func stoppedWorkRunsAtOnce(t *testing.T, db *storage.DB, stop func(q *storage.Queue) error) {
	ctx := context.Background()
	q, err := storage.NewQueue(db, storage.QueueConfig{PollInterval: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan string, 10) // room for the failing run's retries
	run := func(ctx context.Context, r domain.JobRun) (time.Duration, error) {
		started <- r.JobID
		switch r.JobID {
		case "fails-on-its-own":
			return 0, errors.New("the platform answered 500")
		case "cut-off-fails":
			<-ctx.Done()
			return 0, ctx.Err()
		default: // cut-off-waits
			<-ctx.Done()
			return 5 * time.Second, nil
		}
	}
	if err := q.Start(ctx, storage.Runners{Job: run, Delivery: noDeliveries,
		Schedule: func(context.Context, string) (string, error) { return "", nil },
		Refresh:  func(context.Context, domain.RefreshRun) error { return nil }}); err != nil {
		t.Fatal(err)
	}
	ids := []string{"fails-on-its-own", "cut-off-fails", "cut-off-waits"}
	for _, id := range ids {
		if err := q.InsertRun(ctx, domain.JobRun{Scope: domain.Scope{CustomerID: "c", Mode: domain.ModeSandbox}, JobID: id}); err != nil {
			t.Fatal(err)
		}
	}
	// Every run has started (a retry of the failing one counts once).
	seen := map[string]bool{}
	for len(seen) < len(ids) {
		select {
		case id := <-started:
			seen[id] = true
		case <-time.After(20 * time.Second):
			t.Fatalf("of the three runs only %v started", seen)
		}
	}
	// The first has failed once it is retryable; the other two are still
	// working.
	waitFor(t, 20*time.Second, "the failed run to be retryable", func() bool { return jobRows(t, db)["fails-on-its-own"].State == "retryable" })
	if err := stop(q); err != nil {
		t.Fatal(err)
	}
	rows := jobRows(t, db)
	for _, id := range []string{"cut-off-fails", "cut-off-waits"} {
		if r := rows[id]; r.State != "available" || r.Attempt != 0 || !r.Due {
			t.Errorf("%s after the stop: %+v, want available now with no attempt spent", id, r)
		}
	}
	if r := rows["fails-on-its-own"]; r.State != "retryable" || r.Attempt < 1 {
		t.Errorf("fails-on-its-own: %+v, want retryable, its attempts spent", r)
	}

	next, err := storage.NewQueue(db, storage.QueueConfig{PollInterval: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if err := next.Start(ctx, storage.Runners{Job: noJobs, Delivery: noDeliveries,
		Schedule: func(context.Context, string) (string, error) { return "", nil },
		Refresh:  func(context.Context, domain.RefreshRun) error { return nil }}); err != nil {
		t.Fatal(err)
	}
	defer next.Stop(ctx)
	waitFor(t, 20*time.Second, "the cut-off runs to complete in the next process", func() bool {
		r := jobRows(t, db)
		return r["cut-off-fails"].State == "completed" && r["cut-off-waits"].State == "completed"
	})
}

// jobRow is a payroll job's River row, by its job id.
type jobRow struct {
	Job     string `db:"job"`
	State   string `db:"state"`
	Attempt int    `db:"attempt"`
	Due     bool   `db:"due"` // scheduled now or earlier
}

func jobRows(t *testing.T, db *storage.DB) map[string]jobRow {
	t.Helper()
	expr, due := `args->>'job_id'`, `scheduled_at <= now()`
	if db.Dialect == storage.SQLite {
		expr, due = `json_extract(CAST(args AS TEXT), '$.job_id')`, `julianday(scheduled_at) <= julianday('now')`
	}
	var rows []jobRow
	if err := db.SelectContext(context.Background(), &rows, `SELECT `+expr+` AS job, state, attempt, `+due+` AS due FROM river_job WHERE kind = 'payroll_job'`); err != nil {
		t.Fatal(err)
	}
	out := map[string]jobRow{}
	for _, r := range rows {
		out[r.Job] = r
	}
	return out
}

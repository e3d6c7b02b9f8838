package storage_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"payline/domain"
	"payline/internal/testwait"
	"payline/storage"
	"payline/storage/storagetest"
)

func noJobs(context.Context, domain.JobRun) (time.Duration, error) { return 0, nil }

func noDeliveries(context.Context, domain.DeliveryRun, int, *time.Time) (domain.DeliveryResult, error) {
	return domain.DeliveryDone, nil
}

// TestMonitoringRunsPeriodically: the queue schedules the monitoring
// refresh on its own, every MonitoringInterval.
func TestMonitoringRunsPeriodically(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		q, err := storage.NewQueue(db, storage.QueueConfig{PollInterval: 50 * time.Millisecond, MonitoringInterval: 300 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		var runs atomic.Int64
		err = q.Start(context.Background(), storage.Runners{Job: noJobs, Delivery: noDeliveries,
			Schedule: func(context.Context, string) (string, error) { runs.Add(1); return "", nil },
			Refresh:  func(context.Context, domain.RefreshRun) error { return nil },
		})
		if err != nil {
			t.Fatal(err)
		}
		defer q.Stop(context.Background())
		waitFor(t, 20*time.Second, "monitoring to be scheduled twice at a 300ms interval", func() bool { return runs.Load() >= 2 })
	})
}

// TestMonitoringSchedulesOneRefreshPerAccount: scheduling walks the
// accounts in short steps, each step queues the next, and an account asked
// for twice in one period gets one refresh job.
func TestMonitoringSchedulesOneRefreshPerAccount(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		q, err := storage.NewQueue(db, storage.QueueConfig{PollInterval: 50 * time.Millisecond, MonitoringInterval: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		tx := storage.NewTransactor(db, q)
		sc := domain.Scope{CustomerID: "c", Mode: domain.ModeSandbox}
		var mu sync.Mutex
		var steps []string
		var refreshed []string
		schedule := func(ctx context.Context, after string) (string, error) {
			mu.Lock()
			steps = append(steps, after)
			mu.Unlock()
			if after == "" {
				for _, id := range []string{"a", "a", "b"} {
					if err := tx.EnqueueRefresh(ctx, domain.RefreshRun{Scope: sc, AccountID: id}); err != nil {
						return "", err
					}
				}
				return "b", nil
			}
			return "", tx.EnqueueRefresh(ctx, domain.RefreshRun{Scope: sc, AccountID: "c"})
		}
		refresh := func(_ context.Context, r domain.RefreshRun) error {
			mu.Lock()
			defer mu.Unlock()
			refreshed = append(refreshed, r.AccountID)
			return nil
		}
		if err := q.Start(context.Background(), storage.Runners{Job: noJobs, Delivery: noDeliveries, Schedule: schedule, Refresh: refresh}); err != nil {
			t.Fatal(err)
		}
		defer q.Stop(context.Background())
		if err := q.ScheduleMonitoringNow(context.Background()); err != nil {
			t.Fatal(err)
		}
		waitFor(t, 20*time.Second, "refreshes of a, b and c", func() bool {
			mu.Lock()
			defer mu.Unlock()
			return slices.Contains(refreshed, "a") && slices.Contains(refreshed, "b") && slices.Contains(refreshed, "c")
		})
		var jobs int
		if err := db.Get(&jobs, `SELECT COUNT(*) FROM river_job WHERE kind = 'monitoring_refresh'`); err != nil {
			t.Fatal(err)
		}
		if jobs != 3 {
			t.Errorf("%d refresh jobs queued for a, a, b and c, want 3 (one per account per period)", jobs)
		}
		mu.Lock()
		defer mu.Unlock()
		if !slices.Equal(steps, []string{"", "b"}) {
			t.Errorf("scheduling steps %q, want the first from the start and the next after b", steps)
		}
	})
}

// waitFor polls cond until it holds, failing the test after timeout.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	testwait.Eventually(t, timeout, cond, "waiting for %s", what)
}

// TestQueueStartIsBoundByItsContext: a context that has ended fails the
// start and leaves the queue stopped; once started, the queue outlives the
// context it started with (River would cancel every running job when it
// ends, so a shutdown could not let them finish), and its retention job
// runs at once, on a context of its own.
func TestQueueStartIsBoundByItsContext(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		var pruned, scheduled atomic.Int64
		var pruneCtxErr atomic.Value
		runners := storage.Runners{Job: noJobs, Delivery: noDeliveries,
			Schedule: func(ctx context.Context, _ string) (string, error) {
				if ctx.Err() == nil {
					scheduled.Add(1)
				}
				return "", nil
			},
			Refresh: func(context.Context, domain.RefreshRun) error { return nil },
			Prune: func(ctx context.Context) error {
				pruneCtxErr.Store(fmt.Sprint(ctx.Err()))
				pruned.Add(1)
				return nil
			},
		}
		config := storage.QueueConfig{PollInterval: 50 * time.Millisecond, MonitoringInterval: time.Hour}

		ended, cancel := context.WithCancel(context.Background())
		cancel()
		q, err := storage.NewQueue(db, config)
		if err != nil {
			t.Fatal(err)
		}
		if err := q.Start(ended, runners); err == nil {
			q.Stop(context.Background())
			t.Fatal("a queue started on a context that had ended")
		}
		if q.Running() {
			t.Error("a queue whose start failed says it runs")
		}
		q.Close()

		q, err = storage.NewQueue(db, config)
		if err != nil {
			t.Fatal(err)
		}
		startCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := q.Start(startCtx, runners); err != nil {
			t.Fatal(err)
		}
		defer q.Stop(context.Background())
		cancel()
		waitFor(t, 20*time.Second, "the retention job to run at start", func() bool { return pruned.Load() > 0 })
		if got := pruneCtxErr.Load(); got != "<nil>" {
			t.Errorf("the retention job ran on an ended context: %v", got)
		}
		if err := q.ScheduleMonitoringNow(context.Background()); err != nil {
			t.Fatal(err)
		}
		waitFor(t, 20*time.Second, "a job to run after the start's context ended", func() bool { return scheduled.Load() > 0 })
		if !q.Running() {
			t.Error("the queue stopped with the context it started with")
		}
	})
}

package storage_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestMonitoringRunsPeriodically: the queue schedules the monitoring
// refresh on its own, every MonitoringInterval.
func TestMonitoringRunsPeriodically(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		q, err := storage.NewQueue(db, storage.QueueConfig{PollInterval: 50 * time.Millisecond, MonitoringInterval: 300 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		var runs atomic.Int64
		err = q.Start(context.Background(), storage.Runners{
			Job: func(context.Context, domain.JobRun) (time.Duration, error) { return 0, nil },
			Delivery: func(context.Context, domain.DeliveryRun, int, *time.Time) (domain.DeliveryResult, error) {
				return domain.DeliveryDone, nil
			},
			Monitoring: func(context.Context) (int, error) {
				runs.Add(1)
				return 0, nil
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		defer q.Stop(context.Background())
		deadline := time.Now().Add(20 * time.Second)
		for runs.Load() < 2 {
			if time.Now().After(deadline) {
				t.Fatalf("monitoring ran %d times in 20s at a 300ms interval", runs.Load())
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
}

package storage_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestUpstreamBudgetsShared (issue 47, item 2): two instances' budgets
// over one store, 40 takers each at the same instant, spend the bucket's
// burst once between them, not once each; a second later, its rate's
// worth more; a 429 one of them learns pauses the other. On both
// databases and in Redis.
func TestUpstreamBudgetsShared(t *testing.T) {
	run := func(t *testing.T, a, b domain.UpstreamBudgets) {
		ctx := context.Background()
		name := fmt.Sprintf("upstream-%d", time.Now().UnixNano())
		t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
		takeAll := func(at time.Time) int64 {
			var taken atomic.Int64
			var wg sync.WaitGroup
			for i := range 80 {
				budgets := a
				if i%2 == 1 {
					budgets = b
				}
				wg.Go(func() {
					wait, err := budgets.Take(ctx, name, at, 8, 4)
					if err != nil {
						t.Error(err)
					}
					if wait == 0 {
						taken.Add(1)
					}
				})
			}
			wg.Wait()
			return taken.Load()
		}
		if n := takeAll(t0); n != 4 {
			t.Fatalf("80 takers at once over two instances took %d slots, want the burst of 4 between them", n)
		}
		if n := takeAll(t0.Add(time.Second)); n != 4 {
			t.Fatalf("a second later they took %d, want 4 (8 a second, up to the burst of 4)", n)
		}
		// A 429 learnt by one instance pauses the other.
		now := t0.Add(2 * time.Second)
		if err := a.Limited(ctx, name, now, now.Add(3*time.Second), 8); err != nil {
			t.Fatal(err)
		}
		if wait, err := b.Take(ctx, name, now.Add(time.Second), 8, 4); err != nil || wait != 2*time.Second {
			t.Fatalf("the other instance during the pause: wait %v, %v; want the 2 s left", wait, err)
		}
		if wait, err := b.Take(ctx, name, now.Add(4*time.Second), 8, 4); err != nil || wait != 0 {
			t.Fatalf("after the pause: wait %v, %v; want a slot", wait, err)
		}
	}
	for _, d := range storagetest.DialectList() {
		t.Run(string(d), func(t *testing.T) {
			// Two handles on one database: two instances.
			url := storagetest.NewURL(t, d, storagetest.Empty)
			var budgets [2]domain.UpstreamBudgets
			for i := range budgets {
				db, err := storage.Open(context.Background(), url)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { db.Close() })
				budgets[i] = storage.NewSQLUpstreamBudgets(db)
			}
			run(t, budgets[0], budgets[1])
		})
	}
	t.Run("redis", func(t *testing.T) {
		storagetest.RedisURL(t)
		run(t, storage.NewRedisUpstreamBudgets(storagetest.Redis(t)), storage.NewRedisUpstreamBudgets(storagetest.Redis(t)))
	})
}

package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"payline/connectors/upstream"
	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestSharedUpstreamBudget (issue 47, item 2): two relay instances'
// clients of one upstream, each allowed the default 8 requests a second,
// asking as fast as they can for 4 s of an upstream that allows 10 a
// second: with their budget shared (in PostgreSQL as payline serve does
// without Redis, and in Redis), the upstream answers no 429; with a
// budget each (the control) it does, so the test can tell.
func TestSharedUpstreamBudget(t *testing.T) {
	t.Parallel()
	run := func(t *testing.T, budgets [2]domain.UpstreamBudgets) (ok, limited int64) {
		lim := rate.NewLimiter(10, 5)
		var okN, limitedN atomic.Int64
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !lim.Allow() {
				limitedN.Add(1)
				w.Header().Set("Retry-After", "1")
				w.WriteHeader(http.StatusTooManyRequests)
				return
			}
			okN.Add(1)
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"data": [], "meta": {"next_cursor": null}}`))
		}))
		defer srv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
		defer cancel()
		var wg sync.WaitGroup
		for i := range 2 {
			c, err := upstream.New(upstream.Config{URL: srv.URL, Secret: "s", BudgetName: "shared-test@" + srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			if budgets[i] != nil {
				c.ShareBudget(budgets[i])
			}
			for range 4 {
				wg.Go(func() {
					for ctx.Err() == nil {
						_ = c.Verify(ctx)
					}
				})
			}
		}
		wg.Wait()
		return okN.Load(), limitedN.Load()
	}
	check := func(t *testing.T, budgets [2]domain.UpstreamBudgets) {
		ok, limited := run(t, budgets)
		if limited > 0 {
			t.Errorf("two instances sharing a budget drew %d 429s (%d answered)", limited, ok)
		}
		// 8 a second for 4 s, and the burst: not starved either.
		if ok < 24 {
			t.Errorf("two instances sharing a budget sent %d requests in 4 s; want about 34", ok)
		}
		t.Logf("shared: %d answered, %d 429s", ok, limited)
	}
	t.Run("postgres", func(t *testing.T) {
		url := storagetest.NewURL(t, storage.Postgres, storagetest.Empty)
		var budgets [2]domain.UpstreamBudgets
		for i := range budgets {
			db, err := storage.Open(context.Background(), url)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			budgets[i] = storage.NewSQLUpstreamBudgets(db)
		}
		check(t, budgets)
	})
	t.Run("redis", func(t *testing.T) {
		storagetest.RedisURL(t)
		check(t, [2]domain.UpstreamBudgets{storage.NewRedisUpstreamBudgets(storagetest.Redis(t)), storage.NewRedisUpstreamBudgets(storagetest.Redis(t))})
	})
	t.Run("control: a budget each", func(t *testing.T) {
		if ok, limited := run(t, [2]domain.UpstreamBudgets{}); limited == 0 {
			t.Errorf("two instances with a budget each drew no 429 (%d answered): the upstream's limit does not bind and the test cannot tell", ok)
		}
	})
}

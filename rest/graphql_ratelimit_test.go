package rest

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestGraphQLRateLimit: Query.rateLimit and extensions.cost.throttleStatus
// read the same request bucket the rate limit refuses from, shared with
// REST: each GraphQL operation and each REST request takes one, so
// remaining falls by rateLimit.cost per query. The clock stands still, so
// nothing refills between requests.
func TestGraphQLRateLimit(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		f := newFixture(t, db, func(s *fixtureSetup) { s.rest.RateLimit = 0; s.rest.RateLimitClock = fixedClock{now} })
		const q = `{ rateLimit { cost limit remaining resetAt used } }`
		read := func() (cost, limit, remaining, used int, resetAt string) {
			t.Helper()
			rl := f.gql(q, nil).ok(t)["rateLimit"].(map[string]any)
			return int(rl["cost"].(float64)), int(rl["limit"].(float64)), int(rl["remaining"].(float64)),
				int(rl["used"].(float64)), rl["resetAt"].(string)
		}
		cost, limit, first, used, resetAt := read()
		if cost != 1 || limit != 10 || used != limit-first {
			t.Fatalf("rateLimit: cost %d limit %d remaining %d used %d, want cost 1, limit 10 (the sandbox's rate), used = limit - remaining",
				cost, limit, first, used)
		}
		if want := now.Add(time.Duration(used) * time.Second / 10).Format(time.RFC3339Nano); resetAt != want {
			t.Errorf("resetAt %s, want %s (%d requests to restore at 10 a second)", resetAt, want, used)
		}
		// Another query reports the bucket in extensions.cost.throttleStatus.
		res := f.gql(`{ employers(first: 2) { edges { node { id } } } }`, nil)
		res.ok(t)
		throttle, _ := at(res.Extensions, "cost", "throttleStatus").(map[string]any)
		if throttle == nil || throttle["maximumAvailable"] != float64(10) || throttle["restoreRate"] != float64(10) ||
			throttle["currentlyAvailable"] != float64(first-cost) {
			t.Errorf("throttleStatus %v, want maximumAvailable 10, restoreRate 10, currentlyAvailable %d", throttle, first-cost)
		}
		_, _, second, _, _ := read()
		if second != first-2*cost {
			t.Errorf("remaining %d after two more queries, want %d", second, first-2*cost)
		}
		// A REST request takes from the same bucket.
		if r := f.request("GET", "/v1/employers?limit=1", nil); r.status != 200 {
			t.Fatalf("GET /v1/employers: %d %s", r.status, r.raw)
		}
		_, _, third, _, _ := read()
		if third != second-2 {
			t.Errorf("remaining %d after a REST request and a query, want %d", third, second-2)
		}
		// Emptied, the bucket refuses: remaining 0 was the truth.
		for range third {
			f.gql(`{ __typename }`, nil)
		}
		if r := f.request("POST", "/graphql", strings.NewReader(`{"query":"{ __typename }"}`), "Content-Type", "application/json"); r.status != 429 {
			t.Errorf("with remaining 0: status %d, want 429", r.status)
		}
	})
}

// TestGraphQLRateLimitUnlimited: a server that limits no rate answers
// rateLimit null and adds no throttleStatus.
func TestGraphQLRateLimitUnlimited(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db) // the fixture's rate is off
	res := f.gql(`{ rateLimit { remaining } }`, nil)
	if data := res.ok(t); data["rateLimit"] != nil {
		t.Errorf("rateLimit %v, want null", data["rateLimit"])
	}
	if th := at(res.Extensions, "cost", "throttleStatus"); th != nil {
		t.Errorf("throttleStatus %v, want none", th)
	}
}

// TestRedisRateStatus: with the buckets in Redis, status reads a tenant's
// bucket without taking from it, and sees what allow took.
func TestRedisRateStatus(t *testing.T) {
	l := newRedisLimiter(storagetest.Redis(t), 10, slog.New(slog.DiscardHandler))
	tenant := "rate-status-test/" + domain.NewID()
	ctx := context.Background()
	for i, want := range []int{10, 10} { // reading twice takes nothing
		if st, ok := l.status(ctx, tenant); !ok || st.Limit != 10 || st.Remaining != want || st.PerSecond != 10 {
			t.Fatalf("read %d of a fresh bucket: %+v %v, want limit 10, remaining %d, 10 a second", i, st, ok, want)
		}
	}
	for range 3 {
		if _, ok := l.allow(ctx, tenant); !ok {
			t.Fatal("allow refused a fresh bucket")
		}
	}
	st, ok := l.status(ctx, tenant)
	// Redis's clock runs on, so up to one request may come back meanwhile.
	if !ok || st.Remaining < 7 || st.Remaining > 8 || !st.ResetAt.After(time.Now()) {
		t.Errorf("after 3 requests: %+v %v, want remaining 7 (or 8 after a refill) and a reset ahead", st, ok)
	}
}

// fixedClock stands still.
type fixedClock struct{ t time.Time }

func (c fixedClock) Now() time.Time { return c.t }

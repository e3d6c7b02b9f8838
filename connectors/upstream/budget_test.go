package upstream

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"payline/domain"
	"payline/internal/testwait"
)

// TestBudgetServesByPriority queues one request of each priority on an
// empty budget, the least urgent first, then lets one token arrive at a
// time (a held clock): each goes to the most urgent waiter left.
func TestBudgetServesByPriority(t *testing.T) {
	var mu sync.Mutex
	now := time.Unix(1e9, 0)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	b := newBudget(10, clock)
	b.mu.Lock()
	b.tokens = 0
	b.mu.Unlock()
	granted := make(chan domain.UpstreamPriority, 5)
	for _, p := range []domain.UpstreamPriority{domain.PriorityDirectory, domain.PriorityReconcile, domain.PriorityData, domain.PriorityIngest, domain.PriorityEndUser} {
		go func() {
			if err := b.wait(context.Background(), p); err != nil {
				t.Error(err)
			}
			granted <- p
		}()
		waitFor(t, func() bool { b.mu.Lock(); defer b.mu.Unlock(); return len(b.queues[p]) == 1 })
	}
	for want := domain.PriorityEndUser; want <= domain.PriorityDirectory; want++ {
		mu.Lock()
		now = now.Add(100 * time.Millisecond) // one token at 10 a second
		mu.Unlock()
		b.mu.Lock()
		b.dispatch(clock())
		b.mu.Unlock()
		if got := <-granted; got != want {
			t.Fatalf("granted priority %d, want %d", got, want)
		}
	}
}

// TestBudgetPaces checks a burst beyond the bucket waits for the rate:
// the budget never lets more than burst + rate×elapsed requests through.
func TestBudgetPaces(t *testing.T) {
	b := newBudget(20, nil)
	start := time.Now()
	const n = 16 // burst 10, then 6 more at 20 a second: about 300 ms
	for range n {
		if err := b.wait(context.Background(), domain.PriorityIngest); err != nil {
			t.Fatal(err)
		}
	}
	elapsed := time.Since(start)
	if allowed := b.burst + elapsed.Seconds()*20; float64(n) > allowed+0.5 {
		t.Fatalf("%d requests in %v; the budget allows %.1f", n, elapsed, allowed)
	}
	if st := b.stats(); st.Waits == 0 {
		t.Fatalf("no request waited: %+v", st)
	}
}

// TestBudgetCancelledWaitSpendsNothing: a waiter whose context ends
// leaves the queue, and the next one is served.
func TestBudgetCancelledWaitSpendsNothing(t *testing.T) {
	b := newBudget(10, nil)
	b.mu.Lock()
	b.tokens = 0
	b.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- b.wait(ctx, domain.PriorityEndUser) }()
	waitFor(t, func() bool { b.mu.Lock(); defer b.mu.Unlock(); return len(b.queues[domain.PriorityEndUser]) == 1 })
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("wait = %v, want context.Canceled", err)
	}
	b.mu.Lock()
	queued := len(b.queues[domain.PriorityEndUser])
	b.mu.Unlock()
	if queued != 0 {
		t.Fatalf("%d waiters left after the cancelled one", queued)
	}
	if err := b.wait(context.Background(), domain.PriorityDirectory); err != nil {
		t.Fatal(err)
	}
}

// rateLimitedUpstream answers 429 (Retry-After: 1) to its first `limited`
// requests, then an empty page.
func rateLimitedUpstream(t *testing.T, limited int64) (*httptest.Server, *atomic.Int64) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) <= limited {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"error":{"type":"RATE_LIMIT_ERROR","code":"RATE_LIMIT_EXCEEDED","message":"slow down","status_code":429}}`))
			return
		}
		_, _ = w.Write([]byte(`{"meta":{"count":0,"next_cursor":null},"data":[]}`))
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// TestClientWaitsOutRateLimits: background work meets 429s, waits the
// upstream's Retry-After and succeeds; nothing fails and the budget
// slowed down.
func TestClientWaitsOutRateLimits(t *testing.T) {
	srv, n := rateLimitedUpstream(t, 2)
	c, err := New(Config{URL: srv.URL, Secret: "s"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := domain.WithUpstreamPriority(context.Background(), domain.PriorityDirectory)
	if _, _, err := c.EmployersPage(ctx, time.Time{}, ""); err != nil {
		t.Fatalf("a rate-limited read failed instead of waiting: %v", err)
	}
	if got := n.Load(); got != 3 {
		t.Fatalf("the upstream saw %d requests, want 3 (two 429s, one answer)", got)
	}
	if st := c.Stats(); st.Limited != 2 || st.Rate >= DefaultRate {
		t.Fatalf("stats %+v: want 2 limits counted and a lowered rate", st)
	}
}

// TestEndUserRequestGivesUp: an end user's request does not wait past
// the request timeout for an upstream that keeps answering 429; it
// answers UPSTREAM_UNAVAILABLE with a Retry-After.
func TestEndUserRequestGivesUp(t *testing.T) {
	srv, _ := rateLimitedUpstream(t, 1<<30)
	c, err := New(Config{URL: srv.URL, Secret: "s", RequestTimeout: 1500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Verify(context.Background())
	var de *domain.Error
	if !errors.As(err, &de) || de.Code != domain.CodeUpstreamUnavailable || de.RetryAfter <= 0 {
		t.Fatalf("Verify = %v, want UPSTREAM_UNAVAILABLE with a Retry-After", err)
	}
}

// waitFor polls cond until it holds, failing the test after 5 s.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	testwait.Eventually(t, 5*time.Second, cond, "the budget's queue")
}

// TestBudgetOneBackOffPerBurst: the 429s of one burst (answers to
// requests already on their way) halve the rate once, not once each; a
// 429 after the burst window is a new burst and halves it again.
func TestBudgetOneBackOffPerBurst(t *testing.T) {
	now := time.Unix(1e9, 0)
	b := newBudget(8, func() time.Time { return now })
	limited := http.Header{"Retry-After": {"1"}}
	for range 4 { // four answers within 300 ms
		b.answered(http.StatusTooManyRequests, limited)
		now = now.Add(100 * time.Millisecond)
	}
	if st := b.stats(); st.Rate != 4 || st.Limited != 4 {
		t.Fatalf("after a burst of four 429s: %+v; want rate 4 (halved once), 4 counted", st)
	}
	now = now.Add(2 * time.Second)
	b.answered(http.StatusTooManyRequests, limited)
	if st := b.stats(); st.Rate != 2 {
		t.Fatalf("a 429 two seconds after the burst: rate %v, want 2 (a new burst)", st.Rate)
	}
}

// TestBudgetRecoversWithinSeconds: once answers come back without a 429
// the rate climbs back to the configured one within seconds of the
// burst's pause ending, measured in time, not in a count of answers.
func TestBudgetRecoversWithinSeconds(t *testing.T) {
	now := time.Unix(1e9, 0)
	b := newBudget(8, func() time.Time { return now })
	b.answered(http.StatusTooManyRequests, http.Header{"Retry-After": {"1"}})
	pauseEnds := now.Add(time.Second)
	// Answers every 250 ms, as a relay at 4 a second gets them.
	for b.stats().Rate < 8 {
		if now.Sub(pauseEnds) > 10*time.Second {
			t.Fatalf("rate %v ten seconds after the pause ended; want 8 again", b.stats().Rate)
		}
		now = now.Add(250 * time.Millisecond)
		b.answered(http.StatusOK, http.Header{})
	}
	if took := now.Sub(pauseEnds); took > 3*time.Second {
		t.Errorf("back to the full rate %v after the pause ended; want within 3 s of one halving", took)
	}

	// From the floor, within ten seconds.
	b.mu.Lock()
	b.rate = minRate
	b.mu.Unlock()
	from := now
	for b.stats().Rate < 8 {
		if now.Sub(from) > 10*time.Second {
			t.Fatalf("rate %v ten seconds after good answers resumed at the floor; want 8", b.stats().Rate)
		}
		now = now.Add(250 * time.Millisecond)
		b.answered(http.StatusOK, http.Header{})
	}
}

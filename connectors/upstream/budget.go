package upstream

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"

	"payline/connectors/internal/outbound"
	"payline/domain"
)

// DefaultRate is the requests a second the relay sends an upstream unless
// --upstream-rate says otherwise: below the 10 a second per key that the
// spec's sandbox and development modes (and the vendor) enforce, so the
// relay's own pacing, not the upstream's 429s, sets its pace.
const DefaultRate = 8

// minRate is the slowest a budget slows down to after 429s.
const minRate = 0.5

// budget is the one limiter every request to an upstream goes through: a
// token bucket whose waiters are served by priority (domain.PriorityEndUser
// first, domain.PriorityDirectory last) and, within a priority, in
// arrival order. A 429 pauses it for the upstream's Retry-After; the first
// 429 of a burst halves its rate, and the others of the same burst
// (answers to requests already on their way, within burstWindow of that
// cut) only pause it: one back-off per burst, not one per answer. Once
// answers come back without a 429, each recoverEvery of them raises the
// rate by half, up to the configured rate: from one cut back to full
// rate in about two seconds, from the floor in under ten. It never fails
// a wait by itself: the caller's context bounds it.
type budget struct {
	now func() time.Time

	mu     sync.Mutex
	max    float64 // requests a second, as configured
	rate   float64 // requests a second now (lowered by 429s)
	burst  float64
	tokens float64
	last   time.Time // when tokens was last brought up to date
	paused time.Time // no request starts before this
	queues [domain.PriorityDirectory + 1][]*waiter
	timer  *time.Timer
	cutAt  time.Time // when a 429 last cut the rate
	raised time.Time // when the rate was last raised or cut

	// limited counts the 429s the upstream answered; waits the requests
	// that had to queue for a slot; spent the slots handed out.
	limited, waits, spent int64

	// shared, when set, holds the slots every instance relaying to this
	// upstream (name) draws from, and the pauses its 429s ask of all of
	// them; this process's queue still orders its own requests by
	// priority. A shared store that fails is passed over: the local
	// tokens serve meanwhile (sharedFailures counts those times).
	shared         domain.UpstreamBudgets
	name           string
	sharedFailures int64
}

// sharedTimeout bounds one call to the shared budget's store.
const sharedTimeout = 500 * time.Millisecond

// take spends a slot at now, or says how long until one may be: from the
// shared bucket when instances share one, else (or when its store fails)
// from this process's tokens. Called with mu held.
func (b *budget) take(now time.Time) time.Duration {
	b.refill(now)
	if b.shared != nil {
		ctx, cancel := context.WithTimeout(context.Background(), sharedTimeout)
		wait, err := b.shared.Take(ctx, b.name, now, b.max, b.burst)
		cancel()
		if err == nil {
			if wait == 0 {
				b.tokens = max(0, b.tokens-1) // the local count follows, for a fallback
			}
			return wait
		}
		b.sharedFailures++
	}
	if b.tokens >= 1 {
		b.tokens--
		return 0
	}
	return time.Duration((1 - b.tokens) / b.rate * float64(time.Second))
}

// burstWindow is how long after a cut further 429s count as the same
// burst (answers to requests sent before the cut was felt);
// recoverEvery how long answers must come back without a 429 for each
// raise of the rate.
const (
	burstWindow  = time.Second
	recoverEvery = time.Second
)

type waiter struct {
	ready   chan struct{}
	granted bool
}

// newBudget makes a budget of rate requests a second, with a burst of at
// most half a second's requests (at least one), full at first.
func newBudget(rate float64, now func() time.Time) *budget {
	if now == nil {
		now = time.Now
	}
	burst := max(1, rate/2)
	return &budget{now: now, max: rate, rate: rate, burst: burst, tokens: burst, last: now()}
}

// wait returns once a request of priority p may go, or with the context's
// error (nothing is spent then).
func (b *budget) wait(ctx context.Context, p domain.UpstreamPriority) error {
	p = min(max(p, domain.PriorityEndUser), domain.PriorityDirectory)
	b.mu.Lock()
	now := b.now()
	b.refill(now)
	if !b.queuedAtOrAbove(p) && !now.Before(b.paused) && (b.shared != nil || b.tokens >= 1) && b.take(now) == 0 {
		b.spent++
		b.mu.Unlock()
		return nil
	}
	w := &waiter{ready: make(chan struct{})}
	b.queues[p] = append(b.queues[p], w)
	b.waits++
	b.dispatch(now)
	b.mu.Unlock()
	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
		b.mu.Lock()
		defer b.mu.Unlock()
		if w.granted { // granted as the context ended: give the slot back (a shared one is spent)
			b.tokens = min(b.burst, b.tokens+1)
			b.spent--
			b.dispatch(b.now())
		} else {
			for i, q := range b.queues[p] {
				if q == w {
					b.queues[p] = append(b.queues[p][:i], b.queues[p][i+1:]...)
					break
				}
			}
		}
		return ctx.Err()
	}
}

// queuedAtOrAbove reports whether a request of priority p or a more
// urgent one is already waiting (a newcomer must not jump it).
func (b *budget) queuedAtOrAbove(p domain.UpstreamPriority) bool {
	for q := domain.PriorityEndUser; q <= p; q++ {
		if len(b.queues[q]) > 0 {
			return true
		}
	}
	return false
}

// refill adds the tokens earned since last. Called with mu held.
func (b *budget) refill(now time.Time) {
	if now.After(b.last) {
		b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
		b.last = now
	}
}

// dispatch grants waiters, most urgent first, while tokens last, and
// arms the timer for the next grant. Called with mu held.
func (b *budget) dispatch(now time.Time) {
	b.refill(now)
	for {
		p := b.firstQueued()
		if p < 0 {
			return
		}
		var after time.Duration
		if now.Before(b.paused) {
			after = b.paused.Sub(now)
		} else {
			after = b.take(now)
		}
		if after > 0 {
			b.arm(max(after, time.Millisecond))
			return
		}
		w := b.queues[p][0]
		b.queues[p] = b.queues[p][1:]
		b.spent++
		w.granted = true
		close(w.ready)
	}
}

// firstQueued is the most urgent priority with a waiter, -1 when none
// waits. Called with mu held.
func (b *budget) firstQueued() int {
	for p := range b.queues {
		if len(b.queues[p]) > 0 {
			return p
		}
	}
	return -1
}

// arm makes the timer dispatch again after d.
func (b *budget) arm(d time.Duration) {
	if b.timer != nil {
		b.timer.Stop()
	}
	b.timer = time.AfterFunc(d, func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.dispatch(b.now())
	})
}

// answered learns from a response: a 429 (or a rate-limit header saying
// nothing is left) pauses every request until the upstream's reset and
// halves the rate; other answers win the rate back little by little.
func (b *budget) answered(status int, h http.Header) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	pause, limited := rateLimitPause(status, h, now)
	if !limited {
		// Recovery is measured from the later of the last change and the
		// end of the pause: a second of good answers, then half as much
		// again.
		since := b.raised
		if b.paused.After(since) {
			since = b.paused
		}
		if b.rate < b.max && now.Sub(since) >= recoverEvery {
			b.rate, b.raised = min(b.max, b.rate*1.5), now
		}
		if pause > 0 && now.Add(pause).After(b.paused) {
			b.paused = now.Add(pause)
		}
		return
	}
	b.limited++
	if b.shared != nil {
		ctx, cancel := context.WithTimeout(context.Background(), sharedTimeout)
		if err := b.shared.Limited(ctx, b.name, now, now.Add(pause), b.max); err != nil {
			b.sharedFailures++
		}
		cancel()
	}
	if b.cutAt.IsZero() || now.Sub(b.cutAt) >= burstWindow {
		b.rate, b.cutAt = max(minRate, b.rate/2), now
	}
	b.raised = now
	b.refill(now)
	b.tokens = 0
	if until := now.Add(pause); until.After(b.paused) {
		b.paused = until
	}
}

// rateLimitPause reads how long the upstream wants no request: a 429's
// Retry-After (seconds or an HTTP date; a second when absent), or a
// RateLimit-Remaining / X-RateLimit-Remaining of 0 with its reset in
// seconds. limited is true for a 429.
func rateLimitPause(status int, h http.Header, now time.Time) (pause time.Duration, limited bool) {
	if status == http.StatusTooManyRequests {
		return max(outbound.RetryAfter(h.Get("Retry-After"), now), time.Second), true
	}
	for _, prefix := range []string{"RateLimit-", "X-RateLimit-"} {
		if h.Get(prefix+"Remaining") != "0" {
			continue
		}
		if s, err := strconv.ParseFloat(h.Get(prefix+"Reset"), 64); err == nil && s > 0 && s < 3600 {
			return time.Duration(s * float64(time.Second)), false
		}
	}
	return 0, false
}

// estimate is how long a new request of priority p would wait now, for a
// Retry-After when an end user's request cannot wait that long.
func (b *budget) estimate(p domain.UpstreamPriority) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	b.refill(now)
	ahead := 0.0
	for q := domain.PriorityEndUser; q <= p && int(q) < len(b.queues); q++ {
		ahead += float64(len(b.queues[q]))
	}
	wait := time.Duration(max(0, ahead+1-b.tokens) / b.rate * float64(time.Second))
	if now.Before(b.paused) {
		wait += b.paused.Sub(now)
	}
	return wait
}

// BudgetStats is what the budget has seen: the upstream's 429s, the
// requests that queued for a slot, and the rate now.
type BudgetStats struct {
	// Spent counts the requests the budget let go; Limited the 429s the
	// upstream answered; Waits the requests that had to queue.
	Spent, Limited, Waits int64
	// Waiting is the requests queued now; Rate the requests a second the
	// budget allows now (lowered after 429s), MaxRate as configured.
	Waiting       int
	Rate, MaxRate float64
}

func (b *budget) stats() BudgetStats {
	b.mu.Lock()
	defer b.mu.Unlock()
	waiting := 0
	for _, q := range b.queues {
		waiting += len(q)
	}
	return BudgetStats{Spent: b.spent, Limited: b.limited, Waits: b.waits, Waiting: waiting, Rate: b.rate, MaxRate: b.max}
}

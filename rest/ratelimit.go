package rest

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"payline/domain"
	"payline/internal/httperr"
)

// limiter decides whether a tenant may make one more request now.
type limiter interface {
	allow(ctx context.Context, tenant string) (wait time.Duration, ok bool)
	// status reads the tenant's bucket without taking from it; ok is
	// false when nothing limits the rate or the bucket cannot be read.
	status(ctx context.Context, tenant string) (st domain.RateStatus, ok bool)
	describe() string
}

// keyLimiter is a token bucket per tenant (customer and mode): the spec's
// limit is across all endpoints, so a second key buys no extra rate.
type keyLimiter struct {
	limit rate.Limit
	burst int
	clock domain.Clock
	mu    sync.Mutex
	keys  map[string]*rate.Limiter
	// sweepAt is the number of buckets at which full ones are dropped
	// (a full bucket is what a new one is): keys such as link tokens
	// come without end, and the map must not grow with them.
	sweepAt int
}

// minSweep is the fewest buckets kept before full ones are dropped.
const minSweep = 1024

func newKeyLimiter(limit rate.Limit, clock domain.Clock) *keyLimiter {
	if clock == nil {
		clock = domain.SystemClock{}
	}
	return &keyLimiter{limit: limit, burst: int(math.Max(1, float64(limit))), clock: clock, keys: map[string]*rate.Limiter{}}
}

// newRuleLimiter is a token bucket per key that lets rule.Burst through
// at once, then one every rule.Every.
func newRuleLimiter(rule domain.ThrottleRule, clock domain.Clock) *keyLimiter {
	l := newKeyLimiter(rate.Every(rule.Every), clock)
	l.burst = max(1, rule.Burst)
	return l
}

// allow takes a token for the key, or says how long until one is free.
func (l *keyLimiter) allow(_ context.Context, keyID string) (time.Duration, bool) {
	if l.limit == rate.Inf {
		return 0, true
	}
	l.mu.Lock()
	now := l.clock.Now()
	lim, ok := l.keys[keyID]
	if !ok {
		if len(l.keys) >= max(l.sweepAt, minSweep) {
			for k, b := range l.keys {
				if b.TokensAt(now) >= float64(l.burst) {
					delete(l.keys, k)
				}
			}
			l.sweepAt = 2 * len(l.keys) // amortised: a sweep per doubling
		}
		lim = rate.NewLimiter(l.limit, l.burst)
		l.keys[keyID] = lim
	}
	l.mu.Unlock()
	res := lim.ReserveN(now, 1)
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		return d, false
	}
	return 0, true
}

// status reads the key's bucket as allow would find it now.
func (l *keyLimiter) status(_ context.Context, keyID string) (domain.RateStatus, bool) {
	if l.limit == rate.Inf {
		return domain.RateStatus{}, false
	}
	burst := l.burst
	now := l.clock.Now()
	tokens := float64(burst)
	l.mu.Lock()
	if lim, ok := l.keys[keyID]; ok {
		tokens = lim.TokensAt(now)
	}
	l.mu.Unlock()
	missing := float64(burst) - math.Max(0, tokens)
	return domain.RateStatus{Limit: burst, Remaining: int(math.Max(0, math.Floor(tokens))), PerSecond: float64(l.limit),
		ResetAt: now.Add(time.Duration(missing / float64(l.limit) * float64(time.Second)))}, true
}

func (l *keyLimiter) describe() string { return strconv.FormatFloat(float64(l.limit), 'f', -1, 64) }

func limitFor(mode domain.Mode, configured float64) rate.Limit {
	switch {
	case configured < 0:
		return rate.Inf
	case configured > 0:
		return rate.Limit(configured)
	case mode == domain.ModeProduction:
		return 50
	}
	return 10
}

// allow takes one request from the tenant's rate: RATE_LIMIT_EXCEEDED,
// with the wait in RetryAfter, when there is none left. It is the
// domain.RateLimiter websockets count their operations with.
func (s *Server) allow(ctx context.Context, sc domain.Scope) error {
	wait, ok := s.limiter.allow(ctx, sc.CustomerID+"/"+string(sc.Mode))
	if ok {
		return nil
	}
	s.metrics.rateLimited(sc.Mode)
	return &domain.Error{Kind: domain.KindRateLimited, Code: domain.CodeRateLimitExceeded, RetryAfter: wait,
		Message: fmt.Sprintf("more than %s requests per second for this customer; retry after %s with exponential backoff",
			s.limiter.describe(), wait.Round(time.Millisecond))}
}

// rateStatus reads what is left of the tenant's rate, for GraphQL's
// rateLimit and extensions.cost.throttleStatus.
func (s *Server) rateStatus(ctx context.Context, sc domain.Scope) (domain.RateStatus, bool) {
	return s.limiter.status(ctx, sc.CustomerID+"/"+string(sc.Mode))
}

// retryAfterSeconds is a Retry-After value: whole seconds, rounded up.
var retryAfterSeconds = httperr.RetryAfter

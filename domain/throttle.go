package domain

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// ThrottleRule is a token bucket of failures: a key may fail Burst times,
// then once more per Every. Backends keep, per key, the time at which
// every failure is forgiven (GCRA's "theoretical arrival time"), so one
// number per key says everything and can expire with it.
type ThrottleRule struct {
	Burst int
	Every time.Duration
}

// Window is how long a key's failures are remembered after its last one:
// a store may forget a key once this has passed.
func (r ThrottleRule) Window() time.Duration { return time.Duration(r.Burst) * r.Every }

// Wait is how long a key whose failures are all forgiven at freeAt must
// wait at now before it may fail again: zero when it has a failure to
// spare.
func (r ThrottleRule) Wait(freeAt, now time.Time) time.Duration {
	if !freeAt.After(now) { // all forgiven (and no far past to overflow on)
		return 0
	}
	return max(0, freeAt.Sub(now)-time.Duration(r.Burst-1)*r.Every)
}

// After is a key's forgiven-at time once one more failure at now is
// counted: Every later than before (or than now, if all was forgiven),
// never more than Window ahead of now. Stores that cannot run Go in their
// atomic update (SQL, a Redis script) write the same arithmetic.
func (r ThrottleRule) After(freeAt, now time.Time) time.Time {
	if freeAt.Before(now) {
		freeAt = now
	}
	return minTime(freeAt.Add(r.Every), now.Add(r.Window()))
}

// Outstanding is how many of a key's failures are not yet forgiven at
// now when all are forgiven at freeAt: at most Burst.
func (r ThrottleRule) Outstanding(freeAt, now time.Time) int {
	if !freeAt.After(now) {
		return 0
	}
	return int((freeAt.Sub(now) + r.Every - 1) / r.Every)
}

// Backoff is a delay that doubles with each failure of a key beyond the
// first Free, from First up to Cap. Count counts and forgives the
// failures, so the delay fades as they are forgiven.
type Backoff struct {
	Count      ThrottleRule
	Free       int
	First, Cap time.Duration
}

// Delay is how long an attempt waits at now for a key whose failures are
// all forgiven at freeAt: zero while it has at most Free outstanding.
func (b Backoff) Delay(freeAt, now time.Time) time.Duration {
	n := b.Count.Outstanding(freeAt, now) - b.Free
	switch {
	case n <= 0:
		return 0
	case n > 30: // past any cap, and a shift that could overflow
		return b.Cap
	}
	return min(b.First<<(n-1), b.Cap)
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// SignInThrottle holds the failed sign-ins of every instance: the
// database, or Redis when the servers share one (the same choice as the
// API's rate limit). Keys are opaque (ThrottleKey hashes what people
// typed), and a key is forgotten once rule.Window has passed since its
// last failure, so the store holds only keys that failed lately, however
// many addresses a caller invents.
type SignInThrottle interface {
	// ForgivenAt is, for each of keys in order, the moment all its
	// failures are forgiven: the zero time for a key with none
	// remembered. Errors are the store's.
	ForgivenAt(ctx context.Context, keys ...string) ([]time.Time, error)
	// Fail counts one failure against each key at now, atomically per key
	// across instances. Errors are the store's.
	Fail(ctx context.Context, rule ThrottleRule, now time.Time, keys ...string) error
}

// ThrottleKey is the throttle's key for a kind of thing ("email",
// "addr") and its value: a hash, so neither the database nor Redis keeps
// the e-mail addresses strangers type.
func ThrottleKey(kind, value string) string {
	h := sha256.Sum256([]byte(kind + "\x00" + value))
	return kind + ":" + hex.EncodeToString(h[:16])
}

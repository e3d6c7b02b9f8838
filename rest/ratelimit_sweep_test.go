package rest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"payline/domain"
)

// TestKeyLimiterForgetsFullBuckets: a limiter keyed by something without
// end (a link token a preview) drops the buckets that have filled again
// (what a new bucket is), so its map does not grow with every key ever
// seen, and a key still short of tokens keeps its bucket.
func TestKeyLimiterForgetsFullBuckets(t *testing.T) {
	clock := &fixedClock{time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)}
	l := newRuleLimiter(domain.ThrottleRule{Burst: 2, Every: time.Second}, clockFunc(func() time.Time { return clock.t }))
	ctx := context.Background()
	for i := range 3 * minSweep {
		l.allow(ctx, fmt.Sprintf("token-%d", i))
	}
	// A key that used its burst, then the rest refill.
	l.allow(ctx, "busy")
	l.allow(ctx, "busy")
	clock.t = clock.t.Add(time.Minute)
	if _, ok := l.allow(ctx, "busy"); !ok {
		t.Fatal("a refilled bucket refused")
	}
	l.allow(ctx, "busy")
	for i := range minSweep {
		l.allow(ctx, fmt.Sprintf("new-%d", i))
	}
	if n := len(l.keys); n > 2*minSweep {
		t.Errorf("%d buckets kept after %d keys, want the full ones dropped", n, 4*minSweep+1)
	}
	if _, ok := l.keys["busy"]; !ok {
		t.Error("a bucket short of tokens was dropped")
	}
	if _, ok := l.allow(ctx, "busy"); ok {
		t.Error("a key that used its burst was let through again at once")
	}
}

type clockFunc func() time.Time

func (f clockFunc) Now() time.Time { return f() }

package storage_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"payline/domain"
	"payline/storage"
)

// countedThrottle counts the reads of the throttle it wraps.
type countedThrottle struct {
	domain.SignInThrottle
	reads atomic.Int64
}

func (c *countedThrottle) ForgivenAt(ctx context.Context, keys ...string) ([]time.Time, error) {
	c.reads.Add(1)
	return c.SignInThrottle.ForgivenAt(ctx, keys...)
}

// TestSignInRefusalRememberedBeforeStore: once the shared throttle
// refuses an address, the instance that heard it refuses the address's
// next sign-ins from memory, without reading the store, until the moment
// the store said; then it asks the store again. Another instance still
// asks the store (and is refused by it), and the member signs in from a
// clean address meanwhile: the memory refuses only what the store does.
func TestSignInRefusalRememberedBeforeStore(t *testing.T) {
	throttleStores(t, func(t *testing.T, db *storage.DB, newThrottle func() domain.SignInThrottle) {
		var throttles []*countedThrottle // each instance's, in order
		s := newSignInInstances(t, 2, db, func() domain.SignInThrottle {
			c := &countedThrottle{SignInThrottle: newThrottle()}
			throttles = append(throttles, c)
			return c
		})
		counted := func(i int) *countedThrottle { return throttles[i] }
		guesser := s.addr(1)
		for i := range domain.SignInPairRule.Burst {
			if err := s.signIn(0, s.ada, "a guess", guesser); !hasCode(err, domain.CodeInvalidCredentials) {
				t.Fatalf("guess %d: %v, want INVALID_CREDENTIALS", i, err)
			}
		}
		err := s.signIn(0, s.ada, "a guess", guesser)
		if !hasCode(err, domain.CodeRateLimitExceeded) {
			t.Fatalf("a guess past the pair rule: %v, want RATE_LIMIT_EXCEEDED", err)
		}
		retry := domain.AsError(err).RetryAfter

		before := counted(0).reads.Load()
		err = s.try(0, s.ada, throttledPassword, guesser)
		if de := domain.AsError(err); de == nil || de.Code != domain.CodeRateLimitExceeded || de.RetryAfter <= 0 || de.RetryAfter > retry {
			t.Fatalf("the refused address again: %v, want RATE_LIMIT_EXCEEDED within %v", err, retry)
		}
		if n := counted(0).reads.Load() - before; n != 0 {
			t.Errorf("the refused address again read the store %d times, want none", n)
		}
		before = counted(1).reads.Load()
		if err := s.try(1, s.ada, throttledPassword, guesser); !hasCode(err, domain.CodeRateLimitExceeded) {
			t.Errorf("the refused address on the other instance: %v, want RATE_LIMIT_EXCEEDED", err)
		}
		if counted(1).reads.Load() == before {
			t.Errorf("the other instance refused the address without asking the store")
		}
		if err := s.signIn(0, s.ada, throttledPassword, s.addr(2)); err != nil {
			t.Errorf("the member from a clean address: %v", err)
		}

		s.clock.advance(retry)
		before = counted(0).reads.Load()
		if err := s.signIn(0, s.ada, throttledPassword, guesser); err != nil {
			t.Errorf("the address once its refusal lifted: %v", err)
		}
		if counted(0).reads.Load() == before {
			t.Errorf("once the refusal lifted the store was not asked")
		}
	})
}

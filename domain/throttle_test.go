package domain_test

import (
	"testing"
	"time"

	"payline/domain"
)

func TestThrottleRule(t *testing.T) {
	rule := domain.ThrottleRule{Burst: 5, Every: time.Minute}
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	// fail counts n failures at t0 from nothing.
	fail := func(n int) time.Time {
		free := time.Time{}
		for range n {
			free = rule.After(free, t0)
		}
		return free
	}
	for _, c := range []struct {
		name     string
		failures int
		at       time.Duration // after t0
		wait     time.Duration
	}{
		{"nothing failed", 0, 0, 0},
		{"four failures leave one to spare", 4, 0, 0},
		{"the fifth leaves none for a minute", 5, 0, time.Minute},
		{"more failures than the burst wait no longer than one", 9, 0, time.Minute},
		{"a minute forgives one", 5, time.Minute, 0},
		{"half a minute does not", 5, 30 * time.Second, 30 * time.Second},
		{"the window forgives them all", 5, rule.Window(), 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := rule.Wait(fail(c.failures), t0.Add(c.at)); got != c.wait {
				t.Errorf("Wait = %s, want %s", got, c.wait)
			}
		})
	}
	// A failure after all was forgiven counts from now, not from the past.
	if got, want := rule.After(t0, t0.Add(time.Hour)), t0.Add(time.Hour+time.Minute); !got.Equal(want) {
		t.Errorf("After a forgiven key = %s, want %s", got, want)
	}
}

func TestThrottleKeyHidesWhatWasTyped(t *testing.T) {
	k := domain.ThrottleKey("email", "ada@acme.test")
	if k == domain.ThrottleKey("addr", "ada@acme.test") || k != domain.ThrottleKey("email", "ada@acme.test") {
		t.Error("keys of different kinds collide, or one value has two keys")
	}
	if len(k) != len("email:")+32 || k[:6] != "email:" {
		t.Errorf("key %q is not the kind and a hash", k)
	}
}

func TestBackoff(t *testing.T) {
	b := domain.Backoff{Count: domain.ThrottleRule{Burst: 10, Every: time.Minute}, Free: 3, First: time.Second, Cap: 8 * time.Second}
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	fail := func(n int) time.Time {
		free := time.Time{}
		for range n {
			free = b.Count.After(free, t0)
		}
		return free
	}
	for _, c := range []struct {
		name     string
		failures int
		at       time.Duration // after t0
		delay    time.Duration
	}{
		{"nothing failed", 0, 0, 0},
		{"the free failures cost nothing", 3, 0, 0},
		{"one more waits First", 4, 0, time.Second},
		{"each further one doubles it", 6, 0, 4 * time.Second},
		{"up to the cap", 7, 0, 8 * time.Second},
		{"more failures than remembered wait the cap", 50, 0, 8 * time.Second},
		{"a minute forgives one", 6, time.Minute, 2 * time.Second},
		{"part of a minute does not", 6, 59 * time.Second, 4 * time.Second},
		{"the window forgives them all", 50, b.Count.Window(), 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := b.Delay(fail(c.failures), t0.Add(c.at)); got != c.delay {
				t.Errorf("Delay = %s, want %s", got, c.delay)
			}
		})
	}
}

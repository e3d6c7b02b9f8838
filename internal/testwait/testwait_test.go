package testwait

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// recorder is a testing.TB that records a Fatalf instead of ending the test.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	failed string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(format string, args ...any) {
	r.mu.Lock()
	r.failed = fmt.Sprintf(format, args...)
	r.mu.Unlock()
	panic(r)
}

func TestUntilReturnsOnceMet(t *testing.T) {
	calls := 0
	Until(t, time.Second, func() error {
		calls++
		if calls < 3 {
			return errors.New("not yet")
		}
		return nil
	})
	if calls != 3 {
		t.Errorf("check called %d times, want 3", calls)
	}
}

func TestEventuallyFailsWithTheLastState(t *testing.T) {
	r := &recorder{TB: t}
	n := 0
	func() {
		defer func() {
			if recover() != r {
				t.Fatal("Eventually did not fail the test")
			}
		}()
		Eventually(r, 20*time.Millisecond, func() bool { n++; return false }, "seen %d", 7)
	}()
	if n < 2 {
		t.Errorf("cond called %d times, want it polled", n)
	}
	if !strings.Contains(r.failed, "not met within 20ms: seen 7") {
		t.Errorf("failure message %q", r.failed)
	}
}

func TestEveryKeepsItsPace(t *testing.T) {
	var at []time.Time
	Every(20*time.Millisecond).Until(t, time.Second, func() error {
		at = append(at, time.Now())
		if len(at) < 3 {
			return errors.New("not yet")
		}
		return nil
	})
	for i := 1; i < len(at); i++ {
		if gap := at[i].Sub(at[i-1]); gap < 20*time.Millisecond {
			t.Errorf("looked again after %s, want at least 20ms", gap)
		}
	}
}

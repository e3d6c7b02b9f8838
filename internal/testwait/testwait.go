// Package testwait lets a test wait for an observable state instead of
// sleeping for a guessed time: it polls a condition and fails the test with
// a message when the condition is not met in time.
package testwait

import (
	"fmt"
	"testing"
	"time"
)

// Pace is how often a wait looks at its condition.
type Pace struct {
	first, max time.Duration
}

// Backoff starts looking after a millisecond and doubles the interval up to
// 100 ms: a condition met soon costs little, and a slow one is not
// hammered. It suits state a test reads in its own process (a counter, a
// channel, a query on its own database).
var Backoff = Pace{first: time.Millisecond, max: 100 * time.Millisecond}

// Every looks once per interval. A condition read through Payline's API
// needs it: the API runs at its real rate limits, and a poll faster than
// the test's old loop would spend the rate the test's next call needs.
func Every(interval time.Duration) Pace {
	return Pace{first: interval, max: interval}
}

// Until calls check until it returns nil, and fails the test with the last
// error check returned if timeout passes first. The error says what was
// last seen, so a failure reads as the state the test gave up on.
func (p Pace) Until(t testing.TB, timeout time.Duration, check func() error) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	interval := p.first
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("not met within %s: %v", timeout, err)
		}
		time.Sleep(interval) // the poll's pace: this is the one place tests sleep to wait
		interval = min(2*interval, p.max)
	}
}

// Eventually calls cond until it returns true, and fails the test with the
// message format and args make if timeout passes first.
func (p Pace) Eventually(t testing.TB, timeout time.Duration, cond func() bool, format string, args ...any) {
	t.Helper()
	p.Until(t, timeout, func() error {
		if cond() {
			return nil
		}
		return fmt.Errorf(format, args...)
	})
}

// Until is Backoff.Until.
func Until(t testing.TB, timeout time.Duration, check func() error) {
	t.Helper()
	Backoff.Until(t, timeout, check)
}

// Eventually is Backoff.Eventually.
func Eventually(t testing.TB, timeout time.Duration, cond func() bool, format string, args ...any) {
	t.Helper()
	Backoff.Eventually(t, timeout, cond, format, args...)
}

// Package testwait lets a test wait for an observable state instead of
// sleeping for a guessed time: it polls a condition with a short backoff and
// fails the test with a message when the condition is not met in time.
package testwait

import (
	"fmt"
	"testing"
	"time"
)

// Poll intervals: start short so a condition already met, or met soon,
// costs little; grow so a slow condition (an HTTP call, a query) is not
// hammered.
const (
	firstInterval = time.Millisecond
	maxInterval   = 100 * time.Millisecond
)

// Until calls check until it returns nil, and fails the test with the last
// error check returned if timeout passes first. The error says what was
// last seen, so a failure reads as the state the test gave up on.
func Until(t testing.TB, timeout time.Duration, check func() error) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	interval := firstInterval
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("not met within %s: %v", timeout, err)
		}
		time.Sleep(interval) // the poll's backoff: this is the one place tests sleep to wait
		interval = min(2*interval, maxInterval)
	}
}

// Eventually calls cond until it returns true, and fails the test with the
// message format and args make if timeout passes first.
func Eventually(t testing.TB, timeout time.Duration, cond func() bool, format string, args ...any) {
	t.Helper()
	Until(t, timeout, func() error {
		if cond() {
			return nil
		}
		return fmt.Errorf(format, args...)
	})
}

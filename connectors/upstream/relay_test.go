package upstream

import (
	"testing"
	"time"
)

// TestPendingRecheck: a job pending upstream is asked about again after
// half its age, at least a second and at most 30 seconds apart.
func TestPendingRecheck(t *testing.T) {
	start := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for age, want := range map[time.Duration]time.Duration{
		0:                time.Second,
		time.Second:      time.Second,
		6 * time.Second:  3 * time.Second,
		40 * time.Second: 20 * time.Second,
		10 * time.Minute: 30 * time.Second,
	} {
		if got := pendingRecheck(start, start.Add(age)); got != want {
			t.Errorf("a job pending for %s is asked again after %s, want %s", age, got, want)
		}
	}
}

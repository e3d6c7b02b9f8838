package domain

import (
	"testing"
	"time"
)

// TestBudgetBucket: a shared bucket gives its burst, then a slot each
// 1/rate; a 429 pauses every taker and halves the rate once per burst;
// the rate grows back by half a second after the pause.
func TestBudgetBucket(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	var b BudgetBucket
	var wait time.Duration
	for i := range 4 {
		if b, wait = b.Take(t0, 8, 4); wait != 0 {
			t.Fatalf("slot %d of the burst of 4 waited %v", i+1, wait)
		}
	}
	if b, wait = b.Take(t0, 8, 4); wait != 125*time.Millisecond {
		t.Fatalf("the fifth slot waits %v, want 1/8 s", wait)
	}
	if _, wait = b.Take(t0.Add(125*time.Millisecond), 8, 4); wait != 0 {
		t.Fatalf("a slot 1/8 s later waited %v", wait)
	}

	// Three 429s in one burst: one cut, to 4 a second, paused 2 s.
	now := t0.Add(time.Second)
	b = b.Limited(now, now.Add(2*time.Second), 8)
	b = b.Limited(now.Add(100*time.Millisecond), now.Add(2*time.Second), 8)
	b = b.Limited(now.Add(900*time.Millisecond), now.Add(2*time.Second), 8)
	if b.CutRate != 4 {
		t.Fatalf("three 429s in one burst cut the rate to %v, want 4 (one halving)", b.CutRate)
	}
	if _, wait = b.Take(now.Add(time.Second), 8, 4); wait != time.Second {
		t.Fatalf("during the pause a taker waits %v, want the 1 s left of it", wait)
	}
	for _, c := range []struct {
		after time.Duration
		want  float64
	}{{2 * time.Second, 4}, {3 * time.Second, 6}, {4 * time.Second, 8}, {10 * time.Second, 8}} {
		if got := b.Rate(now.Add(c.after), 8); got != c.want {
			t.Errorf("rate %v after the 429: %v, want %v", c.after, got, c.want)
		}
	}
	// A second burst later halves again, from the rate of that moment.
	later := now.Add(3 * time.Second)
	if b2 := b.Limited(later, later.Add(time.Second), 8); b2.CutRate != 3 {
		t.Errorf("a later burst cut to %v, want half of 6", b2.CutRate)
	}
	// Never below the floor.
	low := BudgetBucket{CutRate: MinBudgetRate, CutAt: t0, PausedUntil: t0.Add(time.Hour)}
	if got := low.Limited(t0.Add(2*time.Second), t0.Add(3*time.Second), 8); got.CutRate != MinBudgetRate {
		t.Errorf("a cut below the floor: %v", got.CutRate)
	}
}

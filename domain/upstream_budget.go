package domain

import (
	"context"
	"math"
	"time"
)

// UpstreamBudgets keeps the request budgets several instances relaying to
// one upstream share (issue 47): one bucket of request slots per
// upstream, so N instances together send what one would, and one pause
// after a 429 that every instance honours. Implemented in Redis when the
// instances share one, else in their database.
type UpstreamBudgets interface {
	// Take spends one request slot of the upstream named name (at most
	// maxRate a second, burst at once): 0 when taken, else how long until
	// one may be.
	Take(ctx context.Context, name string, now time.Time, maxRate, burst float64) (time.Duration, error)
	// Limited shares a 429 from the upstream: no instance sends before
	// until, and the rate is cut as BudgetBucket.Limited says.
	Limited(ctx context.Context, name string, now, until time.Time, maxRate float64) error
}

// BudgetBucket is an upstream's shared request budget: a token bucket
// refilled at the upstream's rate, a pause the upstream asked for, and
// the cut its 429s made. Its rules are here, once, for every store.
type BudgetBucket struct {
	Tokens      float64   `json:"tokens"`
	At          time.Time `json:"at"`           // when Tokens was counted
	PausedUntil time.Time `json:"paused_until"` // no request before this
	CutRate     float64   `json:"cut_rate"`     // the rate a 429 cut to; 0 when none did
	CutAt       time.Time `json:"cut_at"`       // when it did
}

// Budget rules shared by every instance: the slowest a cut goes
// (MinBudgetRate requests a second), the window within which 429s are one
// burst (one cut), and the recovery: the rate grows by half for each
// second of no 429 after the pause.
const (
	MinBudgetRate     = 0.5
	BudgetBurstWindow = time.Second
	budgetRecoverStep = time.Second
)

// Rate is the requests a second the bucket allows at now: maxRate, or
// after a cut the cut rate grown by half each second since the pause
// ended.
func (b BudgetBucket) Rate(now time.Time, maxRate float64) float64 {
	if b.CutRate <= 0 || b.CutRate >= maxRate {
		return maxRate
	}
	if !now.After(b.PausedUntil) {
		return b.CutRate
	}
	steps := math.Floor(float64(now.Sub(b.PausedUntil)) / float64(budgetRecoverStep))
	return min(maxRate, b.CutRate*math.Pow(1.5, steps))
}

// refill counts the slots earned since At.
func (b *BudgetBucket) refill(now time.Time, maxRate, burst float64) {
	if b.At.IsZero() {
		b.Tokens, b.At = burst, now
		return
	}
	if now.After(b.At) {
		b.Tokens = min(burst, b.Tokens+now.Sub(b.At).Seconds()*b.Rate(now, maxRate))
		b.At = now
	}
}

// Take spends a slot at now: the bucket after, and 0 when one was taken,
// else how long until one may be.
func (b BudgetBucket) Take(now time.Time, maxRate, burst float64) (BudgetBucket, time.Duration) {
	b.refill(now, maxRate, burst)
	if now.Before(b.PausedUntil) {
		return b, b.PausedUntil.Sub(now)
	}
	if b.Tokens >= 1 {
		b.Tokens--
		return b, 0
	}
	wait := time.Duration((1 - b.Tokens) / b.Rate(now, maxRate) * float64(time.Second))
	return b, max(wait, time.Millisecond)
}

// Limited learns a 429 at now: nothing is sent before until, the slots
// saved are gone, and the first 429 of a burst halves the rate (those
// within BudgetBurstWindow of it were on their way already).
func (b BudgetBucket) Limited(now, until time.Time, maxRate float64) BudgetBucket {
	b.refill(now, maxRate, 0)
	b.Tokens = 0
	if b.CutAt.IsZero() || now.Sub(b.CutAt) >= BudgetBurstWindow {
		b.CutRate, b.CutAt = max(MinBudgetRate, b.Rate(now, maxRate)/2), now
	}
	if until.After(b.PausedUntil) {
		b.PausedUntil = until
	}
	return b
}

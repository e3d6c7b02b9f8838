package domain

import (
	"context"
	"time"
)

// RetentionPolicy is how long records that only grow are kept: events,
// webhook delivery attempts, and verification reports' superseded PDFs.
// Zero keeps a kind forever. A report's current PDF, and every document's
// PDF, stay as long as their report or document does.
type RetentionPolicy struct {
	Events         time.Duration
	Deliveries     time.Duration
	ReportVersions time.Duration
}

// DefaultRetention keeps events 90 days (far beyond the 15 minutes of
// delivery retries and the 24 hours a pending job waits), delivery
// attempts 30 days, and superseded report PDFs 30 days.
var DefaultRetention = RetentionPolicy{Events: 90 * 24 * time.Hour, Deliveries: 30 * 24 * time.Hour, ReportVersions: ReportRetention}

// ReportRetention is how long a report's earlier versions stay
// retrievable by default: 25 months, so a version an underwriter cited
// can be fetched for a loan's usual look-back and audit.
const ReportRetention = 761 * 24 * time.Hour

// Pruned counts what one retention pass deleted.
type Pruned struct {
	Events, Deliveries, ReportVersions int
}

// RetentionStore deletes what a policy no longer keeps: rows created
// before each cutoff (a zero cutoff deletes none of that kind).
type RetentionStore interface {
	Prune(ctx context.Context, eventsBefore, deliveriesBefore, reportVersionsBefore time.Time) (Pruned, error)
}

// Prune applies the policy as of now.
func (p RetentionPolicy) Prune(ctx context.Context, store RetentionStore, now time.Time) (Pruned, error) {
	cutoff := func(d time.Duration) time.Time {
		if d <= 0 {
			return time.Time{}
		}
		return now.Add(-d)
	}
	return store.Prune(ctx, cutoff(p.Events), cutoff(p.Deliveries), cutoff(p.ReportVersions))
}

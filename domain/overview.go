package domain

import (
	"context"
	"time"
)

// Overview is the dashboard's first page: how a tenant's integration is
// doing over the last days.
type Overview struct {
	AccountsConnected int
	// Days are the last days (UTC), oldest first, with the jobs that
	// completed on each by outcome.
	Days []JobDay
	// Deliveries counts webhook delivery attempts over the same days by
	// outcome (delivered, retrying, failed, skipped).
	Deliveries map[string]int
}

// JobDay is one day's completed jobs by outcome.
type JobDay struct {
	Date    string
	Success int
	Pending int
	Error   int
}

// DeliverySuccessRate is the share of delivery attempts that were
// delivered, nil when there were none (skipped attempts do not count).
func (o Overview) DeliverySuccessRate() *float64 {
	total := o.Deliveries[DeliveryDelivered] + o.Deliveries[DeliveryRetrying] + o.Deliveries[DeliveryFailed]
	if total == 0 {
		return nil
	}
	r := float64(o.Deliveries[DeliveryDelivered]) / float64(total)
	return &r
}

// OverviewData is what the store reads for an overview, counted in the
// database (a tenant's 90 days of jobs are never loaded to be counted).
type OverviewData struct {
	AccountsConnected int
	// JobCounts are the jobs completed since the start, counted by UTC
	// day and outcome.
	JobCounts  []JobCount
	Deliveries map[string]int
}

// JobCount is how many jobs completed on a day (YYYY-MM-DD, UTC) with an
// outcome.
type JobCount struct {
	Day     string `db:"day"`
	Outcome string `db:"outcome"`
	N       int    `db:"n"`
}

// MaxOverviewDays bounds an overview's window.
const MaxOverviewDays = 90

// Overview summarises the scope's last days (1 to MaxOverviewDays).
func (s *OverviewService) Overview(ctx context.Context, sc Scope, days int) (Overview, error) {
	if days < 1 || days > MaxOverviewDays {
		return Overview{}, Errorf(KindInvalid, CodeInvalidFields, "days must be 1 to %d", MaxOverviewDays)
	}
	now := s.clock.Now().UTC()
	start := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC).AddDate(0, 0, -(days - 1))
	data, err := s.tx.Accounts().Overview(ctx, sc, start)
	if err != nil {
		return Overview{}, err
	}
	o := Overview{AccountsConnected: data.AccountsConnected, Deliveries: data.Deliveries, Days: make([]JobDay, days)}
	for i := range o.Days {
		o.Days[i].Date = start.AddDate(0, 0, i).Format(time.DateOnly)
	}
	index := make(map[string]int, days)
	for i := range o.Days {
		index[o.Days[i].Date] = i
	}
	for _, c := range data.JobCounts {
		i, ok := index[c.Day]
		if !ok {
			continue
		}
		switch Outcome(c.Outcome) {
		case OutcomeSuccess:
			o.Days[i].Success += c.N
		case OutcomePending:
			o.Days[i].Pending += c.N
		case OutcomeError:
			o.Days[i].Error += c.N
		}
	}
	return o, nil
}

package domain

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

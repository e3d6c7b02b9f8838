package storage

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"

	"payline/domain"
)

// Overview reads what the dashboard's overview counts: three statements,
// each on an index of its table's tenant columns.
func (s stores) Overview(ctx context.Context, sc domain.Scope, since time.Time) (domain.OverviewData, error) {
	d := domain.OverviewData{Deliveries: map[string]int{}}
	err := sqlx.GetContext(ctx, s.q, &d.AccountsConnected, s.q.Rebind(`SELECT COUNT(*) FROM accounts
		WHERE customer_id = ? AND mode = ? AND connected`), sc.CustomerID, string(sc.Mode))
	if err != nil {
		return d, translate(err)
	}
	day := `date(completed_at)` // SQLite's date() reads the stored offset and answers the UTC day
	if s.q.DriverName() == "postgres" {
		day = `to_char(completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`
	}
	err = sqlx.SelectContext(ctx, s.q, &d.JobCounts, s.q.Rebind(`SELECT `+day+` AS day, outcome, COUNT(*) AS n FROM jobs
		WHERE customer_id = ? AND mode = ? AND completed_at >= ? AND outcome IS NOT NULL GROUP BY 1, 2`), sc.CustomerID, string(sc.Mode), since)
	if err != nil {
		return d, translate(err)
	}
	var rows []struct {
		Outcome string `db:"outcome"`
		N       int    `db:"n"`
	}
	err = sqlx.SelectContext(ctx, s.q, &rows, s.q.Rebind(`SELECT outcome, COUNT(*) AS n FROM webhook_deliveries
		WHERE customer_id = ? AND mode = ? AND created_at >= ? GROUP BY outcome`), sc.CustomerID, string(sc.Mode), since)
	for _, r := range rows {
		d.Deliveries[r.Outcome] = r.N
	}
	return d, translate(err)
}

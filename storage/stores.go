package storage

import (
	"database/sql"
	"encoding/json"
	"time"

	"github.com/jmoiron/sqlx"

	"payline/domain"
)

// stores runs the queries of the tenant-owned Link tables on q, the
// database or a transaction. Events written go to feed; inside a
// transaction on SQLite they wait in pending for the commit.
type stores struct {
	q       sqlx.ExtContext
	feed    *Feed
	pending *[]published
	seal    *sealer
}

func (s stores) LinkTokens() domain.LinkTokenStore { return s }

func (s stores) Accounts() domain.AccountStore { return s }

func (s stores) Jobs() domain.JobStore { return s }

func (s stores) Events() domain.EventStore { return s }

func (s stores) Webhooks() domain.WebhookStore { return s }

func (s stores) Data() domain.DataStore { return s }

func (s stores) Audit() domain.AuditStore { return s }

// expectOne turns an update that touched no row into domain.ErrNoRows.
func expectOne(res sql.Result, err error) error {
	if err != nil {
		return translate(err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return domain.ErrNoRows
	}
	return nil
}

func jsonText(v any) string {
	b, _ := json.Marshal(v) // the domain values stored as JSON always marshal
	return string(b)
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

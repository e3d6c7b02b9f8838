package storage

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"

	"payline/domain"
)

// consentRow is a row of consents.
type consentRow struct {
	AccountID   string    `db:"account_id"`
	CustomerID  string    `db:"customer_id"`
	GivenAt     time.Time `db:"given_at"`
	TextVersion string    `db:"text_version"`
}

// PutConsent records an account's consent unless one is recorded: the
// first consent given for an account is the one its data was shared under.
func (s stores) PutConsent(ctx context.Context, sc domain.Scope, c domain.Consent) error {
	_, err := s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO consents (account_id, customer_id, mode, given_at, text_version)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT (account_id) DO NOTHING`),
		c.AccountID, sc.CustomerID, string(sc.Mode), c.GivenAt.UTC(), c.TextVersion)
	return translate(err)
}

// Consents returns the consents of the scope's accounts among ids, in one
// query, by account id; accounts without one are absent.
func (s stores) Consents(ctx context.Context, sc domain.Scope, accountIDs []string) (map[string]domain.Consent, error) {
	out := map[string]domain.Consent{}
	if len(accountIDs) == 0 {
		return out, nil
	}
	q := sqlBuilder{}
	q.where("customer_id = ? AND mode = ?", sc.CustomerID, string(sc.Mode))
	if err := byIDs(&q, "account_id", accountIDs); err != nil {
		return nil, err
	}
	var rows []consentRow
	if err := sqlx.SelectContext(ctx, s.q, &rows, s.q.Rebind(`SELECT account_id, customer_id, given_at, text_version FROM consents`+q.clause()),
		q.args...); err != nil {
		return nil, translate(err)
	}
	for _, r := range rows {
		out[r.AccountID] = domain.Consent{AccountID: r.AccountID, CustomerID: r.CustomerID, GivenAt: r.GivenAt.UTC(), TextVersion: r.TextVersion}
	}
	return out, nil
}

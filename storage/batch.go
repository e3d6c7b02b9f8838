package storage

import (
	"context"
	"slices"

	"github.com/jmoiron/sqlx"

	"payline/domain"
)

// The batch reads behind GraphQL's dataloaders: each answers for many
// parents (accounts, end users, webhooks) in one statement.

func (s stores) AccountsByID(ctx context.Context, sc domain.Scope, ids []string) ([]domain.Account, error) {
	return selectByIDs(ctx, s, sc, "accounts", accountColumns, ids, s.account)
}

func (s stores) AccountsOfEndUsers(ctx context.Context, sc domain.Scope, endUserIDs []string, p domain.PageRequest) (map[string]domain.Page[domain.Account], error) {
	q := sqlBuilder{}
	q.where("customer_id = ? AND mode = ?", sc.CustomerID, string(sc.Mode))
	return selectPagesBy(ctx, s.q, accountsNewest, "accounts", accountColumns, "end_user_id", endUserIDs, q, p, s.account,
		func(a domain.Account) string { return a.EndUserID })
}

func (s stores) FindEndUsers(ctx context.Context, sc domain.Scope, p domain.PageRequest) (domain.Page[domain.EndUser], error) {
	cond, args := "", []any(nil)
	if p.Cursor != nil {
		op := " > "
		if p.Backward {
			op = " < "
		}
		cond, args = "end_user_id"+op+"?", []any{p.Cursor.Key}
	}
	order := " ORDER BY end_user_id LIMIT ?" // end_user_id is the whole key: grouped rows have no id
	if p.Backward {
		order = " ORDER BY end_user_id DESC LIMIT ?"
	}
	users, err := s.endUsers(ctx, sc, cond, args, order, p.Limit+1)
	if err != nil {
		return domain.Page[domain.EndUser]{}, err
	}
	return endUsersByID.page(users, p), nil
}

func (s stores) EndUsersByID(ctx context.Context, sc domain.Scope, ids []string) ([]domain.EndUser, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	cond, args, err := sqlx.In("end_user_id IN (?)", ids)
	if err != nil {
		return nil, err
	}
	return s.endUsers(ctx, sc, cond, args, "")
}

// endUsers reads the scope's end users that meet cond (on end_user_id,
// with args), then tail (an ORDER BY and LIMIT, with tailArgs): each is
// grouped from their accounts or, for one with no account who uploaded
// documents in Link, from those documents (no accounts, first seen at the
// first upload), as domain.EndUserService.EndUser reads one.
func (s stores) endUsers(ctx context.Context, sc domain.Scope, cond string, args []any, tail string, tailArgs ...any) ([]domain.EndUser, error) {
	if cond != "" {
		cond = " AND " + cond
	}
	query := `SELECT end_user_id, MIN(created_at) AS first_connected, COUNT(*) AS accounts
		FROM accounts WHERE customer_id = ? AND mode = ?` + cond + ` GROUP BY end_user_id
		UNION ALL
		SELECT end_user_id, MIN(created_at), 0 FROM account_records r
		WHERE customer_id = ? AND mode = ? AND kind = ?` + cond + ` AND NOT EXISTS (SELECT 1 FROM accounts a
			WHERE a.customer_id = r.customer_id AND a.mode = r.mode AND a.end_user_id = r.end_user_id)
		GROUP BY end_user_id` + tail
	all := append([]any{sc.CustomerID, string(sc.Mode)}, args...)
	all = append(all, sc.CustomerID, string(sc.Mode), domain.RecordDocument)
	all = append(append(all, args...), tailArgs...)
	var rows []struct {
		ID    string        `db:"end_user_id"`
		First aggregateTime `db:"first_connected"`
		Count int           `db:"accounts"`
	}
	if err := sqlx.SelectContext(ctx, s.q, &rows, s.q.Rebind(query), all...); err != nil {
		return nil, translate(err)
	}
	users := make([]domain.EndUser, len(rows))
	for i, r := range rows {
		users[i] = domain.EndUser{ID: r.ID, FirstConnected: r.First.UTC(), Accounts: r.Count}
	}
	return users, nil
}

func (s stores) PaystubsByID(ctx context.Context, sc domain.Scope, ids []string) ([]domain.Paystub, error) {
	return selectByIDs(ctx, s, sc, "paystubs", "id, body", ids, s.paystub)
}

func (s stores) WebhooksByID(ctx context.Context, sc domain.Scope, ids []string) ([]domain.Webhook, error) {
	return selectByIDs(ctx, s, sc, "webhooks", webhookColumns, ids, webhookRow.domain)
}

func (s stores) RecordsByID(ctx context.Context, sc domain.Scope, kind string, ids []string) ([]domain.Record, error) {
	found, err := selectByIDs(ctx, s, sc, "account_records", recordColumns, ids, s.record)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(found, func(r domain.Record) bool { return r.Kind != kind }), nil
}

func (s stores) JobsByID(ctx context.Context, sc domain.Scope, ids []string) ([]domain.Job, error) {
	return selectByIDs(ctx, s, sc, "jobs", jobColumns, ids, jobRow.domain)
}

func (s stores) JobsOfAccounts(ctx context.Context, sc domain.Scope, accountIDs []string, f domain.JobFilter, p domain.PageRequest) (map[string]domain.Page[domain.Job], error) {
	q, order, err := jobQuery(sc, f)
	if err != nil {
		return nil, err
	}
	return selectPagesBy(ctx, s.q, order, "jobs", jobColumns, "account_id", accountIDs, q, p, jobRow.domain,
		func(j domain.Job) string { return j.AccountID })
}

func (s stores) ProductsOfAccounts(ctx context.Context, sc domain.Scope, accountIDs []string, product string) (map[string]domain.StoredProduct, error) {
	out := map[string]domain.StoredProduct{}
	if len(accountIDs) == 0 {
		return out, nil
	}
	q := sqlBuilder{}
	q.where("customer_id = ? AND mode = ? AND product = ?", sc.CustomerID, string(sc.Mode), product)
	if err := byIDs(&q, "account_id", accountIDs); err != nil {
		return nil, err
	}
	var rows []productRow
	if err := sqlx.SelectContext(ctx, s.q, &rows, s.q.Rebind(`SELECT account_id, product, id, created_at, updated_at, body FROM account_products`+q.clause()), q.args...); err != nil {
		return nil, translate(err)
	}
	for _, r := range rows {
		p, err := s.product(r)
		if err != nil {
			return nil, err
		}
		out[r.AccountID] = p
	}
	return out, nil
}

func (s stores) PaystubsOfAccounts(ctx context.Context, sc domain.Scope, accountIDs []string, from string, p domain.PageRequest) (map[string]domain.Page[domain.Paystub], error) {
	q := sqlBuilder{}
	q.where("customer_id = ? AND mode = ?", sc.CustomerID, string(sc.Mode))
	if from != "" {
		q.where("pay_date >= ?", from)
	}
	return selectPagesBy(ctx, s.q, paystubsNewest, "paystubs", "account_id, body, pay_date, id", "account_id", accountIDs, q, p,
		func(r paystubWithKeys) (domain.Paystub, error) { return s.paystub(paystubRow{ID: r.ID, Body: r.Body}) },
		func(s domain.Paystub) string { return s.AccountID })
}

// paystubWithKeys carries the columns the window query orders by.
type paystubWithKeys struct {
	AccountID string `db:"account_id"`
	Body      []byte `db:"body"`
	PayDate   string `db:"pay_date"`
	ID        string `db:"id"`
}

func (s stores) PaystubByID(ctx context.Context, sc domain.Scope, id string) (domain.Paystub, error) {
	var r paystubRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT id, body FROM paystubs WHERE id = ? AND customer_id = ? AND mode = ?`),
		id, sc.CustomerID, string(sc.Mode)); err != nil {
		return domain.Paystub{}, translate(err)
	}
	return s.paystub(r)
}

func (s stores) LinkTokensByID(ctx context.Context, sc domain.Scope, ids []string) ([]domain.LinkToken, error) {
	return selectByIDs(ctx, s, sc, "link_tokens", linkTokenColumns, ids, linkTokenRow.domain)
}

func (s stores) DeliveriesOfWebhooks(ctx context.Context, sc domain.Scope, webhookIDs []string, p domain.PageRequest) (map[string]domain.Page[domain.Delivery], error) {
	q := sqlBuilder{}
	q.where("customer_id = ? AND mode = ?", sc.CustomerID, string(sc.Mode))
	return selectPagesBy(ctx, s.q, deliveriesNewest, "webhook_deliveries", deliveryColumns, "webhook_id", webhookIDs, q, p,
		s.delivery, func(d domain.Delivery) string { return d.WebhookID })
}

// selectByIDs reads the scope's rows of table with the given ids, in one
// statement, and converts them; ids it lacks are simply absent.
func selectByIDs[R, T any](ctx context.Context, s stores, sc domain.Scope, table, columns string, ids []string, conv func(R) (T, error)) ([]T, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	q := sqlBuilder{}
	q.where("customer_id = ? AND mode = ?", sc.CustomerID, string(sc.Mode))
	if err := byIDs(&q, "id", ids); err != nil {
		return nil, err
	}
	var rows []R
	if err := sqlx.SelectContext(ctx, s.q, &rows, s.q.Rebind(`SELECT `+columns+` FROM `+table+q.clause()), q.args...); err != nil {
		return nil, translate(err)
	}
	return convertAll(rows, conv)
}

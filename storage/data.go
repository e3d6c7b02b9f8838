package storage

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"

	"payline/domain"
)

func (s stores) PutProduct(ctx context.Context, sc domain.Scope, accountID, product string, body any, now time.Time) (bool, error) {
	b := jsonText(body)
	cur, err := s.Product(ctx, sc, accountID, product)
	switch {
	case errors.Is(err, domain.ErrNoRows):
		_, err = s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO account_products (account_id, product, customer_id, mode, id, created_at, updated_at, body)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`), accountID, product, sc.CustomerID, string(sc.Mode), domain.NewID(), now, now, b)
		return true, translate(err)
	case err != nil:
		return false, err
	case string(cur.Body) == b:
		return false, nil
	}
	_, err = s.q.ExecContext(ctx, s.q.Rebind(`UPDATE account_products SET body = ?, updated_at = ?
		WHERE account_id = ? AND product = ? AND customer_id = ? AND mode = ?`), b, now, accountID, product, sc.CustomerID, string(sc.Mode))
	return true, translate(err)
}

func (s stores) Product(ctx context.Context, sc domain.Scope, accountID, product string) (domain.StoredProduct, error) {
	var r struct {
		ID        string    `db:"id"`
		CreatedAt time.Time `db:"created_at"`
		UpdatedAt time.Time `db:"updated_at"`
		Body      string    `db:"body"`
	}
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT id, created_at, updated_at, body FROM account_products
		WHERE account_id = ? AND product = ? AND customer_id = ? AND mode = ?`), accountID, product, sc.CustomerID, string(sc.Mode)); err != nil {
		return domain.StoredProduct{}, translate(err)
	}
	return domain.StoredProduct{ID: r.ID, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(), Body: json.RawMessage(r.Body)}, nil
}

func (s stores) PutPaystubs(ctx context.Context, sc domain.Scope, accountID string, stubs []domain.Paystub) (int, error) {
	added := 0
	for _, p := range stubs {
		n, err := insertIfNew(ctx, s.q, `INSERT INTO paystubs (id, customer_id, mode, account_id, pay_date, created_at, body)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
			p.ID, sc.CustomerID, string(sc.Mode), accountID, p.PayDate, p.CreatedAt, jsonText(p))
		if err != nil {
			return added, err
		}
		added += n
	}
	return added, nil
}

func (s stores) FindPaystubs(ctx context.Context, sc domain.Scope, accountID, from string, p domain.PageRequest) (domain.Page[domain.Paystub], error) {
	q := sqlBuilder{}
	q.where("customer_id = ? AND mode = ? AND account_id = ?", sc.CustomerID, string(sc.Mode), accountID)
	if from != "" {
		q.where("pay_date >= ?", from)
	}
	return selectPage(ctx, s.q, paystubsNewest, `SELECT body FROM paystubs`, q, p, parsePaystub)
}

// parsePaystub reads a stored paystub body.
func parsePaystub(body string) (domain.Paystub, error) {
	var p domain.Paystub
	err := json.Unmarshal([]byte(body), &p)
	return p, err
}

func (s stores) Paystub(ctx context.Context, sc domain.Scope, accountID, id string) (domain.Paystub, error) {
	var body string
	if err := sqlx.GetContext(ctx, s.q, &body, s.q.Rebind(`SELECT body FROM paystubs WHERE id = ? AND account_id = ? AND customer_id = ? AND mode = ?`),
		id, accountID, sc.CustomerID, string(sc.Mode)); err != nil {
		return domain.Paystub{}, translate(err)
	}
	return parsePaystub(body)
}

func (s stores) LatestPayDate(ctx context.Context, sc domain.Scope, accountID string) (string, error) {
	var d *string
	err := sqlx.GetContext(ctx, s.q, &d, s.q.Rebind(`SELECT MAX(pay_date) FROM paystubs WHERE customer_id = ? AND mode = ? AND account_id = ?`),
		sc.CustomerID, string(sc.Mode), accountID)
	if d == nil {
		return "", translate(err)
	}
	return *d, translate(err)
}

func (s stores) MonitoredAccounts(ctx context.Context, limit int, afterID string) ([]domain.Account, error) {
	var rows []accountRow
	if err := sqlx.SelectContext(ctx, s.q, &rows, s.q.Rebind(`SELECT `+accountColumns+` FROM accounts
		WHERE connected = ? AND monitoring_status = ? AND id > ? ORDER BY id LIMIT ?`),
		true, string(domain.MonitoringActive), afterID, limit); err != nil {
		return nil, translate(err)
	}
	return convertAll(rows, accountRow.domain)
}

package storage

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"payline/domain"
)

func (s stores) PutProduct(ctx context.Context, sc domain.Scope, accountID, product string, data domain.ProductData, now time.Time) (bool, error) {
	plain, err := encodeProduct(product, data)
	if err != nil {
		return false, err
	}
	b := string(plain)
	cur, err := s.storedProduct(ctx, sc, accountID, product)
	if err == nil && string(cur) == b {
		return false, nil
	}
	if err != nil && !errors.Is(err, domain.ErrNoRows) {
		return false, err
	}
	sealed, serr := s.seal.seal([]byte(b), "account_products", accountID, product)
	if serr != nil {
		return false, serr
	}
	// A source that keeps the record (an upstream) gave its id and times:
	// they are the record's, so a relay answers as its upstream does.
	o := data.Origin
	updated := cmp.Or(o.UpdatedAt, now)
	if err != nil { // no such row yet
		_, err = s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO account_products (account_id, product, customer_id, mode, id, created_at, updated_at, body)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`), accountID, product, sc.CustomerID, string(sc.Mode), cmp.Or(o.ID, domain.NewID()), cmp.Or(o.CreatedAt, now).UTC(), updated.UTC(), sealed)
		return true, translate(err)
	}
	_, err = s.q.ExecContext(ctx, s.q.Rebind(`UPDATE account_products SET body = ?, updated_at = ?
		WHERE account_id = ? AND product = ? AND customer_id = ? AND mode = ?`), sealed, updated.UTC(), accountID, product, sc.CustomerID, string(sc.Mode))
	return true, translate(err)
}

// storedProduct is a product's stored JSON, unsealed.
func (s stores) storedProduct(ctx context.Context, sc domain.Scope, accountID, product string) ([]byte, error) {
	var r productRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT account_id, product, id, created_at, updated_at, body FROM account_products
		WHERE account_id = ? AND product = ? AND customer_id = ? AND mode = ?`), accountID, product, sc.CustomerID, string(sc.Mode)); err != nil {
		return nil, translate(err)
	}
	return s.seal.open(r.Body, "account_products", r.AccountID, r.Product)
}

func (s stores) Product(ctx context.Context, sc domain.Scope, accountID, product string) (domain.StoredProduct, error) {
	var r productRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT account_id, product, id, created_at, updated_at, body FROM account_products
		WHERE account_id = ? AND product = ? AND customer_id = ? AND mode = ?`), accountID, product, sc.CustomerID, string(sc.Mode)); err != nil {
		return domain.StoredProduct{}, translate(err)
	}
	return s.product(r)
}

type productRow struct {
	AccountID string    `db:"account_id"`
	Product   string    `db:"product"`
	ID        string    `db:"id"`
	CreatedAt time.Time `db:"created_at"`
	UpdatedAt time.Time `db:"updated_at"`
	Body      []byte    `db:"body"`
}

func (s stores) product(r productRow) (domain.StoredProduct, error) {
	body, err := s.seal.open(r.Body, "account_products", r.AccountID, r.Product)
	if err != nil {
		return domain.StoredProduct{}, err
	}
	data, err := decodeProduct(r.Product, body)
	if err != nil {
		return domain.StoredProduct{}, fmt.Errorf("%s of account %s: %w", r.Product, r.AccountID, err)
	}
	return domain.StoredProduct{ID: r.ID, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(), ProductData: data}, nil
}

func (s stores) PutPaystubs(ctx context.Context, sc domain.Scope, accountID string, stubs []domain.Paystub) (int, error) {
	added := 0
	for _, p := range stubs {
		plain, err := domain.EncodePaystub(p)
		if err != nil {
			return added, err
		}
		body, err := s.seal.seal(plain, "paystubs", p.ID)
		if err != nil {
			return added, err
		}
		n, err := insertIfNew(ctx, s.q, `INSERT INTO paystubs (id, customer_id, mode, account_id, pay_date, created_at, body)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
			p.ID, sc.CustomerID, string(sc.Mode), accountID, p.PayDate.String(), p.CreatedAt, body)
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
	return selectPage(ctx, s.q, paystubsNewest, `SELECT id, body FROM paystubs`, q, p, s.paystub)
}

// paystubRow is a stored paystub: its id, which its sealed body is bound
// to, and the body.
type paystubRow struct {
	ID   string `db:"id"`
	Body []byte `db:"body"`
}

// paystub opens and reads a stored paystub.
func (s stores) paystub(r paystubRow) (domain.Paystub, error) {
	body, err := s.seal.open(r.Body, "paystubs", r.ID)
	if err != nil {
		return domain.Paystub{}, err
	}
	return domain.DecodePaystub(body)
}

func (s stores) Paystub(ctx context.Context, sc domain.Scope, accountID, id string) (domain.Paystub, error) {
	var r paystubRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT id, body FROM paystubs WHERE id = ? AND account_id = ? AND customer_id = ? AND mode = ?`),
		id, accountID, sc.CustomerID, string(sc.Mode)); err != nil {
		return domain.Paystub{}, translate(err)
	}
	return s.paystub(r)
}

func (s stores) LatestPayDate(ctx context.Context, sc domain.Scope, accountID string) (domain.Date, error) {
	var d *string
	err := sqlx.GetContext(ctx, s.q, &d, s.q.Rebind(`SELECT MAX(pay_date) FROM paystubs WHERE customer_id = ? AND mode = ? AND account_id = ?`),
		sc.CustomerID, string(sc.Mode), accountID)
	if d == nil {
		return "", translate(err)
	}
	return domain.Date(*d), translate(err)
}

func (s stores) MonitoredAccounts(ctx context.Context, limit int, afterID string) ([]domain.Account, error) {
	var rows []accountRow
	if err := sqlx.SelectContext(ctx, s.q, &rows, s.q.Rebind(`SELECT `+accountColumns+` FROM accounts
		WHERE connected = ? AND monitoring_status = ? AND id > ? ORDER BY id LIMIT ?`),
		true, string(domain.MonitoringActive), afterID, limit); err != nil {
		return nil, translate(err)
	}
	return convertAll(rows, s.account)
}

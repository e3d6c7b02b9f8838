package storage

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"payline/domain"
)

// The person's own page (domain.PortalStore): links and sessions are kept
// only as the hex of their secrets' hashes, the person's address sealed
// and bound to its row.

func (s stores) Portal() domain.PortalStore { return s }

type portalLinkRow struct {
	ID         string     `db:"id"`
	CustomerID string     `db:"customer_id"`
	Mode       string     `db:"mode"`
	EndUserID  string     `db:"end_user_id"`
	CodeHash   string     `db:"code_hash"`
	CreatedAt  time.Time  `db:"created_at"`
	Expires    time.Time  `db:"expires"`
	UsedAt     *time.Time `db:"used_at"`
}

const portalLinkColumns = `id, customer_id, mode, end_user_id, code_hash, created_at, expires, used_at`

func (r portalLinkRow) domain() (domain.PortalLink, error) {
	code, err := hex.DecodeString(r.CodeHash)
	if err != nil {
		return domain.PortalLink{}, fmt.Errorf("portal link %s: stored code_hash is not hex: %w", r.ID, err)
	}
	return domain.PortalLink{ID: r.ID, CustomerID: r.CustomerID, Mode: domain.Mode(r.Mode), EndUserID: r.EndUserID,
		CodeHash: code, CreatedAt: r.CreatedAt.UTC(), Expires: r.Expires.UTC(), UsedAt: utcPtr(r.UsedAt)}, nil
}

func (s stores) CreatePortalLink(ctx context.Context, l domain.PortalLink) error {
	_, err := s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO portal_links (`+portalLinkColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)`),
		l.ID, l.CustomerID, string(l.Mode), l.EndUserID, hex.EncodeToString(l.CodeHash), l.CreatedAt, l.Expires)
	return translate(err)
}

// TakeSendTurn is one conditional upsert: the row is written when it is
// new or its last send is old enough, and not otherwise, so of two
// requests in the same instant one changes it.
func (s stores) TakeSendTurn(ctx context.Context, sc domain.Scope, endUserID, kind string, now time.Time, every time.Duration) (bool, error) {
	res, err := s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO portal_send_turns (customer_id, mode, end_user_id, kind, sent_unix_ns)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT (customer_id, mode, end_user_id, kind) DO UPDATE SET sent_unix_ns = excluded.sent_unix_ns
		WHERE portal_send_turns.sent_unix_ns <= ?`), sc.CustomerID, string(sc.Mode), endUserID, kind, now.UnixNano(), now.Add(-every).UnixNano())
	if err != nil {
		return false, translate(err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func (s stores) PortalLinkByCode(ctx context.Context, codeHash []byte) (domain.PortalLink, error) {
	var r portalLinkRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT `+portalLinkColumns+` FROM portal_links WHERE code_hash = ?`),
		hex.EncodeToString(codeHash)); err != nil {
		return domain.PortalLink{}, translate(err)
	}
	return r.domain()
}

// ClaimPortalLink claims in one conditional UPDATE, so of two requests
// with one code only one changes the row. Expiry is compared in Go, as a
// hand-off's is: SQLite keeps times as text.
func (s stores) ClaimPortalLink(ctx context.Context, codeHash []byte, at time.Time) (domain.PortalLink, error) {
	l, err := s.PortalLinkByCode(ctx, codeHash)
	if err != nil {
		return domain.PortalLink{}, err
	}
	if l.UsedAt != nil || !at.Before(l.Expires) {
		return domain.PortalLink{}, domain.ErrNoRows
	}
	if err := expectOne(s.q.ExecContext(ctx, s.q.Rebind(`UPDATE portal_links SET used_at = ? WHERE id = ? AND used_at IS NULL`),
		at, l.ID)); err != nil {
		return domain.PortalLink{}, err
	}
	u := at.UTC()
	l.UsedAt = &u
	return l, nil
}

type portalSessionRow struct {
	ID         string     `db:"id"`
	CustomerID string     `db:"customer_id"`
	Mode       string     `db:"mode"`
	EndUserID  string     `db:"end_user_id"`
	TokenHash  string     `db:"token_hash"`
	CreatedAt  time.Time  `db:"created_at"`
	Expires    time.Time  `db:"expires"`
	RevokedAt  *time.Time `db:"revoked_at"`
}

const portalSessionColumns = `id, customer_id, mode, end_user_id, token_hash, created_at, expires, revoked_at`

func (s stores) CreatePortalSession(ctx context.Context, p domain.PortalSession) error {
	_, err := s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO portal_sessions (`+portalSessionColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)`),
		p.ID, p.CustomerID, string(p.Mode), p.EndUserID, hex.EncodeToString(p.TokenHash), p.CreatedAt, p.Expires)
	return translate(err)
}

func (s stores) PortalSessionByHash(ctx context.Context, tokenHash []byte) (domain.PortalSession, error) {
	var r portalSessionRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT `+portalSessionColumns+` FROM portal_sessions WHERE token_hash = ?`),
		hex.EncodeToString(tokenHash)); err != nil {
		return domain.PortalSession{}, translate(err)
	}
	h, err := hex.DecodeString(r.TokenHash)
	if err != nil {
		return domain.PortalSession{}, fmt.Errorf("portal session %s: stored token_hash is not hex: %w", r.ID, err)
	}
	return domain.PortalSession{ID: r.ID, CustomerID: r.CustomerID, Mode: domain.Mode(r.Mode), EndUserID: r.EndUserID,
		TokenHash: h, CreatedAt: r.CreatedAt.UTC(), Expires: r.Expires.UTC(), RevokedAt: utcPtr(r.RevokedAt)}, nil
}

func (s stores) EndPortalSession(ctx context.Context, tokenHash []byte, at time.Time) error {
	_, err := s.q.ExecContext(ctx, s.q.Rebind(`UPDATE portal_sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL`),
		at, hex.EncodeToString(tokenHash))
	return translate(err)
}

// portalAddressAD binds a sealed address to its row.
func portalAddressKey(sc domain.Scope, endUserID string) []string {
	return []string{sc.CustomerID, string(sc.Mode), endUserID}
}

func (s stores) PutPortalAddress(ctx context.Context, sc domain.Scope, endUserID, email string, at time.Time) error {
	sealed, err := s.seal.seal([]byte(email), "portal_addresses", portalAddressKey(sc, endUserID)...)
	if err != nil {
		return err
	}
	_, err = s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO portal_addresses (customer_id, mode, end_user_id, sealed_email, updated_at)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT (customer_id, mode, end_user_id) DO UPDATE SET sealed_email = excluded.sealed_email,
		updated_at = excluded.updated_at`), sc.CustomerID, string(sc.Mode), endUserID, sealed, at)
	return translate(err)
}

func (s stores) PortalAddress(ctx context.Context, sc domain.Scope, endUserID string) (string, time.Time, error) {
	var row struct {
		Sealed    []byte    `db:"sealed_email"`
		UpdatedAt time.Time `db:"updated_at"`
	}
	if err := sqlx.GetContext(ctx, s.q, &row, s.q.Rebind(`SELECT sealed_email, updated_at FROM portal_addresses
		WHERE customer_id = ? AND mode = ? AND end_user_id = ?`), sc.CustomerID, string(sc.Mode), endUserID); err != nil {
		return "", time.Time{}, translate(err)
	}
	b, err := s.seal.open(row.Sealed, "portal_addresses", portalAddressKey(sc, endUserID)...)
	return string(b), row.UpdatedAt.UTC(), err
}

type consentRevocationRow struct {
	ID         string    `db:"id"`
	CustomerID string    `db:"customer_id"`
	Mode       string    `db:"mode"`
	EndUserID  string    `db:"end_user_id"`
	AccountID  string    `db:"account_id"`
	RevokedAt  time.Time `db:"revoked_at"`
	SourceTold string    `db:"source_told"`
	Deleted    string    `db:"deleted"`
	Kept       string    `db:"kept"`
	KeptReason string    `db:"kept_reason"`
}

const consentRevocationColumns = `id, customer_id, mode, end_user_id, account_id, revoked_at, source_told, deleted, kept, kept_reason`

func (s stores) PutConsentRevocation(ctx context.Context, sc domain.Scope, r domain.ConsentRevocation) error {
	_, err := s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO consent_revocations (`+consentRevocationColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`), r.ID, sc.CustomerID, string(sc.Mode), r.EndUserID, r.AccountID, r.RevokedAt,
		r.SourceTold, r.Deleted, r.Kept, r.KeptReason)
	return translate(err)
}

func (s stores) ConsentRevocations(ctx context.Context, sc domain.Scope, endUserID string) ([]domain.ConsentRevocation, error) {
	var rows []consentRevocationRow
	if err := sqlx.SelectContext(ctx, s.q, &rows, s.q.Rebind(`SELECT `+consentRevocationColumns+` FROM consent_revocations
		WHERE customer_id = ? AND mode = ? AND end_user_id = ? ORDER BY revoked_at DESC, id DESC`),
		sc.CustomerID, string(sc.Mode), endUserID); err != nil {
		return nil, translate(err)
	}
	out := make([]domain.ConsentRevocation, len(rows))
	for i, r := range rows {
		out[i] = domain.ConsentRevocation{ID: r.ID, CustomerID: r.CustomerID, Mode: domain.Mode(r.Mode), EndUserID: r.EndUserID,
			AccountID: r.AccountID, RevokedAt: r.RevokedAt.UTC(), SourceTold: r.SourceTold, Deleted: r.Deleted, Kept: r.Kept,
			KeptReason: r.KeptReason}
	}
	return out, nil
}

// DeleteAccountData deletes, in the scope, what was read from the
// account: its single-object products, paystubs, and list products.
func (s stores) DeleteAccountData(ctx context.Context, sc domain.Scope, accountID string) (domain.AccountDataDeleted, error) {
	var d domain.AccountDataDeleted
	del := func(table string, n *int) error {
		res, err := s.q.ExecContext(ctx, s.q.Rebind(`DELETE FROM `+table+` WHERE account_id = ? AND customer_id = ? AND mode = ?`),
			accountID, sc.CustomerID, string(sc.Mode))
		if err != nil {
			return translate(err)
		}
		c, err := res.RowsAffected()
		*n = int(c)
		return err
	}
	err := errors.Join(del("account_products", &d.Products), del("paystubs", &d.Paystubs), del("account_records", &d.Records))
	return d, err
}

package storage

import (
	"context"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"payline/domain"
)

// Link hand-offs (domain.LinkHandoff): only the hashes of their code and
// key are stored, as hex like link tokens' hashes.

func (s stores) LinkHandoffs() domain.LinkHandoffStore { return s }

type linkHandoffRow struct {
	ID          string     `db:"id"`
	CustomerID  string     `db:"customer_id"`
	Mode        string     `db:"mode"`
	LinkTokenID string     `db:"link_token_id"`
	CodeHash    string     `db:"code_hash"`
	KeyHash     *string    `db:"key_hash"`
	Screen      string     `db:"screen"`
	PlatformID  string     `db:"platform_id"`
	EmployerID  string     `db:"employer_id"`
	CreatedAt   time.Time  `db:"created_at"`
	Expires     time.Time  `db:"expires"`
	ClaimedAt   *time.Time `db:"claimed_at"`
}

const linkHandoffColumns = `id, customer_id, mode, link_token_id, code_hash, key_hash, screen, platform_id, employer_id,
	created_at, expires, claimed_at`

func (r linkHandoffRow) domain() (domain.LinkHandoff, error) {
	code, err := hex.DecodeString(r.CodeHash)
	if err != nil {
		return domain.LinkHandoff{}, fmt.Errorf("link hand-off %s: stored code_hash is not hex: %w", r.ID, err)
	}
	h := domain.LinkHandoff{ID: r.ID, CustomerID: r.CustomerID, Mode: domain.Mode(r.Mode), LinkTokenID: r.LinkTokenID,
		CodeHash: code, Screen: r.Screen, PlatformID: r.PlatformID, EmployerID: r.EmployerID, CreatedAt: r.CreatedAt.UTC(),
		Expires: r.Expires.UTC(), ClaimedAt: utcPtr(r.ClaimedAt)}
	if r.KeyHash != nil {
		if h.KeyHash, err = hex.DecodeString(*r.KeyHash); err != nil {
			return domain.LinkHandoff{}, fmt.Errorf("link hand-off %s: stored key_hash is not hex: %w", r.ID, err)
		}
	}
	return h, nil
}

func (s stores) CreateLinkHandoff(ctx context.Context, h domain.LinkHandoff) error {
	_, err := s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO link_handoffs (`+linkHandoffColumns+`)
		VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, NULL)`),
		h.ID, h.CustomerID, string(h.Mode), h.LinkTokenID, hex.EncodeToString(h.CodeHash), h.Screen, h.PlatformID, h.EmployerID,
		h.CreatedAt, h.Expires)
	return translate(err)
}

func (s stores) linkHandoffWhere(ctx context.Context, where string, args ...any) (domain.LinkHandoff, error) {
	var r linkHandoffRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT `+linkHandoffColumns+` FROM link_handoffs WHERE `+where), args...); err != nil {
		return domain.LinkHandoff{}, translate(err)
	}
	return r.domain()
}

func (s stores) LinkHandoff(ctx context.Context, sc domain.Scope, id string) (domain.LinkHandoff, error) {
	return s.linkHandoffWhere(ctx, `id = ? AND customer_id = ? AND mode = ?`, id, sc.CustomerID, string(sc.Mode))
}

func (s stores) LinkHandoffByCode(ctx context.Context, codeHash []byte) (domain.LinkHandoff, error) {
	return s.linkHandoffWhere(ctx, `code_hash = ?`, hex.EncodeToString(codeHash))
}

func (s stores) LinkHandoffByKey(ctx context.Context, keyHash []byte) (domain.LinkHandoff, error) {
	return s.linkHandoffWhere(ctx, `key_hash = ?`, hex.EncodeToString(keyHash))
}

// ClaimLinkHandoff claims in one conditional UPDATE, so of two requests
// with one code only one changes the row. Expiry is compared here, in
// Go, as link tokens' is: SQLite keeps times as text.
func (s stores) ClaimLinkHandoff(ctx context.Context, codeHash, keyHash []byte, at time.Time) (domain.LinkHandoff, error) {
	h, err := s.LinkHandoffByCode(ctx, codeHash)
	if err != nil {
		return domain.LinkHandoff{}, err
	}
	if h.ClaimedAt != nil || !at.Before(h.Expires) {
		return domain.LinkHandoff{}, domain.ErrNoRows
	}
	if err := expectOne(s.q.ExecContext(ctx, s.q.Rebind(`UPDATE link_handoffs SET claimed_at = ?, key_hash = ?
		WHERE id = ? AND claimed_at IS NULL`), at, hex.EncodeToString(keyHash), h.ID)); err != nil {
		return domain.LinkHandoff{}, err
	}
	return s.LinkHandoff(ctx, h.Scope(), h.ID)
}

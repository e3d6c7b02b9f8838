package storage

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"payline/domain"
)

type linkTokenRow struct {
	ID                            string     `db:"id"`
	CustomerID                    string     `db:"customer_id"`
	Mode                          string     `db:"mode"`
	TokenHash                     string     `db:"token_hash"`
	CreatedAt                     time.Time  `db:"created_at"`
	Expires                       time.Time  `db:"expires"`
	UsedAt                        *time.Time `db:"used_at"`
	APIVersion                    string     `db:"api_version"`
	OrgName                       string     `db:"org_name"`
	EndUserID                     string     `db:"end_user_id"`
	Solution                      string     `db:"solution"`
	Features                      string     `db:"features"`
	RequiredJobs                  string     `db:"required_jobs"`
	EmployerID                    *string    `db:"employer_id"`
	PlatformID                    *string    `db:"platform_id"`
	AccountID                     *string    `db:"account_id"`
	AmountCents                   *int64     `db:"amount_cents"`
	SkipIntroScreen               bool       `db:"skip_intro_screen"`
	DisableDirectDepositSplitting bool       `db:"disable_direct_deposit_splitting"`
	Language                      string     `db:"language"`
	SealedAllocation              []byte     `db:"sealed_allocation"`
	SealedMatching                []byte     `db:"sealed_matching"`
	RedirectURL                   *string    `db:"redirect_url"`
}

const linkTokenColumns = `id, customer_id, mode, token_hash, created_at, expires, used_at, api_version, org_name,
	end_user_id, solution, features, required_jobs, employer_id, platform_id, account_id, amount_cents, skip_intro_screen,
	disable_direct_deposit_splitting, language, sealed_allocation, sealed_matching, redirect_url`

func (r linkTokenRow) domain() (domain.LinkToken, error) {
	hash, err := hex.DecodeString(r.TokenHash)
	if err != nil {
		// Read as an empty hash, the token would open nothing, silently.
		return domain.LinkToken{}, fmt.Errorf("link token %s: stored token_hash is not hex: %w", r.ID, err)
	}
	t := domain.LinkToken{
		ID: r.ID, CustomerID: r.CustomerID, Mode: domain.Mode(r.Mode), TokenHash: hash, CreatedAt: r.CreatedAt.UTC(),
		Expires: r.Expires.UTC(), UsedAt: utcPtr(r.UsedAt), APIVersion: r.APIVersion, OrgName: r.OrgName,
		EndUserID: r.EndUserID, Solution: r.Solution, EmployerID: deref(r.EmployerID), PlatformID: deref(r.PlatformID),
		AccountID: deref(r.AccountID), SkipIntroScreen: r.SkipIntroScreen,
		DisableDirectDepositSplitting: r.DisableDirectDepositSplitting, Language: r.Language, RedirectURL: deref(r.RedirectURL),
	}
	if r.AmountCents != nil {
		m := domain.USD(*r.AmountCents)
		t.Amount = &m
	}
	if err := json.Unmarshal([]byte(r.Features), &t.Features); err != nil {
		return t, err
	}
	err = json.Unmarshal([]byte(r.RequiredJobs), &t.RequiredJobs)
	return t, err
}

func (s stores) CreateLinkToken(ctx context.Context, sc domain.Scope, t domain.LinkToken) error {
	box := s.seal.box.Load()
	if box == nil {
		return errNoMasterKey
	}
	alloc, matching, err := sealToken(box, t)
	if err != nil {
		return fmt.Errorf("seal link token %s: %w", t.ID, err)
	}
	_, err = s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO link_tokens (`+linkTokenColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		t.ID, sc.CustomerID, string(sc.Mode), hex.EncodeToString(t.TokenHash), t.CreatedAt, t.Expires, t.UsedAt,
		t.APIVersion, t.OrgName, t.EndUserID, t.Solution, jsonText(orEmpty(t.Features)), jsonText(orEmpty(t.RequiredJobs)),
		nullable(t.EmployerID), nullable(t.PlatformID), nullable(t.AccountID), amountCents(t.Amount), t.SkipIntroScreen,
		t.DisableDirectDepositSplitting, t.Language, alloc, matching, nullable(t.RedirectURL))
	return translate(err)
}

func amountCents(m *domain.Money) *int64 {
	if m == nil {
		return nil
	}
	return &m.Amount
}

func (s stores) LinkTokenByHash(ctx context.Context, hash []byte) (domain.LinkToken, error) {
	var r linkTokenRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT `+linkTokenColumns+` FROM link_tokens WHERE token_hash = ?`),
		hex.EncodeToString(hash)); err != nil {
		return domain.LinkToken{}, translate(err)
	}
	t, err := r.domain()
	if err != nil || r.SealedAllocation == nil && r.SealedMatching == nil {
		return t, err
	}
	box := s.seal.box.Load()
	if box == nil {
		return domain.LinkToken{}, errNoMasterKey
	}
	if err := openToken(box, &t, r.SealedAllocation, r.SealedMatching); err != nil {
		return domain.LinkToken{}, fmt.Errorf("open sealed fields of link token %s: %w", t.ID, err)
	}
	return t, nil
}

func (s stores) LinkToken(ctx context.Context, sc domain.Scope, id string) (domain.LinkToken, error) {
	var r linkTokenRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT `+linkTokenColumns+` FROM link_tokens
		WHERE id = ? AND customer_id = ? AND mode = ?`), id, sc.CustomerID, string(sc.Mode)); err != nil {
		return domain.LinkToken{}, translate(err)
	}
	return r.domain()
}

func (s stores) MarkLinkTokenUsed(ctx context.Context, sc domain.Scope, id string, at time.Time) error {
	return expectOne(s.q.ExecContext(ctx, s.q.Rebind(`UPDATE link_tokens SET used_at = ?
		WHERE id = ? AND customer_id = ? AND mode = ? AND used_at IS NULL`), at, id, sc.CustomerID, string(sc.Mode)))
}

func (s stores) ForgetPlatformMatching(ctx context.Context, sc domain.Scope, id string) error {
	_, err := s.q.ExecContext(ctx, s.q.Rebind(`UPDATE link_tokens SET sealed_matching = NULL
		WHERE id = ? AND customer_id = ? AND mode = ?`), id, sc.CustomerID, string(sc.Mode))
	return translate(err)
}

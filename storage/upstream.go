package storage

import (
	"context"
	"encoding/json"
	"time"

	"github.com/jmoiron/sqlx"

	"payline/domain"
)

func (s stores) Upstream() domain.UpstreamStore { return s }

// sealedUpstream is what upstream_links.sealed holds.
type sealedUpstream struct {
	Token  string `json:"token"`
	SDKURL string `json:"sdk_url"`
}

func (s stores) PutUpstreamLink(ctx context.Context, sc domain.Scope, l domain.UpstreamLink, at time.Time) error {
	plain, err := json.Marshal(sealedUpstream{Token: l.Token, SDKURL: l.SDKURL})
	if err != nil {
		return err
	}
	sealed, err := s.seal.seal(plain, "upstream_links", l.LinkTokenID)
	if err != nil {
		return err
	}
	_, err = s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO upstream_links (link_token_id, customer_id, mode, upstream_token_id, sealed, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`), l.LinkTokenID, sc.CustomerID, string(sc.Mode), l.ID, sealed, at)
	return translate(err)
}

func (s stores) UpstreamLink(ctx context.Context, sc domain.Scope, linkTokenID string) (domain.UpstreamLink, error) {
	var r struct {
		UpstreamTokenID string `db:"upstream_token_id"`
		Sealed          []byte `db:"sealed"`
	}
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT upstream_token_id, sealed FROM upstream_links
		WHERE link_token_id = ? AND customer_id = ? AND mode = ?`), linkTokenID, sc.CustomerID, string(sc.Mode)); err != nil {
		return domain.UpstreamLink{}, translate(err)
	}
	plain, err := s.seal.open(r.Sealed, "upstream_links", linkTokenID)
	if err != nil {
		return domain.UpstreamLink{}, err
	}
	var v sealedUpstream
	if err := json.Unmarshal(plain, &v); err != nil {
		return domain.UpstreamLink{}, err
	}
	return domain.UpstreamLink{LinkTokenID: linkTokenID, UpstreamToken: domain.UpstreamToken{ID: r.UpstreamTokenID, Token: v.Token, SDKURL: v.SDKURL}}, nil
}

func (s stores) LinkTokenByUpstream(ctx context.Context, upstreamTokenID string) (domain.LinkToken, error) {
	var r linkTokenRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT `+linkTokenColumns+` FROM link_tokens
		WHERE id = (SELECT link_token_id FROM upstream_links WHERE upstream_token_id = ?)`), upstreamTokenID); err != nil {
		return domain.LinkToken{}, translate(err)
	}
	return r.domain()
}

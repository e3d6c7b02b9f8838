package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
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
	_, err = s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO upstream_links (link_token_id, customer_id, mode, upstream_token_id, sealed, created_at, source)
		VALUES (?, ?, ?, ?, ?, ?, ?)`), l.LinkTokenID, sc.CustomerID, string(sc.Mode), l.ID, sealed, at, l.Source)
	return translate(err)
}

func (s stores) UpstreamLink(ctx context.Context, sc domain.Scope, linkTokenID string) (domain.UpstreamLink, error) {
	var r struct {
		UpstreamTokenID string `db:"upstream_token_id"`
		Sealed          []byte `db:"sealed"`
		Source          string `db:"source"`
	}
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT upstream_token_id, sealed, source FROM upstream_links
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
	return domain.UpstreamLink{LinkTokenID: linkTokenID, UpstreamToken: domain.UpstreamToken{ID: r.UpstreamTokenID, Token: v.Token, SDKURL: v.SDKURL,
		Source: r.Source}}, nil
}

func (s stores) LinkTokenByUpstream(ctx context.Context, upstreamTokenID string) (domain.LinkToken, error) {
	var r linkTokenRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT `+linkTokenColumns+` FROM link_tokens
		WHERE id = (SELECT link_token_id FROM upstream_links WHERE upstream_token_id = ?)`), upstreamTokenID); err != nil {
		return domain.LinkToken{}, translate(err)
	}
	return r.domain()
}

// The rows of upstream_state, one of each per upstream: the kind, a
// slash and the upstream's name.
const (
	stateDirectory = "directory_sync/"
	stateReconcile = "reconcile/"
)

// directorySyncRow and reconcilePassRow are the JSON stored in
// upstream_state.state: one codec each, so what is read is what was
// written.
type directorySyncRow struct {
	Running       bool      `json:"running"`
	Cursor        string    `json:"cursor"`
	Since         time.Time `json:"since"`
	PlatformsDone bool      `json:"platforms_done"`
	Read          int       `json:"read"`
	Newest        time.Time `json:"newest"`
	Through       time.Time `json:"through"`
	Expected      int       `json:"expected"`
	CompletedAt   time.Time `json:"completed_at"`
}

type reconcilePassRow struct {
	Running  bool      `json:"running"`
	Since    time.Time `json:"since"`
	Cursor   string    `json:"cursor"`
	Started  time.Time `json:"started"`
	Listed   int       `json:"listed"`
	Ingested int       `json:"ingested"`
	Through  time.Time `json:"through"`
}

func (s stores) DirectorySync(ctx context.Context, source string) (domain.DirectorySync, error) {
	var r directorySyncRow
	if err := s.upstreamState(ctx, stateDirectory+source, &r); err != nil {
		return domain.DirectorySync{}, err
	}
	return domain.DirectorySync(r), nil
}

func (s stores) PutDirectorySync(ctx context.Context, source string, d domain.DirectorySync) error {
	return s.putUpstreamState(ctx, stateDirectory+source, directorySyncRow(d))
}

func (s stores) ReconcilePass(ctx context.Context, source string) (domain.ReconcilePass, error) {
	var r reconcilePassRow
	if err := s.upstreamState(ctx, stateReconcile+source, &r); err != nil {
		return domain.ReconcilePass{}, err
	}
	return domain.ReconcilePass(r), nil
}

func (s stores) PutReconcilePass(ctx context.Context, source string, r domain.ReconcilePass) error {
	return s.putUpstreamState(ctx, stateReconcile+source, reconcilePassRow(r))
}

// upstreamState reads a row of upstream_state into v, leaving v as it is
// when there is none.
func (s stores) upstreamState(ctx context.Context, name string, v any) error {
	var state string
	err := sqlx.GetContext(ctx, s.q, &state, s.q.Rebind(`SELECT state FROM upstream_state WHERE name = ?`), name)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return translate(err)
	}
	if err := json.Unmarshal([]byte(state), v); err != nil {
		return fmt.Errorf("upstream_state %s: %w", name, err)
	}
	return nil
}

func (s stores) putUpstreamState(ctx context.Context, name string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO upstream_state (name, state, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`), name, string(b), time.Now().UTC())
	return translate(err)
}

func (s stores) UpstreamEventSeen(ctx context.Context, eventID string, since time.Time) (bool, error) {
	var n int
	err := sqlx.GetContext(ctx, s.q, &n, s.q.Rebind(`SELECT COUNT(*) FROM upstream_events WHERE event_id = ? AND handled_at >= ?`),
		eventID, since.UTC())
	return n > 0, translate(err)
}

func (s stores) RememberUpstreamEvent(ctx context.Context, eventID string, at, since time.Time) error {
	if _, err := s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO upstream_events (event_id, handled_at) VALUES (?, ?)
		ON CONFLICT (event_id) DO UPDATE SET handled_at = excluded.handled_at`), eventID, at.UTC()); err != nil {
		return translate(err)
	}
	_, err := s.q.ExecContext(ctx, s.q.Rebind(`DELETE FROM upstream_events WHERE handled_at < ?`), since.UTC())
	return translate(err)
}

package storage

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"

	"payline/domain"
)

func (s stores) CreateEvent(ctx context.Context, sc domain.Scope, e domain.Event) error {
	_, err := s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO events (id, customer_id, mode, name, created_at, payload)
		VALUES (?, ?, ?, ?, ?, ?)`), e.ID, sc.CustomerID, string(sc.Mode), e.Name, e.CreatedAt, string(e.Payload))
	if err != nil || s.feed == nil {
		return translate(err)
	}
	return s.feed.notify(ctx, s, sc, e)
}

func (s stores) ListEvents(ctx context.Context, sc domain.Scope) ([]domain.Event, error) {
	var rows []struct {
		ID        string    `db:"id"`
		Name      string    `db:"name"`
		CreatedAt time.Time `db:"created_at"`
		Payload   string    `db:"payload"`
	}
	if err := sqlx.SelectContext(ctx, s.q, &rows, s.q.Rebind(`SELECT id, name, created_at, payload FROM events
		WHERE customer_id = ? AND mode = ? ORDER BY created_at, id`), sc.CustomerID, string(sc.Mode)); err != nil {
		return nil, translate(err)
	}
	out := make([]domain.Event, len(rows))
	for i, r := range rows {
		out[i] = domain.Event{ID: r.ID, Name: r.Name, CreatedAt: r.CreatedAt.UTC(), Payload: domain.EventPayload(r.Payload)}
	}
	return out, nil
}

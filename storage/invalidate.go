package storage

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// invalidateChannel carries changes that other processes on the same
// PostgreSQL must stop serving stale: "key <id>" when an API key is
// revoked, "member <id>" when sessions of a member end, "directory" when
// the directory changes. SQLite has one process
// (commands run beside it are covered by the caches' short lifetimes).
const invalidateChannel = "payline_invalidate"

// notifyInvalidate announces msg on PostgreSQL; within a transaction it is
// delivered when the transaction commits.
func notifyInvalidate(ctx context.Context, q sqlx.ExecerContext, dialect Dialect, msg string) error {
	if dialect != Postgres {
		return nil
	}
	_, err := q.ExecContext(ctx, `SELECT pg_notify($1, $2)`, invalidateChannel, msg)
	return translate(err)
}

// InvalidationHandlers react to other processes' changes.
type InvalidationHandlers struct {
	// KeyRevoked: forget any cached authentication of the key.
	KeyRevoked func(keyID string)
	// MemberSessionsEnded: close what the member's ended sessions hold
	// open (websockets).
	MemberSessionsEnded func(memberID string)
	// DirectoryChanged: reload what is derived from the directory.
	DirectoryChanged func()
	// Reconnected: the listener lost its connection, and changes made
	// meanwhile were missed; drop every cache.
	Reconnected func()
}

// Invalidations is a running listener; Close stops it.
type Invalidations struct{ listener *pq.Listener }

// ListenInvalidations delivers other processes' changes to h until Close.
// On SQLite it does nothing and returns a listener whose Close is a no-op.
func (db *DB) ListenInvalidations(h InvalidationHandlers, log *slog.Logger) (*Invalidations, error) {
	if db.Dialect != Postgres {
		return &Invalidations{}, nil
	}
	l := pq.NewListener(db.feed.dsn, 100*time.Millisecond, 10*time.Second, func(ev pq.ListenerEventType, err error) {
		if err != nil {
			log.Warn("invalidation listener", slog.Any("error", err))
		}
	})
	if err := l.Listen(invalidateChannel); err != nil {
		l.Close()
		return nil, err
	}
	go func() {
		for n := range l.Notify {
			switch {
			case n == nil: // reconnected: notifications in between are lost
				if h.Reconnected != nil {
					h.Reconnected()
				}
			case strings.HasPrefix(n.Extra, "key "):
				if h.KeyRevoked != nil {
					h.KeyRevoked(strings.TrimPrefix(n.Extra, "key "))
				}
			case strings.HasPrefix(n.Extra, "member "):
				if h.MemberSessionsEnded != nil {
					h.MemberSessionsEnded(strings.TrimPrefix(n.Extra, "member "))
				}
			case n.Extra == "directory":
				if h.DirectoryChanged != nil {
					h.DirectoryChanged()
				}
			}
		}
	}()
	return &Invalidations{listener: l}, nil
}

// Close stops listening.
func (i *Invalidations) Close() error {
	if i == nil || i.listener == nil {
		return nil
	}
	return i.listener.Close()
}

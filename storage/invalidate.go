package storage

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// invalidateChannel carries changes that other processes on the same
// database must stop serving stale: "key <id>" when an API key is
// revoked, "member <id>" when sessions of a member end, "directory" when
// the directory changes. PostgreSQL announces them with NOTIFY on this
// channel; SQLite, which has no channel, writes them to the
// invalidation_notices table, which every server on the file reads a few
// times a second (a `payline members remove` run beside a server is
// another process too).
const invalidateChannel = "payline_invalidate"

// Reading SQLite's notices: how often a server reads those after the last
// one it read, and how long a notice is kept for a server that could not
// read for a while (then the periodic checks of what it serves are the
// backstop, as for a notice PostgreSQL's listener misses).
const (
	invalidationPollEvery  = 200 * time.Millisecond
	invalidationKeep       = 10 * time.Minute
	invalidationPruneEvery = time.Minute
	// invalidationBatch bounds the notices one read hands over; more wait
	// for the next read.
	invalidationBatch = 1000
)

// notifyInvalidate announces msg to every process on the database; within
// a transaction it is delivered when the transaction commits (NOTIFY on
// PostgreSQL, a notice row on SQLite, which readers see only once
// committed).
func notifyInvalidate(ctx context.Context, q sqlx.ExecerContext, dialect Dialect, msg string) error {
	if dialect == Postgres {
		_, err := q.ExecContext(ctx, `SELECT pg_notify($1, $2)`, invalidateChannel, msg)
		return translate(err)
	}
	// The moment is for pruning only, so the wall clock will do.
	_, err := q.ExecContext(ctx, `INSERT INTO invalidation_notices (message, at) VALUES (?, ?)`, msg, time.Now().UnixMicro())
	return translate(err)
}

// InvalidationHandlers react to other processes' changes. A process hears
// its own too, which handlers take as one more reason to check.
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

// deliver hands one announced message to its handler.
func (h InvalidationHandlers) deliver(msg string) {
	switch {
	case strings.HasPrefix(msg, "key "):
		if h.KeyRevoked != nil {
			h.KeyRevoked(strings.TrimPrefix(msg, "key "))
		}
	case strings.HasPrefix(msg, "member "):
		if h.MemberSessionsEnded != nil {
			h.MemberSessionsEnded(strings.TrimPrefix(msg, "member "))
		}
	case msg == "directory":
		if h.DirectoryChanged != nil {
			h.DirectoryChanged()
		}
	}
}

// Invalidations is a running listener (PostgreSQL) or reader of notices
// (SQLite); Close stops it.
type Invalidations struct {
	listener *pq.Listener
	stop     context.CancelFunc
	done     chan struct{}
	once     sync.Once
}

// ListenInvalidations delivers other processes' changes to h until Close:
// on PostgreSQL as their notifications arrive, on SQLite by reading the
// notices written after the last one read every invalidationPollEvery.
func (db *DB) ListenInvalidations(h InvalidationHandlers, log *slog.Logger) (*Invalidations, error) {
	if db.Dialect != Postgres {
		return db.readInvalidations(h, log, invalidationPollEvery)
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
			if n == nil { // reconnected: notifications in between are lost
				if h.Reconnected != nil {
					h.Reconnected()
				}
				continue
			}
			h.deliver(n.Extra)
		}
	}()
	return &Invalidations{listener: l}, nil
}

// readInvalidations starts reading SQLite's notices written from now on.
// Its statements go to the handle's pool directly (db.DB), outside the
// per-request statement count.
func (db *DB) readInvalidations(h InvalidationHandlers, log *slog.Logger, every time.Duration) (*Invalidations, error) {
	var last int64
	if err := db.DB.Get(&last, `SELECT COALESCE(MAX(id), 0) FROM invalidation_notices`); err != nil {
		return nil, translate(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	inv := &Invalidations{stop: stop, done: make(chan struct{})}
	go func() {
		defer close(inv.done)
		tick := time.NewTicker(every)
		defer tick.Stop()
		pruned, failing := time.Now(), false
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			next, err := db.nextInvalidations(ctx, last, h)
			if err != nil && ctx.Err() == nil && !failing {
				log.Warn("read other processes' changes (trying again)", slog.Any("error", err))
			}
			// Back after reads failed: notices may have been pruned in
			// between, so whatever the handlers keep is stale, as after
			// PostgreSQL's listener reconnects.
			if err == nil && failing && h.Reconnected != nil {
				h.Reconnected()
			}
			last, failing = next, err != nil
			if time.Since(pruned) >= invalidationPruneEvery {
				pruned = time.Now()
				if err := db.pruneInvalidations(ctx, pruned.Add(-invalidationKeep)); err != nil && ctx.Err() == nil {
					log.Warn("prune old change notices", slog.Any("error", err))
				}
			}
		}
	}()
	return inv, nil
}

// nextInvalidations delivers the notices after id last, in order, and
// returns the id of the last one delivered (last when none).
func (db *DB) nextInvalidations(ctx context.Context, last int64, h InvalidationHandlers) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var notices []struct {
		ID      int64  `db:"id"`
		Message string `db:"message"`
	}
	if err := db.DB.SelectContext(ctx, &notices, `SELECT id, message FROM invalidation_notices WHERE id > ? ORDER BY id LIMIT ?`,
		last, invalidationBatch); err != nil {
		return last, translate(err)
	}
	for _, n := range notices {
		h.deliver(n.Message)
		last = n.ID
	}
	return last, nil
}

// pruneInvalidations deletes the notices written before.
func (db *DB) pruneInvalidations(ctx context.Context, before time.Time) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, err := db.DB.ExecContext(ctx, `DELETE FROM invalidation_notices WHERE at < ?`, before.UnixMicro())
	return translate(err)
}

// Close stops listening or reading.
func (i *Invalidations) Close() error {
	if i == nil {
		return nil
	}
	if i.stop != nil {
		i.once.Do(func() {
			i.stop()
			<-i.done
		})
	}
	if i.listener == nil {
		return nil
	}
	return i.listener.Close()
}

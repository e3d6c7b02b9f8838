package storage

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/lib/pq"

	"payline/domain"
)

// feedChannel is the PostgreSQL notification channel of committed events.
const feedChannel = "payline_events"

// Feed tells subscribers of a tenant about events as they commit, for
// GraphQL subscriptions. On SQLite (one process) the transaction that
// wrote events hands them over after its commit. On PostgreSQL every event
// is announced with NOTIFY in its own transaction, which PostgreSQL
// delivers only on commit, to every instance listening: a subscriber on
// one instance hears of a job another instance finished.
//
// A subscriber that falls behind by more than its buffer loses events
// rather than slow down the writers; subscriptions are for live views,
// and webhooks are the durable record.
type Feed struct {
	db  *DB
	dsn string
	log *slog.Logger

	mu        sync.Mutex
	subs      map[domain.Scope]map[chan domain.Event]struct{}
	listening bool
	listener  *pq.Listener
	problem   string // why events do not arrive now, "" when they do
	retry     time.Duration
	closed    bool
}

// Listen retry bounds: a LISTEN that fails (the database away at the
// first subscription) is tried again after listenRetryMin, doubling to
// listenRetryMax, for as long as it fails. Once listening, pq.Listener
// reconnects by itself within the same bounds.
const (
	listenRetryMin = 100 * time.Millisecond
	listenRetryMax = 10 * time.Second
	// eventReadTimeout bounds the read of one notified event, so a stuck
	// read cannot stall every subscriber behind it.
	eventReadTimeout = 5 * time.Second
)

// SubscriberBuffer is how many events a subscriber may fall behind by.
const SubscriberBuffer = 256

func newFeed(db *DB, dsn string) *Feed {
	return &Feed{db: db, dsn: dsn, log: slog.Default(), subs: map[domain.Scope]map[chan domain.Event]struct{}{}}
}

// SetLogger sets where the listener reports connection trouble.
func (f *Feed) SetLogger(l *slog.Logger) { f.log = l }

// Subscribe implements domain.Transactor's Subscribe: the scope's events
// committed from now on, until ctx ends (then the channel closes).
func (f *Feed) Subscribe(ctx context.Context, sc domain.Scope) <-chan domain.Event {
	ch := make(chan domain.Event, SubscriberBuffer)
	f.mu.Lock()
	if f.subs[sc] == nil {
		f.subs[sc] = map[chan domain.Event]struct{}{}
	}
	f.subs[sc][ch] = struct{}{}
	if f.db.Dialect == Postgres && !f.listening {
		f.listening = true
		f.listen()
	}
	f.mu.Unlock()
	go func() {
		<-ctx.Done()
		f.mu.Lock()
		delete(f.subs[sc], ch)
		if len(f.subs[sc]) == 0 {
			delete(f.subs, sc)
		}
		f.mu.Unlock()
		close(ch)
	}()
	return ch
}

// deliver hands a committed event to the scope's subscribers.
func (f *Feed) deliver(sc domain.Scope, e domain.Event) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for ch := range f.subs[sc] {
		select {
		case ch <- e:
		default: // a subscriber this far behind misses the event
		}
	}
}

// notify announces an event written through q: NOTIFY on PostgreSQL
// (delivered when q's transaction commits), in process on SQLite, where
// an event written in a transaction waits in pending for the commit.
//
// Inside a transaction the event waits in pending on both databases: on
// PostgreSQL the transaction's flush sends the NOTIFYs (notifyMany), on
// SQLite the commit hands the events to the subscribers.
func (f *Feed) notify(ctx context.Context, s stores, sc domain.Scope, e domain.Event) error {
	if s.pending != nil {
		*s.pending = append(*s.pending, published{sc, e})
		return nil
	}
	if f.db.Dialect == Postgres {
		return f.notifyMany(ctx, s, []published{{sc, e}})
	}
	f.deliver(sc, e)
	return nil
}

// notifyMany sends events as NOTIFY payloads of one "customer TAB mode TAB
// event id" line per event, as many lines per NOTIFY as fit well inside
// PostgreSQL's 8000-byte payload.
func (f *Feed) notifyMany(ctx context.Context, s stores, events []published) error {
	var payload strings.Builder
	send := func() error {
		if payload.Len() == 0 {
			return nil
		}
		_, err := s.q.ExecContext(ctx, `SELECT pg_notify($1, $2)`, feedChannel, payload.String())
		payload.Reset()
		return translate(err)
	}
	for _, p := range events {
		line := p.scope.CustomerID + "\t" + string(p.scope.Mode) + "\t" + p.event.ID
		if payload.Len()+len(line)+1 > 7000 {
			if err := send(); err != nil {
				return err
			}
		}
		if payload.Len() > 0 {
			payload.WriteByte('\n')
		}
		payload.WriteString(line)
	}
	return send()
}

// published is an event waiting for its transaction to commit.
type published struct {
	scope domain.Scope
	event domain.Event
}

// listen starts the PostgreSQL listener; f.mu is held. A LISTEN that
// fails is retried with backoff until it succeeds or the feed closes;
// Problem says meanwhile (and while pq.Listener reconnects) that events
// are not arriving.
func (f *Feed) listen() {
	if f.closed {
		return
	}
	l := pq.NewListener(f.dsn, listenRetryMin, listenRetryMax, func(ev pq.ListenerEventType, err error) {
		f.mu.Lock()
		defer f.mu.Unlock()
		switch ev {
		case pq.ListenerEventConnected, pq.ListenerEventReconnected:
			f.problem = ""
		case pq.ListenerEventDisconnected, pq.ListenerEventConnectionAttemptFailed:
			f.problem = fmt.Sprintf("listening for events: %v (reconnecting; live subscriptions miss events meanwhile)", err)
		}
		if err != nil {
			f.log.Warn("event feed listener", slog.Any("error", err))
		}
	})
	if err := l.Listen(feedChannel); err != nil {
		_ = l.Close() // it never listened: the Listen error below is the news
		f.problem = fmt.Sprintf("cannot listen for events: %v (retrying)", err)
		f.retry = min(max(2*f.retry, listenRetryMin), listenRetryMax)
		f.log.Error("event feed: cannot listen; retrying", slog.Duration("retry_in", f.retry), slog.Any("error", err))
		time.AfterFunc(f.retry, func() {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.listen()
		})
		return
	}
	f.listener, f.problem, f.retry = l, "", 0
	events := stores{q: f.db, seal: &f.db.sealer}
	go func() {
		for n := range l.Notify {
			if n == nil {
				continue // reconnected: events in between are missed
			}
			for line := range strings.SplitSeq(n.Extra, "\n") {
				parts := strings.SplitN(line, "\t", 3)
				if len(parts) != 3 {
					continue
				}
				sc := domain.Scope{CustomerID: parts[0], Mode: domain.Mode(parts[1])}
				f.mu.Lock()
				wanted := len(f.subs[sc]) > 0
				f.mu.Unlock()
				if !wanted {
					continue
				}
				ctx, cancel := context.WithTimeout(context.Background(), eventReadTimeout)
				e, err := events.Event(ctx, sc, parts[2])
				cancel()
				if err != nil {
					f.log.Warn("event feed: read event", slog.String("event_id", parts[2]), slog.Any("error", err))
					continue
				}
				f.deliver(sc, e)
			}
		}
	}()
}

// Problem says why committed events are not reaching subscribers now,
// for /readyz: "" while they do (or nothing listens yet).
func (f *Feed) Problem() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.problem
}

// Close stops the PostgreSQL listener.
func (f *Feed) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil // closing twice is not an error (the listener would say it is)
	}
	f.closed = true
	if f.listener == nil {
		return nil
	}
	return f.listener.Close()
}

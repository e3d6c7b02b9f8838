package storage

import (
	"context"
	"database/sql"

	"github.com/jmoiron/sqlx"

	"payline/domain"
)

// Transactor implements domain.Transactor: the Link, account, job and
// event stores, run on the database or inside one transaction, with job
// runs queued through River in the same transaction.
type Transactor struct {
	db    *DB
	queue *Queue
	stores
}

// NewTransactor binds the stores to db and queued runs to queue.
func NewTransactor(db *DB, queue *Queue) *Transactor {
	return &Transactor{db: db, queue: queue, stores: stores{q: db, feed: db.feed, seal: &db.sealer}}
}

// InTx runs fn in one transaction; see domain.Transactor. Events it
// writes reach the feed's subscribers once it commits.
func (t *Transactor) InTx(ctx context.Context, fn func(context.Context, domain.Tx) error) error {
	return t.inTx(ctx, func(ctx context.Context, tx *txStores) error { return fn(ctx, tx) })
}

// inTx runs fn in one transaction with the transaction's stores, which
// InTx and the narrower transactions of single use cases hand on.
func (t *Transactor) inTx(ctx context.Context, fn func(context.Context, *txStores) error) error {
	var pending []published
	err := t.db.inTx(ctx, func(ctx context.Context, tx *sqlx.Tx) error {
		st := &txStores{stores: stores{q: tx, feed: t.db.feed, pending: &pending, seal: &t.db.sealer}, tx: tx.Tx, queue: t.queue,
			hooks: map[hookKey][]domain.Webhook{}}
		if err := fn(ctx, st); err != nil {
			return err
		}
		return st.flush(ctx)
	})
	if err == nil && t.db.Dialect == SQLite {
		for _, p := range pending {
			t.db.feed.deliver(p.scope, p.event)
		}
	}
	return err
}

// Subscribe implements domain.Transactor with the database's feed.
func (t *Transactor) Subscribe(ctx context.Context, sc domain.Scope) <-chan domain.Event {
	return t.db.feed.Subscribe(ctx, sc)
}

// EnqueueJobRun outside a transaction queues at once.
func (t *Transactor) EnqueueJobRun(ctx context.Context, r domain.JobRun) error {
	checkOutside(ctx)
	return t.queue.insert(ctx, nil, r)
}

// EnqueueDelivery outside a transaction queues at once.
func (t *Transactor) EnqueueDelivery(ctx context.Context, r domain.DeliveryRun) error {
	checkOutside(ctx)
	return t.queue.insertDelivery(ctx, nil, r)
}

// EnqueueRefresh outside a transaction queues at once.
func (t *Transactor) EnqueueRefresh(ctx context.Context, r domain.RefreshRun) error {
	checkOutside(ctx)
	return t.queue.insertRefresh(ctx, nil, r)
}

// EnqueueIngest outside a transaction queues at once.
func (t *Transactor) EnqueueIngest(ctx context.Context, r domain.IngestRun) error {
	checkOutside(ctx)
	return t.queue.insertIngest(ctx, nil, r)
}

// txStores are the stores of one transaction. Events published in it
// cost one statement each: the fan-out lookup is memoised, and their
// delivery jobs and feed notifications are written once, just before the
// commit (flush).
type txStores struct {
	stores
	tx         *sql.Tx
	queue      *Queue
	hooks      map[hookKey][]domain.Webhook
	deliveries []domain.DeliveryRun
}

// flush writes what the transaction deferred: its deliveries in one
// River insert, and on PostgreSQL the feed's notifications, several
// events per NOTIFY (delivered at commit, as each would be).
func (t *txStores) flush(ctx context.Context) error {
	if len(t.deliveries) > 0 {
		if err := t.queue.insertDeliveries(ctx, t.tx, t.deliveries); err != nil {
			return translate(err)
		}
	}
	if t.feed != nil && t.feed.db.Dialect == Postgres && t.pending != nil && len(*t.pending) > 0 {
		if err := t.feed.notifyMany(ctx, t.stores, *t.pending); err != nil {
			return err
		}
	}
	return nil
}

func (t *txStores) EnqueueJobRun(ctx context.Context, r domain.JobRun) error {
	return t.queue.insert(ctx, t.tx, r)
}

func (t *txStores) EnqueueDelivery(_ context.Context, r domain.DeliveryRun) error {
	t.deliveries = append(t.deliveries, r)
	return nil
}

func (t *txStores) EnqueueRefresh(ctx context.Context, r domain.RefreshRun) error {
	return t.queue.insertRefresh(ctx, t.tx, r)
}

func (t *txStores) EnqueueIngest(ctx context.Context, r domain.IngestRun) error {
	return t.queue.insertIngest(ctx, t.tx, r)
}

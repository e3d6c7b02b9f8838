package storage

import (
	"context"
	"database/sql"
	"time"

	"github.com/riverqueue/river"

	"payline/domain"
)

// linkOrderMessageArgs is the River job that sends one message of a Link
// order (domain.LinkOrderMessageRun). Its arguments are unique: a message
// is queued once, however often the transaction that queues it is tried.
// It holds no address: the worker reads them, sealed, from the order.
type linkOrderMessageArgs struct {
	CustomerID string `json:"customer_id"`
	Mode       string `json:"mode"`
	OrderID    string `json:"order_id"`
	Channel    string `json:"channel"`
	Seq        int    `json:"seq"`
	Reminder   bool   `json:"reminder,omitempty"`
}

func (linkOrderMessageArgs) Kind() string { return "link_order_message" }

// LinkOrderMessageFunc sends one message (domain.LinkOrderService.
// SendMessage); final says this is the last attempt. A wait asks to try
// again then (quiet hours), spending no attempt.
type LinkOrderMessageFunc func(ctx context.Context, r domain.LinkOrderMessageRun, final bool) (time.Duration, error)

// linkOrderMessageAttempts is how many times a message is tried before
// its delivery shows failed.
const linkOrderMessageAttempts = 4

type linkOrderMessageWorker struct {
	river.WorkerDefaults[linkOrderMessageArgs]
	send  LinkOrderMessageFunc
	retry time.Duration // the wait after the first failure; it doubles
}

func (w *linkOrderMessageWorker) Timeout(*river.Job[linkOrderMessageArgs]) time.Duration {
	return jobTimeout
}

// NextRetry spaces a message's tries: retry, then twice that, and so on.
func (w *linkOrderMessageWorker) NextRetry(j *river.Job[linkOrderMessageArgs]) time.Time {
	return time.Now().Add(w.retry << max(0, j.Attempt-1))
}

func (w *linkOrderMessageWorker) Work(ctx context.Context, j *river.Job[linkOrderMessageArgs]) error {
	if w.send == nil {
		return river.JobSnooze(time.Minute) // a process without the service leaves it to one with it
	}
	wait, err := w.send(ctx, domain.LinkOrderMessageRun{Scope: domain.Scope{CustomerID: j.Args.CustomerID, Mode: domain.Mode(j.Args.Mode)},
		OrderID: j.Args.OrderID, Channel: domain.MessageChannel(j.Args.Channel), Seq: j.Args.Seq, Reminder: j.Args.Reminder},
		j.Attempt >= j.MaxAttempts)
	if err != nil {
		return err
	}
	if wait > 0 {
		return river.JobSnooze(wait)
	}
	return nil
}

// insertLinkOrderMessage queues one message of an order, once.
func (q *Queue) insertLinkOrderMessage(ctx context.Context, tx *sql.Tx, r domain.LinkOrderMessageRun) error {
	args := linkOrderMessageArgs{CustomerID: r.Scope.CustomerID, Mode: string(r.Scope.Mode), OrderID: r.OrderID,
		Channel: string(r.Channel), Seq: r.Seq, Reminder: r.Reminder}
	return q.insertArgs(ctx, tx, args, &river.InsertOpts{MaxAttempts: linkOrderMessageAttempts,
		UniqueOpts: river.UniqueOpts{ByArgs: true}})
}

// linkOrderSweepArgs starts a sweep of the Link orders with something due
// (domain.LinkOrderService.Sweep): expiries, reminders, links held by
// quiet hours.
type linkOrderSweepArgs struct{}

func (linkOrderSweepArgs) Kind() string { return "link_order_sweep" }

type linkOrderSweepWorker struct {
	river.WorkerDefaults[linkOrderSweepArgs]
	sweep PassFunc
}

func (w *linkOrderSweepWorker) Timeout(*river.Job[linkOrderSweepArgs]) time.Duration {
	return jobTimeout
}

func (w *linkOrderSweepWorker) Work(ctx context.Context, _ *river.Job[linkOrderSweepArgs]) error {
	return runChunk(ctx, w.sweep)
}

// DefaultLinkOrderSweep is how often the leader sweeps Link orders.
const DefaultLinkOrderSweep = time.Minute

// EnqueueLinkOrderMessage outside a transaction queues at once.
func (t *Transactor) EnqueueLinkOrderMessage(ctx context.Context, r domain.LinkOrderMessageRun) error {
	checkOutside(ctx)
	return t.queue.insertLinkOrderMessage(ctx, nil, r)
}

func (t *txStores) EnqueueLinkOrderMessage(ctx context.Context, r domain.LinkOrderMessageRun) error {
	return t.queue.insertLinkOrderMessage(ctx, t.tx, r)
}

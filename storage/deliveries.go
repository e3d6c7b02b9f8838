package storage

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"hash/fnv"
	"time"

	"github.com/riverqueue/river"

	"payline/domain"
)

// deliveryArgs is the River job that delivers one event to one webhook.
type deliveryArgs struct {
	CustomerID string `json:"customer_id"`
	Mode       string `json:"mode"`
	WebhookID  string `json:"webhook_id"`
	EventID    string `json:"event_id"`
}

func (deliveryArgs) Kind() string { return "webhook_delivery" }

// webhookQueue keeps deliveries apart from payroll jobs, so slow
// receivers never hold up Link.
const webhookQueue = "webhooks"

// DeliveryFunc makes one delivery attempt; see domain.WebhookService.Deliver.
type DeliveryFunc func(ctx context.Context, r domain.DeliveryRun, attempt int, next *time.Time) (domain.DeliveryResult, error)

// RetrySchedule spaces delivery retries: exponential caps (Base, 2×Base,
// 4×Base, ...) with "equal jitter" (half the cap, plus up to the other
// half drawn uniformly), never later than Window after the delivery was
// queued. Half of every cap is always waited, so five retries span at
// least 15.5×Base: with the spec's 30 s that is 7m45s, and a receiver down
// for a few minutes still gets every event (full jitter could spend all
// five retries in under a minute). The jitter is a hash of the job and
// attempt, so the time the worker logs as "next attempt" is the time
// River uses.
type RetrySchedule struct {
	Base   time.Duration
	Window time.Duration
}

// DefaultRetrySchedule fits five retries inside the spec's 15 minutes:
// caps of 30s, 1m, 2m, 4m and 8m add up to 15m30s, and the window clamps
// the rare sum that would pass it.
var DefaultRetrySchedule = RetrySchedule{Base: 30 * time.Second, Window: domain.WebhookRetryWindow}

// Next is when attempt+1 runs, after attempt started at attemptedAt.
func (r RetrySchedule) Next(jobID int64, attempt int, created, attemptedAt time.Time) time.Time {
	h := fnv.New64a()
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], uint64(jobID))
	binary.LittleEndian.PutUint64(b[8:], uint64(attempt))
	h.Write(b[:])
	frac := float64(h.Sum64()>>11) / float64(1<<53)
	limit := r.Base << max(0, attempt-1)
	next := attemptedAt.Add(limit/2 + time.Duration(frac*float64(limit/2)))
	if deadline := created.Add(r.Window); next.After(deadline) {
		next = deadline
	}
	return next
}

// databaseRetry is how soon a delivery cut off by an unreachable
// database runs again.
const databaseRetry = 2 * time.Second

type deliveryWorker struct {
	river.WorkerDefaults[deliveryArgs]
	deliver DeliveryFunc
	retry   RetrySchedule
}

// Timeout leaves the sender's 15 seconds and time to record the attempt.
func (w *deliveryWorker) Timeout(*river.Job[deliveryArgs]) time.Duration {
	return domain.WebhookTimeout + 10*time.Second
}

func (w *deliveryWorker) next(j *river.Job[deliveryArgs]) time.Time {
	at := time.Now()
	if j.AttemptedAt != nil {
		at = *j.AttemptedAt
	}
	return w.retry.Next(j.ID, j.Attempt, j.CreatedAt, at)
}

// NextRetry implements River's per-worker retry policy.
func (w *deliveryWorker) NextRetry(j *river.Job[deliveryArgs]) time.Time { return w.next(j) }

// Work makes one attempt. A retryable failure returns an error (River
// schedules the next attempt with NextRetry); a final one cancels the job.
func (w *deliveryWorker) Work(ctx context.Context, j *river.Job[deliveryArgs]) error {
	var next *time.Time
	if j.Attempt < j.MaxAttempts {
		t := w.next(j)
		next = &t
	}
	run := domain.DeliveryRun{Scope: domain.Scope{CustomerID: j.Args.CustomerID, Mode: domain.Mode(j.Args.Mode)},
		WebhookID: j.Args.WebhookID, EventID: j.Args.EventID}
	res, err := w.deliver(ctx, run, j.Attempt, next)
	switch {
	case err != nil && domain.Unreachable(err):
		// Our database, not the receiver, failed: try again shortly
		// without using up an attempt or waiting out the receiver's
		// backoff (a snooze raises MaxAttempts by one).
		return river.JobSnooze(databaseRetry)
	case err != nil:
		return err
	case res == domain.DeliveryRetry:
		return errors.New("webhook delivery failed; retrying")
	case res == domain.DeliveryGiveUp:
		return river.JobCancel(errors.New("webhook delivery failed for good"))
	}
	return nil
}

func (q *Queue) insertDelivery(ctx context.Context, tx *sql.Tx, r domain.DeliveryRun) error {
	return q.insertArgs(ctx, tx, deliveryJob(r).Args, deliveryJob(r).InsertOpts)
}

// insertDeliveries queues many deliveries in tx with one statement.
func (q *Queue) insertDeliveries(ctx context.Context, tx *sql.Tx, runs []domain.DeliveryRun) error {
	params := make([]river.InsertManyParams, len(runs))
	for i, r := range runs {
		params[i] = deliveryJob(r)
	}
	_, err := q.client.InsertManyTx(ctx, tx, params)
	return err
}

func deliveryJob(r domain.DeliveryRun) river.InsertManyParams {
	return river.InsertManyParams{
		Args:       deliveryArgs{CustomerID: r.Scope.CustomerID, Mode: string(r.Scope.Mode), WebhookID: r.WebhookID, EventID: r.EventID},
		InsertOpts: &river.InsertOpts{Queue: webhookQueue, MaxAttempts: domain.WebhookMaxAttempts},
	}
}

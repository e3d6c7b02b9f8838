package storage

import (
	"context"
	"database/sql"
	"time"

	"github.com/riverqueue/river"

	"payline/domain"
)

// disputeNoticeArgs is the River job that tells a disputed item's source
// of the dispute (domain.DisputeService.NotifyFurnisher). Its arguments
// are unique: a dispute's notice is queued once. It holds no note: the
// worker reads it, sealed, from the dispute.
type disputeNoticeArgs struct {
	CustomerID string `json:"customer_id"`
	Mode       string `json:"mode"`
	DisputeID  string `json:"dispute_id"`
}

func (disputeNoticeArgs) Kind() string { return "dispute_notice" }

// DisputeNoticeFunc sends one dispute's notice; final says this is the
// last attempt.
type DisputeNoticeFunc func(ctx context.Context, r domain.DisputeNoticeRun, final bool) error

// disputeNoticeAttempts is how many times a notice is tried: with
// disputeNoticeRetry doubling from a minute, the last try comes about 17
// hours after the first, well inside the 5 business days.
const disputeNoticeAttempts = 11

type disputeNoticeWorker struct {
	river.WorkerDefaults[disputeNoticeArgs]
	notify DisputeNoticeFunc
	retry  time.Duration // the wait after the first failure; it doubles
}

func (w *disputeNoticeWorker) Timeout(*river.Job[disputeNoticeArgs]) time.Duration { return jobTimeout }

// NextRetry spaces a notice's tries: retry, then twice that, and so on.
func (w *disputeNoticeWorker) NextRetry(j *river.Job[disputeNoticeArgs]) time.Time {
	return time.Now().Add(w.retry << max(0, j.Attempt-1))
}

func (w *disputeNoticeWorker) Work(ctx context.Context, j *river.Job[disputeNoticeArgs]) error {
	if w.notify == nil {
		return river.JobSnooze(time.Minute) // a process without the service leaves it to one with it
	}
	return w.notify(ctx, domain.DisputeNoticeRun{Scope: domain.Scope{CustomerID: j.Args.CustomerID, Mode: domain.Mode(j.Args.Mode)},
		ID: j.Args.DisputeID}, j.Attempt >= j.MaxAttempts)
}

// insertDisputeNotice queues one dispute's notice, once.
func (q *Queue) insertDisputeNotice(ctx context.Context, tx *sql.Tx, r domain.DisputeNoticeRun) error {
	args := disputeNoticeArgs{CustomerID: r.Scope.CustomerID, Mode: string(r.Scope.Mode), DisputeID: r.ID}
	return q.insertArgs(ctx, tx, args, &river.InsertOpts{MaxAttempts: disputeNoticeAttempts, UniqueOpts: river.UniqueOpts{ByArgs: true}})
}

// disputeSweepArgs starts a sweep of disputes past their due time
// (domain.DisputeService.SweepOverdue).
type disputeSweepArgs struct{}

func (disputeSweepArgs) Kind() string { return "dispute_overdue_sweep" }

type disputeSweepWorker struct {
	river.WorkerDefaults[disputeSweepArgs]
	sweep PassFunc
}

func (w *disputeSweepWorker) Timeout(*river.Job[disputeSweepArgs]) time.Duration { return jobTimeout }

func (w *disputeSweepWorker) Work(ctx context.Context, _ *river.Job[disputeSweepArgs]) error {
	return runChunk(ctx, w.sweep)
}

// DefaultDisputeSweep is how often the leader looks for overdue disputes.
const DefaultDisputeSweep = 5 * time.Minute

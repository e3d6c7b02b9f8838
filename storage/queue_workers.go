package storage

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"payline/domain"
)

// payrollJobArgs is the River job that runs one payroll job.
type payrollJobArgs struct {
	CustomerID string `json:"customer_id"`
	Mode       string `json:"mode"`
	JobID      string `json:"job_id"`
}

func (payrollJobArgs) Kind() string { return "payroll_job" }

// JobRunner attempts a job and says how long to wait while it is pending
// (domain.JobService.Run, which judges how long a job may stay pending by
// its clock); an error is a failure River retries.
type JobRunner func(ctx context.Context, r domain.JobRun) (time.Duration, error)

type payrollWorker struct {
	river.WorkerDefaults[payrollJobArgs]
	run JobRunner
}

// Timeout bounds one attempt at a payroll job (a real connector talks to
// the platform here).
func (w *payrollWorker) Timeout(*river.Job[payrollJobArgs]) time.Duration { return jobTimeout }

// Every worker's timeout is at most jobTimeout, and River rescues a job
// left running by a dead process only after rescueAfter: well above it, so
// a job still being worked is never run twice by the rescuer.
const (
	jobTimeout  = time.Minute
	rescueAfter = 2 * jobTimeout
)

// directorySyncEvery is how often a relayed mode syncs its upstream's
// directory again (each pass after the first reads only what changed).
const directorySyncEvery = time.Hour

// Work runs the job; while the runner asks for a wait the job snoozes
// (which does not spend an attempt), a failure is retried by River.
func (w *payrollWorker) Work(ctx context.Context, j *river.Job[payrollJobArgs]) error {
	wait, err := w.run(ctx, domain.JobRun{
		Scope: domain.Scope{CustomerID: j.Args.CustomerID, Mode: domain.Mode(j.Args.Mode)}, JobID: j.Args.JobID})
	if err != nil {
		return err
	}
	if wait > 0 {
		return river.JobSnooze(wait)
	}
	return nil
}

// pruneArgs starts a retention pass.
type pruneArgs struct{}

func (pruneArgs) Kind() string { return "retention_prune" }

type pruneWorker struct {
	river.WorkerDefaults[pruneArgs]
	prune func(ctx context.Context) error
}

func (w *pruneWorker) Timeout(*river.Job[pruneArgs]) time.Duration { return time.Hour }

func (w *pruneWorker) Work(ctx context.Context, _ *river.Job[pruneArgs]) error {
	if w.prune == nil {
		return nil
	}
	return w.prune(ctx)
}

// reconcileArgs runs reconciliation with the upstream
// (domain.RelayService.Reconcile), a chunk at a time.
type reconcileArgs struct{}

func (reconcileArgs) Kind() string { return "upstream_reconcile" }

type reconcileWorker struct {
	river.WorkerDefaults[reconcileArgs]
	reconcile PassFunc
}

func (w *reconcileWorker) Timeout(*river.Job[reconcileArgs]) time.Duration { return jobTimeout }

func (w *reconcileWorker) Work(ctx context.Context, _ *river.Job[reconcileArgs]) error {
	return runChunk(ctx, w.reconcile)
}

// directorySyncArgs runs the upstream directory's sync
// (domain.RelayService.SyncDirectory), a chunk at a time.
type directorySyncArgs struct{}

func (directorySyncArgs) Kind() string { return "upstream_directory_sync" }

type directorySyncWorker struct {
	river.WorkerDefaults[directorySyncArgs]
	sync PassFunc
}

func (w *directorySyncWorker) Timeout(*river.Job[directorySyncArgs]) time.Duration { return jobTimeout }

func (w *directorySyncWorker) Work(ctx context.Context, _ *river.Job[directorySyncArgs]) error {
	return runChunk(ctx, w.sync)
}

// PassFunc runs a resumable pass (a directory sync, a reconciliation)
// until it is complete or ctx ends, and says whether more is left.
type PassFunc func(ctx context.Context) (more bool, err error)

// passChunk is how long one River job works on a pass before it snoozes
// and goes on (well inside jobTimeout; the pass stores where it stands).
const passChunk = 45 * time.Second

// runChunk works a pass for at most passChunk. A pass with more to do,
// or cut short by its chunk's end, snoozes a second and goes on where it
// stopped; an upstream that is away snoozes for its Retry-After (a
// snooze spends no attempt); other failures are River's to retry.
func runChunk(ctx context.Context, pass PassFunc) error {
	if pass == nil {
		return nil
	}
	chunk, cancel := context.WithTimeout(ctx, passChunk)
	defer cancel()
	more, err := pass(chunk)
	var de *domain.Error
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case chunk.Err() != nil || err == nil && more:
		return river.JobSnooze(time.Second)
	case errors.As(err, &de) && de.Kind == domain.KindUnavailable:
		return river.JobSnooze(max(de.RetryAfter, time.Second))
	}
	return err
}

// liveStates are the job states in which a unique job blocks another
// insert of itself: one pass at a time, but a new one may start as soon
// as the last completed (a restart reconciles at once).
var liveStates = []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
	rivertype.JobStateScheduled, rivertype.JobStateRetryable}

// passAttempts is how many failures a pass's job survives (each failure
// waits River's growing backoff; the pass resumes where it stopped).
const passAttempts = 25

// ingestArgs is a follow-up ingest of an upstream account
// (domain.IngestRun).
type ingestArgs struct {
	Source    string `json:"source,omitempty"`
	AccountID string `json:"account_id"`
	Attempt   int    `json:"attempt"`
}

func (ingestArgs) Kind() string { return "upstream_ingest" }

type ingestWorker struct {
	river.WorkerDefaults[ingestArgs]
	ingest func(ctx context.Context, r domain.IngestRun) error
}

func (w *ingestWorker) Timeout(*river.Job[ingestArgs]) time.Duration { return jobTimeout }

func (w *ingestWorker) Work(ctx context.Context, j *river.Job[ingestArgs]) error {
	if w.ingest == nil {
		return nil
	}
	return w.ingest(ctx, domain.IngestRun{Source: j.Args.Source, AccountID: j.Args.AccountID, Attempt: j.Args.Attempt, At: j.ScheduledAt})
}

// insertIngest queues a follow-up ingest for r.At; a second request for
// the same account and attempt is the first.
func (q *Queue) insertIngest(ctx context.Context, tx *sql.Tx, r domain.IngestRun) error {
	unique := river.UniqueOpts{ByArgs: true}
	if r.Attempt == 0 { // a delivery's deferred ingest: one waiting at a time, as often as needed
		unique.ByState = liveStates
	}
	return q.insertArgs(ctx, tx, ingestArgs{Source: r.Source, AccountID: r.AccountID, Attempt: r.Attempt}, &river.InsertOpts{MaxAttempts: 10,
		ScheduledAt: r.At, UniqueOpts: unique})
}

// monitoringArgs is one step of scheduling monitoring refreshes: a batch
// of accounts after After. A step that did not reach the end queues the
// next one, so no job runs long.
type monitoringArgs struct {
	After string `json:"after,omitempty"`
}

func (monitoringArgs) Kind() string { return "monitoring_schedule" }

type monitoringWorker struct {
	river.WorkerDefaults[monitoringArgs]
	schedule func(ctx context.Context, after string) (string, error)
	client   func() *river.Client[*sql.Tx]
}

func (w *monitoringWorker) Timeout(*river.Job[monitoringArgs]) time.Duration { return jobTimeout }

func (w *monitoringWorker) Work(ctx context.Context, j *river.Job[monitoringArgs]) error {
	next, err := w.schedule(ctx, j.Args.After)
	if err != nil || next == "" {
		return err
	}
	_, err = w.client().Insert(ctx, monitoringArgs{After: next}, &river.InsertOpts{MaxAttempts: 3})
	return err
}

// refreshArgs refreshes one monitored account.
type refreshArgs struct {
	CustomerID string `json:"customer_id"`
	Mode       string `json:"mode"`
	AccountID  string `json:"account_id"`
}

func (refreshArgs) Kind() string { return "monitoring_refresh" }

type refreshWorker struct {
	river.WorkerDefaults[refreshArgs]
	refresh func(ctx context.Context, r domain.RefreshRun) error
}

func (w *refreshWorker) Timeout(*river.Job[refreshArgs]) time.Duration { return jobTimeout }

func (w *refreshWorker) Work(ctx context.Context, j *river.Job[refreshArgs]) error {
	return w.refresh(ctx, domain.RefreshRun{Scope: domain.Scope{CustomerID: j.Args.CustomerID, Mode: domain.Mode(j.Args.Mode)},
		AccountID: j.Args.AccountID})
}

// insertRefresh queues a refresh of an account, at most one per account
// per monitoring period however often it is asked for.
func (q *Queue) insertRefresh(ctx context.Context, tx *sql.Tx, r domain.RefreshRun) error {
	args := refreshArgs{CustomerID: r.Scope.CustomerID, Mode: string(r.Scope.Mode), AccountID: r.AccountID}
	return q.insertArgs(ctx, tx, args, &river.InsertOpts{MaxAttempts: 3,
		UniqueOpts: river.UniqueOpts{ByArgs: true, ByPeriod: q.monitoring}})
}

package storage

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"payline/domain"
)

// payrollJobArgs is the River job that runs one payroll job.
type payrollJobArgs struct {
	CustomerID string `json:"customer_id"`
	Mode       string `json:"mode"`
	JobID      string `json:"job_id"`
}

func (payrollJobArgs) Kind() string { return "payroll_job" }

// JobRunner attempts a job and says how long to wait while it is pending.
type JobRunner func(ctx context.Context, r domain.JobRun) (time.Duration, error)

type payrollWorker struct {
	river.WorkerDefaults[payrollJobArgs]
	run JobRunner
}

// Work runs the job; a pending job snoozes (which does not spend an
// attempt) until its outcome is final, a failure is retried by River.
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

// Queue is Payline's River client: durable payroll job runs on the same
// database as everything else.
type Queue struct {
	client *river.Client[*sql.Tx]
	worker *payrollWorker
}

// QueueConfig tunes the queue; zero values pick the defaults.
type QueueConfig struct {
	Logger       *slog.Logger
	PollInterval time.Duration
	Workers      int
}

// NewQueue builds the client; runs start with Start.
func NewQueue(db *DB, cfg QueueConfig) (*Queue, error) {
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = 200 * time.Millisecond
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 10
	}
	w := &payrollWorker{}
	workers := river.NewWorkers()
	river.AddWorker(workers, w)
	client, err := river.NewClient(db.RiverDriver(), &river.Config{
		Queues:            map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: cfg.Workers}},
		Workers:           workers,
		FetchPollInterval: cfg.PollInterval,
		FetchCooldown:     cfg.PollInterval / 4,
		Logger:            cfg.Logger,
	})
	if err != nil {
		return nil, err
	}
	return &Queue{client: client, worker: w}, nil
}

// Start begins working queued runs with run.
func (q *Queue) Start(ctx context.Context, run JobRunner) error {
	if run == nil {
		return errors.New("queue: no job runner")
	}
	q.worker.run = run
	return q.client.Start(ctx)
}

// Stop waits for running jobs to finish (up to ctx's deadline).
func (q *Queue) Stop(ctx context.Context) error {
	return q.client.Stop(ctx)
}

// insert queues a run, inside tx when one is given.
func (q *Queue) insert(ctx context.Context, tx *sql.Tx, r domain.JobRun) error {
	args := payrollJobArgs{CustomerID: r.Scope.CustomerID, Mode: string(r.Scope.Mode), JobID: r.JobID}
	opts := &river.InsertOpts{MaxAttempts: 10}
	var err error
	if tx != nil {
		_, err = q.client.InsertTx(ctx, tx, args, opts)
	} else {
		_, err = q.client.Insert(ctx, args, opts)
	}
	return err
}

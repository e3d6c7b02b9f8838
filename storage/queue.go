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

// Queue is Payline's River client: durable payroll job runs and webhook
// deliveries on the same database as everything else.
type Queue struct {
	client    *river.Client[*sql.Tx]
	worker    *payrollWorker
	deliverer *deliveryWorker
	monitor   *monitoringWorker
}

// QueueConfig tunes the queue; zero values pick the defaults.
type QueueConfig struct {
	Logger         *slog.Logger
	PollInterval   time.Duration
	Workers        int
	WebhookWorkers int
	// Retry spaces webhook retries; tests scale it down.
	Retry RetrySchedule
	// MonitoringInterval is how often monitored accounts are refreshed
	// (default one hour).
	MonitoringInterval time.Duration
}

// Runners are the functions the queue's workers call.
type Runners struct {
	Job      JobRunner
	Delivery DeliveryFunc
	// Monitoring refreshes monitored accounts; it runs every
	// QueueConfig.MonitoringInterval on the leader process.
	Monitoring func(ctx context.Context) (int, error)
}

type monitoringArgs struct{}

func (monitoringArgs) Kind() string { return "monitoring_refresh" }

type monitoringWorker struct {
	river.WorkerDefaults[monitoringArgs]
	run func(ctx context.Context) (int, error)
}

func (w *monitoringWorker) Timeout(*river.Job[monitoringArgs]) time.Duration { return 30 * time.Minute }

func (w *monitoringWorker) Work(ctx context.Context, _ *river.Job[monitoringArgs]) error {
	_, err := w.run(ctx)
	return err
}

// NewQueue builds the client; runs start with Start.
func NewQueue(db *DB, cfg QueueConfig) (*Queue, error) {
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = 200 * time.Millisecond
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 10
	}
	if cfg.WebhookWorkers <= 0 {
		cfg.WebhookWorkers = 50
	}
	if cfg.Retry.Base <= 0 {
		cfg.Retry = DefaultRetrySchedule
	}
	if cfg.MonitoringInterval <= 0 {
		cfg.MonitoringInterval = time.Hour
	}
	w := &payrollWorker{}
	d := &deliveryWorker{retry: cfg.Retry}
	m := &monitoringWorker{}
	workers := river.NewWorkers()
	river.AddWorker(workers, w)
	river.AddWorker(workers, d)
	river.AddWorker(workers, m)
	client, err := river.NewClient(db.RiverDriver(), &river.Config{
		Queues: map[string]river.QueueConfig{
			river.QueueDefault: {MaxWorkers: cfg.Workers},
			webhookQueue:       {MaxWorkers: cfg.WebhookWorkers},
		},
		Workers:           workers,
		FetchPollInterval: cfg.PollInterval,
		FetchCooldown:     cfg.PollInterval / 4,
		// A process killed mid-job leaves it running; rescue it once no
		// job could still be working (payroll jobs run a minute at most,
		// deliveries 25 seconds).
		RescueStuckJobsAfter: 2 * time.Minute,
		PeriodicJobs: []*river.PeriodicJob{river.NewPeriodicJob(river.PeriodicInterval(cfg.MonitoringInterval),
			func() (river.JobArgs, *river.InsertOpts) { return monitoringArgs{}, &river.InsertOpts{MaxAttempts: 1} }, nil)},
		Logger: cfg.Logger,
	})
	if err != nil {
		return nil, err
	}
	return &Queue{client: client, worker: w, deliverer: d, monitor: m}, nil
}

// Start begins working queued runs.
func (q *Queue) Start(ctx context.Context, r Runners) error {
	if r.Job == nil || r.Delivery == nil || r.Monitoring == nil {
		return errors.New("queue: job, delivery and monitoring functions are all needed")
	}
	q.worker.run, q.deliverer.deliver, q.monitor.run = r.Job, r.Delivery, r.Monitoring
	return q.client.Start(ctx)
}

// StopAndCancel stops at once, cancelling running work, as a crash would;
// cancelled attempts are retried by the next process.
func (q *Queue) StopAndCancel(ctx context.Context) error {
	return q.client.StopAndCancel(ctx)
}

// Stop waits for running jobs to finish (up to ctx's deadline).
func (q *Queue) Stop(ctx context.Context) error {
	return q.client.Stop(ctx)
}

// insert queues a run, inside tx when one is given.
func (q *Queue) insert(ctx context.Context, tx *sql.Tx, r domain.JobRun) error {
	args := payrollJobArgs{CustomerID: r.Scope.CustomerID, Mode: string(r.Scope.Mode), JobID: r.JobID}
	return q.insertArgs(ctx, tx, args, &river.InsertOpts{MaxAttempts: 10})
}

// insertArgs queues a River job, inside tx when one is given so it
// commits with the change that caused it.
func (q *Queue) insertArgs(ctx context.Context, tx *sql.Tx, args river.JobArgs, opts *river.InsertOpts) error {
	var err error
	if tx != nil {
		_, err = q.client.InsertTx(ctx, tx, args, opts)
	} else {
		_, err = q.client.Insert(ctx, args, opts)
	}
	return err
}

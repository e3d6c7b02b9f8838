package storage

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"payline/domain"
)

// Queue is Payline's River client: durable payroll job runs, webhook
// deliveries and monitoring refreshes on the same database as everything
// else.
type Queue struct {
	// client inserts jobs (in the caller's *sql.Tx); runner works them.
	// They are one client except on PostgreSQL, where runner listens for
	// inserts over pgx (see newNotifiedClients) and pool is its own.
	client     *river.Client[*sql.Tx]
	runner     riverRunner
	pool       *pgxpool.Pool
	worker     *payrollWorker
	deliverer  *deliveryWorker
	scheduler  *monitoringWorker
	reconciler *reconcileWorker
	pruner     *pruneWorker
	ingester   *ingestWorker
	// directorySync syncs an upstream's directory (relayed modes).
	directorySync *directorySyncWorker
	refresher     *refreshWorker
	// orderMessages sends Link orders' messages; orderSweep expires them
	// and queues their reminders.
	orderMessages *linkOrderMessageWorker
	orderSweep    *linkOrderSweepWorker
	// disputeNotices tell disputed items' sources; disputeSweep raises
	// dispute.overdue.
	disputeNotices *disputeNoticeWorker
	disputeSweep   *disputeSweepWorker
	monitoring     time.Duration
	db             *DB
	running        atomic.Bool
	rescuer        *rescuer
	// stopRescuer ends the heartbeat goroutine, which closes rescuerDone.
	stopRescuer context.CancelFunc
	rescuerDone chan struct{}
	// endRun ends the context River was started with, once it stopped.
	endRun context.CancelFunc
}

// riverRunner is what the queue needs of the client that works jobs,
// whatever its driver.
type riverRunner interface {
	Start(ctx context.Context) error
	Stop(ctx context.Context) error
	StopAndCancel(ctx context.Context) error
	ID() string
}

// QueueConfig tunes the queue; zero values pick the defaults.
type QueueConfig struct {
	Logger       *slog.Logger
	PollInterval time.Duration
	Workers      int
	// WebhookWorkers deliver at once (default 100): a delivery spends most
	// of its time waiting on the receiver and on grouped statements, so
	// the delivery rate grows with it (50 gave ~900/s, 100 ~1,200/s on
	// the 2-core benchmark machine; docs/benchmarks.md).
	WebhookWorkers int
	// Retry spaces webhook retries; tests scale it down.
	Retry RetrySchedule
	// MonitoringInterval is how often monitored accounts are refreshed
	// (default one hour).
	MonitoringInterval time.Duration
	// InstanceID names the process; its queue client is the instance id
	// and the start time, unique per start.
	InstanceID string
	// HeartbeatEvery and DeadAfter tune the crash rescue (see rescuer);
	// zero takes DefaultHeartbeatEvery and DefaultDeadAfter.
	HeartbeatEvery, DeadAfter time.Duration
	// OrphanAfter is how long a job this process's database shows running
	// but no worker here runs stays so before it is queued again (see
	// rescuer); zero is 15 s.
	OrphanAfter time.Duration
	// ReconcileInterval is how often a relayed mode reconciles with its
	// upstream (Runners.Reconcile); zero when nothing is relayed.
	ReconcileInterval time.Duration
	// PruneInterval is how often Runners.Prune applies the retention
	// policy (zero: daily).
	PruneInterval time.Duration
	// Clock is this process's clock (time.Now when nil). The rescuer uses
	// it only for its own timings; heartbeats go by the database's clock.
	Clock func() time.Time
	// LinkOrderSweep is how often the leader sweeps Link orders for
	// expiries, reminders and messages held by quiet hours
	// (DefaultLinkOrderSweep when zero; tests shorten it).
	LinkOrderSweep time.Duration
	// MessageRetry is the wait before a failed Link order message is tried
	// again, doubling each time (30 s when zero; tests shorten it).
	MessageRetry time.Duration
	// DisputeSweep is how often the leader looks for overdue disputes
	// (DefaultDisputeSweep when zero; tests shorten it); NoticeRetry is
	// the wait before a failed dispute notice is tried again, doubling
	// each time (a minute when zero).
	DisputeSweep, NoticeRetry time.Duration
	// PollOnly keeps PostgreSQL's workers polling every PollInterval
	// instead of listening for inserts (the baseline of the webhook
	// benchmark).
	PollOnly bool
}

// Runners are the functions the queue's workers call.
type Runners struct {
	Job      JobRunner
	Delivery DeliveryFunc
	// Schedule queues refreshes of one batch of monitored accounts after
	// an id and returns the id to continue from ("" at the end); see
	// domain.MonitoringService.Schedule. It starts every
	// QueueConfig.MonitoringInterval on the leader process.
	Schedule func(ctx context.Context, after string) (string, error)
	// Refresh refreshes one account.
	Refresh func(ctx context.Context, r domain.RefreshRun) error
	// Reconcile, in a relayed mode, ingests what the upstream's webhooks
	// missed; it runs at start and every QueueConfig.ReconcileInterval on
	// the leader process, a chunk at a time until its pass is complete.
	Reconcile PassFunc
	// SyncDirectory, in a relayed mode, syncs the upstream's directory; it
	// runs at start and hourly, a chunk at a time until its pass is
	// complete.
	SyncDirectory PassFunc
	// Prune applies the retention policy; it runs at start and every
	// QueueConfig.PruneInterval on the leader process.
	Prune func(ctx context.Context) error
	// Ingest, in a relayed mode, is a follow-up ingest of an upstream
	// account (domain.RelayService.FollowUp).
	Ingest func(ctx context.Context, r domain.IngestRun) error
	// LinkOrderMessage sends one message of a Link order
	// (domain.LinkOrderService.SendMessage); LinkOrderSweep advances the
	// orders with something due (domain.LinkOrderService.Sweep), on the
	// leader every QueueConfig.LinkOrderSweep. Nil leaves them queued for
	// a process that has them.
	LinkOrderMessage LinkOrderMessageFunc
	LinkOrderSweep   PassFunc
	// DisputeNotice tells a disputed item's source
	// (domain.DisputeService.NotifyFurnisher); DisputeSweep raises
	// dispute.overdue (domain.DisputeService.SweepOverdue), on the leader
	// every QueueConfig.DisputeSweep. Nil leaves them queued for a process
	// that has them.
	DisputeNotice DisputeNoticeFunc
	DisputeSweep  PassFunc
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
		cfg.WebhookWorkers = 100
	}
	if cfg.Retry.Base <= 0 {
		cfg.Retry = DefaultRetrySchedule
	}
	if cfg.MonitoringInterval <= 0 {
		cfg.MonitoringInterval = time.Hour
	}
	q := &Queue{db: db, worker: &payrollWorker{}, deliverer: &deliveryWorker{retry: cfg.Retry}, refresher: &refreshWorker{},
		monitoring: cfg.MonitoringInterval}
	q.scheduler = &monitoringWorker{client: func() *river.Client[*sql.Tx] { return q.client }}
	workers := river.NewWorkers()
	river.AddWorker(workers, q.worker)
	river.AddWorker(workers, q.deliverer)
	river.AddWorker(workers, q.scheduler)
	river.AddWorker(workers, q.refresher)
	q.reconciler = &reconcileWorker{}
	river.AddWorker(workers, q.reconciler)
	q.pruner = &pruneWorker{}
	river.AddWorker(workers, q.pruner)
	q.ingester = &ingestWorker{}
	river.AddWorker(workers, q.ingester)
	q.directorySync = &directorySyncWorker{}
	river.AddWorker(workers, q.directorySync)
	q.orderMessages = &linkOrderMessageWorker{retry: cmp.Or(cfg.MessageRetry, 30*time.Second)}
	river.AddWorker(workers, q.orderMessages)
	q.orderSweep = &linkOrderSweepWorker{}
	river.AddWorker(workers, q.orderSweep)
	q.disputeNotices = &disputeNoticeWorker{retry: cmp.Or(cfg.NoticeRetry, time.Minute)}
	river.AddWorker(workers, q.disputeNotices)
	q.disputeSweep = &disputeSweepWorker{}
	river.AddWorker(workers, q.disputeSweep)
	if cfg.HeartbeatEvery <= 0 {
		cfg.HeartbeatEvery = DefaultHeartbeatEvery
	}
	if cfg.DeadAfter <= 0 {
		cfg.DeadAfter = DefaultDeadAfter
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	started := time.Now()
	clientID := ""
	if cfg.InstanceID != "" {
		clientID = fmt.Sprintf("%s@%d", cfg.InstanceID, started.UnixNano())
	}
	working := newWorkingSet()
	periodic := []*river.PeriodicJob{river.NewPeriodicJob(river.PeriodicInterval(cfg.MonitoringInterval),
		func() (river.JobArgs, *river.InsertOpts) { return monitoringArgs{}, &river.InsertOpts{MaxAttempts: 3} }, nil)}
	pruneEvery := cfg.PruneInterval
	if pruneEvery <= 0 {
		pruneEvery = 24 * time.Hour
	}
	periodic = append(periodic, river.NewPeriodicJob(river.PeriodicInterval(pruneEvery),
		func() (river.JobArgs, *river.InsertOpts) {
			return pruneArgs{}, &river.InsertOpts{MaxAttempts: 3, UniqueOpts: river.UniqueOpts{ByPeriod: pruneEvery}}
		}, &river.PeriodicJobOpts{RunOnStart: true}))
	sweepEvery := cmp.Or(cfg.LinkOrderSweep, DefaultLinkOrderSweep)
	periodic = append(periodic, river.NewPeriodicJob(river.PeriodicInterval(sweepEvery),
		func() (river.JobArgs, *river.InsertOpts) {
			return linkOrderSweepArgs{}, &river.InsertOpts{MaxAttempts: passAttempts, UniqueOpts: river.UniqueOpts{ByState: liveStates}}
		}, &river.PeriodicJobOpts{RunOnStart: true}))
	disputesEvery := cmp.Or(cfg.DisputeSweep, DefaultDisputeSweep)
	periodic = append(periodic, river.NewPeriodicJob(river.PeriodicInterval(disputesEvery),
		func() (river.JobArgs, *river.InsertOpts) {
			return disputeSweepArgs{}, &river.InsertOpts{MaxAttempts: passAttempts, UniqueOpts: river.UniqueOpts{ByState: liveStates}}
		}, &river.PeriodicJobOpts{RunOnStart: true}))
	if cfg.ReconcileInterval > 0 {
		passOpts := &river.InsertOpts{MaxAttempts: passAttempts, UniqueOpts: river.UniqueOpts{ByState: liveStates}}
		periodic = append(periodic, river.NewPeriodicJob(river.PeriodicInterval(cfg.ReconcileInterval),
			func() (river.JobArgs, *river.InsertOpts) { return reconcileArgs{}, passOpts }, &river.PeriodicJobOpts{RunOnStart: true}),
			river.NewPeriodicJob(river.PeriodicInterval(directorySyncEvery),
				func() (river.JobArgs, *river.InsertOpts) { return directorySyncArgs{}, passOpts }, &river.PeriodicJobOpts{RunOnStart: true}))
	}
	config := &river.Config{
		ID: clientID,
		Queues: map[string]river.QueueConfig{
			river.QueueDefault: {MaxWorkers: cfg.Workers},
			webhookQueue:       {MaxWorkers: cfg.WebhookWorkers},
		},
		Workers:           workers,
		FetchPollInterval: cfg.PollInterval,
		FetchCooldown:     cfg.PollInterval / 4,
		// A process killed mid-job leaves it running; rescue it once no
		// job could still be working (see jobTimeout). The heartbeat
		// rescuer usually does it much sooner.
		RescueStuckJobsAfter: rescueAfter,
		PeriodicJobs:         periodic,
		Logger:               newRiverLogger(cfg.Logger),
		Middleware:           []rivertype.Middleware{working, &cutOff{stopping: func() bool { return !q.running.Load() }}},
	}
	if db.Dialect == SQLite || cfg.PollOnly {
		client, err := river.NewClient(db.RiverDriver(), config)
		if err != nil {
			return nil, err
		}
		q.client, q.runner = client, client
	} else if err := q.newNotifiedClients(db, config); err != nil {
		return nil, err
	}
	q.rescuer = &rescuer{db: db, clientID: q.runner.ID(), instanceID: cfg.InstanceID, every: cfg.HeartbeatEvery,
		deadAfter: cfg.DeadAfter, orphanAfter: cmp.Or(cfg.OrphanAfter, orphanAfter), log: cfg.Logger, now: cfg.Clock,
		running: q.runningJobs, working: working}
	if q.rescuer.now == nil {
		q.rescuer.now = time.Now
	}
	return q, nil
}

// newNotifiedClients splits the queue on PostgreSQL in two River clients:
// jobs are inserted through database/sql (lib/pq), in the same *sql.Tx as
// the rows that cause them, and that insert sends River's NOTIFY; they are
// worked by a client on pgx, River's only PostgreSQL driver with a
// listener, so a new job is fetched as soon as its transaction commits
// instead of at the next poll.
func (q *Queue) newNotifiedClients(db *DB, config *river.Config) error {
	pc, err := pgxpool.ParseConfig(db.dsn)
	if err != nil {
		return fmt.Errorf("job queue connection: %w", err)
	}
	// One connection listens; the rest fetch, complete and run River's
	// maintenance.
	pc.MaxConns = 8
	pool, err := pgxpool.NewWithConfig(context.Background(), pc)
	if err != nil {
		return fmt.Errorf("job queue connection: %w", err)
	}
	runner, err := river.NewClient(riverpgxv5.New(pool), config)
	if err != nil {
		pool.Close()
		return err
	}
	inserts := *config
	inserts.ID, inserts.Queues, inserts.PeriodicJobs = "", nil, nil
	inserter, err := river.NewClient(db.RiverDriver(), &inserts)
	if err != nil {
		pool.Close()
		return err
	}
	q.client, q.runner, q.pool = inserter, runner, pool
	return nil
}

// runningJobs lists every job River shows running, through River's API
// (a page of runningPage at a time).
func (q *Queue) runningJobs(ctx context.Context) ([]*rivertype.JobRow, error) {
	var out []*rivertype.JobRow
	params := river.NewJobListParams().States(rivertype.JobStateRunning).First(runningPage)
	for {
		res, err := q.client.JobList(ctx, params)
		if err != nil {
			return nil, translate(err)
		}
		out = append(out, res.Jobs...)
		if len(res.Jobs) < runningPage {
			return out, nil
		}
		params = params.After(res.LastCursor)
	}
}

// runningPage is how many running jobs one JobList call reads.
const runningPage = 1000

// Rescued counts the jobs this process queued again after the instance
// running them died.
func (q *Queue) Rescued() int64 { return q.rescuer.rescued.Load() }

// Start begins working queued runs. ctx bounds the start alone (the
// first heartbeat and River's first query; give it a deadline): once
// started, the queue runs until Stop or StopAndCancel whatever becomes of
// ctx, because River cancels every running job the moment the context it
// started with ends, and a shutdown must let them finish instead.
func (q *Queue) Start(ctx context.Context, r Runners) error {
	if r.Job == nil || r.Delivery == nil || r.Schedule == nil || r.Refresh == nil {
		return errors.New("queue: job, delivery, schedule and refresh functions are all needed")
	}
	q.worker.run, q.deliverer.deliver, q.scheduler.schedule, q.refresher.refresh = r.Job, r.Delivery, r.Schedule, r.Refresh
	q.reconciler.reconcile = r.Reconcile
	q.pruner.prune = r.Prune
	q.ingester.ingest = r.Ingest
	q.directorySync.sync = r.SyncDirectory
	q.orderMessages.send = r.LinkOrderMessage
	q.orderSweep.sweep = r.LinkOrderSweep
	q.disputeNotices.notify = r.DisputeNotice
	q.disputeSweep.sweep = r.DisputeSweep
	// The first heartbeat is part of starting: it answers within the
	// caller's context and a deadline. The clients then run until Stop,
	// whatever becomes of the caller's context (a start's context ends
	// when starting does; stopping is Stop's, which lets jobs finish).
	beat, cancel := context.WithTimeout(ctx, 10*time.Second)
	err := q.rescuer.beat(beat)
	cancel()
	if err != nil {
		return fmt.Errorf("queue heartbeat: %w", err)
	}
	if err := q.startRunner(ctx); err != nil {
		return err
	}
	beating, stop := context.WithCancel(context.WithoutCancel(ctx))
	q.stopRescuer = stop
	q.rescuerDone = make(chan struct{})
	go func() {
		defer close(q.rescuerDone)
		q.rescuer.run(beating)
	}()
	q.running.Store(true)
	return nil
}

// startRunner starts River on a context of its own, which Stop ends,
// cancelled too if ctx ends before River has started (a database that does
// not answer cannot hold the start past ctx's deadline).
func (q *Queue) startRunner(ctx context.Context) error {
	run, cancel := context.WithCancel(context.WithoutCancel(ctx))
	abort := context.AfterFunc(ctx, cancel)
	err := q.runner.Start(run)
	if !abort() { // ctx ended while River started: it stops at once
		cancel()
		stopCtx, stop := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer stop()
		stopErr := q.runner.StopAndCancel(stopCtx)
		return fmt.Errorf("the queue did not start in time: %w", errors.Join(context.Cause(ctx), err, stopErr))
	}
	if err != nil {
		cancel()
		return err
	}
	q.endRun = cancel
	return nil
}

// closePool closes the pgx connections of the working client, if any.
func (q *Queue) closePool() {
	if q.pool != nil {
		q.pool.Close()
	}
}

// stopBeating ends the heartbeat, marking this client stopped.
func (q *Queue) stopBeating() {
	if q.stopRescuer != nil {
		q.stopRescuer()
		<-q.rescuerDone
		q.stopRescuer = nil
	}
}

// Running reports whether this process works the queue (Start was called
// and Stop was not).
func (q *Queue) Running() bool { return q.running.Load() }

// Depth counts the queue's jobs by state (available, running, retryable,
// scheduled, ...), across every instance.
func (q *Queue) Depth(ctx context.Context) (map[string]int, error) {
	var rows []struct {
		State string `db:"state"`
		N     int    `db:"n"`
	}
	if err := sqlx.SelectContext(ctx, q.db, &rows, `SELECT state, COUNT(*) AS n FROM river_job GROUP BY state`); err != nil {
		return nil, translate(err)
	}
	out := map[string]int{}
	for _, r := range rows {
		out[r.State] = r.N
	}
	return out, nil
}

// stopRecordTimeout is how long a stop that cancelled running jobs waits
// for River to record their results.
const stopRecordTimeout = 5 * time.Second

// StopAndCancel stops at once, cancelling running work, as a crash would;
// cancelled attempts are retried by the next process.
func (q *Queue) StopAndCancel(ctx context.Context) error {
	q.running.Store(false)
	err := q.runner.StopAndCancel(ctx)
	q.stopBeating()
	q.endRunContext()
	q.closePool()
	return err
}

// endRunContext releases the context River ran with.
func (q *Queue) endRunContext() {
	if q.endRun != nil {
		q.endRun()
		q.endRun = nil
	}
}

// Close releases a queue that was never started (its PostgreSQL pool),
// for a start that fails after NewQueue; a started queue stops with Stop.
func (q *Queue) Close() {
	q.closePool()
}

// Stop waits for running jobs to finish (up to ctx's deadline), then
// cancels those still running, as River's documentation advises, and
// waits a few seconds more for their results to be recorded (cut off by
// the stop, they are left available at once: see cutOff) before the
// connections close.
func (q *Queue) Stop(ctx context.Context) error {
	q.running.Store(false)
	err := q.runner.Stop(ctx)
	if err != nil && ctx.Err() != nil {
		hard, cancel := context.WithTimeout(context.WithoutCancel(ctx), stopRecordTimeout)
		if cerr := q.runner.StopAndCancel(hard); cerr != nil {
			err = errors.Join(err, cerr)
		}
		cancel()
	}
	q.stopBeating()
	q.endRunContext()
	q.closePool()
	return err
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

// ScheduleMonitoringNow starts a monitoring pass at once instead of at
// the next period (tests, and operators after a bulk change).
func (q *Queue) ScheduleMonitoringNow(ctx context.Context) error {
	_, err := q.client.Insert(ctx, monitoringArgs{}, &river.InsertOpts{MaxAttempts: 3})
	return err
}

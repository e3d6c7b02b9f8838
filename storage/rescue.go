package storage

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// Defaults of the crash rescue: a queue client beats every 2 s and is
// taken for dead after 10 s of silence, so a delivery cut off by kill -9
// runs again about 12 s later, not after River's stuck-job threshold.
const (
	DefaultHeartbeatEvery = 2 * time.Second
	DefaultDeadAfter      = 10 * time.Second
	// orphanAfter is well above the ~7 s River's completer keeps retrying.
	orphanAfter = 15 * time.Second
)

// rescuer keeps this process's queue client beating in queue_clients and
// queues again the running jobs of clients that stopped beating: their
// process died mid-attempt (kill -9, power loss) and nothing else would
// touch those jobs until River's stuck-job rescuer, minutes later.
//
// A job is only ever rescued from a client that wrote a heartbeat and then
// went silent for deadAfter, judged by a rescuer that has itself been
// beating for deadAfter (after a database outage every process is silent
// for a while; none rescues another until all have had time to beat
// again). Jobs of clients that never beat (an older Payline) are left to
// River. A cut-off attempt does not use up the job's attempts.
//
// It also frees this client's own orphans: jobs the database shows running
// here that no worker here is running. River's completer gives up
// recording results after about 7 s of database errors, so after an
// outage some finished (or snoozed) jobs stay "running" with nothing
// behind them; once such a job has stayed orphaned for orphanAfter, it is
// made available again (a delivery may then arrive twice: at least once).
type rescuer struct {
	db                   *DB
	clientID, instanceID string
	every, deadAfter     time.Duration
	orphanAfter          time.Duration
	log                  *slog.Logger
	now                  func() time.Time // this process's clock: its own timings only
	// running lists the jobs River shows running, through River's API.
	running      func(ctx context.Context) ([]*rivertype.JobRow, error)
	healthySince time.Time
	rescued      atomic.Int64
	judged       atomic.Int64 // passes that judged other clients
	working      *workingSet
	orphans      map[int64]time.Time // own running jobs no worker holds: since when
}

// workingSet is the River middleware that tracks which jobs this process's
// workers are running.
type workingSet struct {
	river.MiddlewareDefaults
	mu  sync.Mutex
	ids map[int64]struct{}
}

func newWorkingSet() *workingSet { return &workingSet{ids: map[int64]struct{}{}} }

// Work implements rivertype.WorkerMiddleware.
func (w *workingSet) Work(ctx context.Context, job *rivertype.JobRow, doInner func(context.Context) error) error {
	w.mu.Lock()
	w.ids[job.ID] = struct{}{}
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		delete(w.ids, job.ID)
		w.mu.Unlock()
	}()
	return doInner(ctx)
}

// cutOff is the River middleware that hands work cut off by this
// client's stop straight to the next process. A job whose context ended
// because the queue is stopping, and that then failed or snoozed (a
// connector call cut short reads as an upstream away for 5 s), snoozes
// for no time instead: it spends no attempt and waits out no backoff, so
// the process started next, or another instance, takes it at once. A
// cancelled job (a final failure) stays cancelled.
type cutOff struct {
	river.MiddlewareDefaults
	stopping func() bool
}

// Work implements rivertype.WorkerMiddleware.
func (c *cutOff) Work(ctx context.Context, job *rivertype.JobRow, doInner func(context.Context) error) error {
	err := doInner(ctx)
	var final *rivertype.JobCancelError
	if err == nil || ctx.Err() == nil || !c.stopping() || errors.As(err, &final) {
		return err
	}
	return river.JobSnooze(0)
}

func (w *workingSet) has(id int64) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, ok := w.ids[id]
	return ok
}

// run beats and rescues until ctx ends, then marks this client stopped.
func (r *rescuer) run(ctx context.Context) {
	t := time.NewTicker(r.every)
	defer t.Stop()
	for {
		r.tick(ctx)
		select {
		case <-ctx.Done():
			// A stop says so at once (any job it left running is rescued
			// on the next pass elsewhere); a crash leaves the row to go stale.
			done, cancel := context.WithTimeout(context.Background(), time.Second)
			_, err := r.db.ExecContext(done, r.db.Rebind(`UPDATE queue_clients SET heartbeat_at = ? WHERE client_id = ?`),
				time.Unix(0, 0).UTC(), r.clientID)
			cancel()
			if err != nil {
				// Nothing is lost: the heartbeat goes stale instead, and the
				// jobs this client left are rescued deadAfter later.
				r.log.Warn("queue stop not recorded; its jobs are rescued once its heartbeat is stale",
					slog.String("client_id", r.clientID), slog.Any("error", translate(err)))
			}
			return
		case <-t.C:
		}
	}
}

// beat records that this client is alive; it runs once before River
// starts, so every job this client fetches has a live heartbeat behind it.
func (r *rescuer) beat(ctx context.Context) error {
	_, err := r.db.ExecContext(ctx, r.db.Rebind(`INSERT INTO queue_clients (client_id, instance_id, started_at, heartbeat_at)
		VALUES (?, ?, `+r.dbNow()+`, `+r.dbNow()+`) ON CONFLICT (client_id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at`),
		r.clientID, r.instanceID)
	return translate(err)
}

// dbNow is the database's clock in SQL: heartbeats are written and judged
// by it alone, so instances whose own clocks disagree (by minutes, say)
// never take a live client for a dead one.
func (r *rescuer) dbNow() string {
	if r.db.Dialect == Postgres {
		return `now()`
	}
	return `strftime('%Y-%m-%d %H:%M:%f', 'now')`
}

// silence is, in SQL, how many seconds ago by the database's clock a
// client last beat.
func (r *rescuer) silence() string {
	if r.db.Dialect == Postgres {
		return `EXTRACT(EPOCH FROM (now() - heartbeat_at))::float8`
	}
	return `(julianday('now') - julianday(heartbeat_at)) * 86400.0`
}

func (r *rescuer) tick(ctx context.Context) {
	if err := r.beat(ctx); err != nil {
		r.healthySince = time.Time{}
		if ctx.Err() == nil {
			r.log.WarnContext(ctx, "queue heartbeat failed", slog.Any("error", err))
		}
		return
	}
	now := r.now()
	if r.healthySince.IsZero() {
		r.healthySince = now
	}
	// Others' silence means death only once this process has itself
	// beaten for deadAfter; its own orphans need no such wait.
	judgeOthers := now.Sub(r.healthySince) >= r.deadAfter
	if n, err := r.rescue(ctx, now, judgeOthers); err != nil {
		if ctx.Err() == nil {
			r.log.WarnContext(ctx, "rescue of cut-off jobs failed", slog.Any("error", err))
		}
	} else {
		r.rescued.Add(int64(n))
		if judgeOthers {
			r.judged.Add(1)
		}
	}
}

// lastAttemptedBy is the SQL of the client that fetched a running job:
// the last of River's attempted_by, which River appends the fetching
// client's id to (TestRescuerRiverContract holds River to it).
func (r *rescuer) lastAttemptedBy() string {
	if r.db.Dialect == Postgres {
		return `attempted_by[array_length(attempted_by, 1)]`
	}
	return `json_extract(CAST(attempted_by AS TEXT), '$[#-1]')`
}

// rescue makes available again the running jobs of dead clients and this
// client's orphans, and forgets clients dead for a day.
func (r *rescuer) rescue(ctx context.Context, now time.Time, judgeOthers bool) (int, error) {
	var clients []struct {
		ID       string  `db:"client_id"`
		Instance string  `db:"instance_id"`
		Silent   float64 `db:"silent"` // seconds, by the database's clock
	}
	if err := sqlx.SelectContext(ctx, r.db, &clients, `SELECT client_id, instance_id, `+r.silence()+` AS silent FROM queue_clients`); err != nil {
		return 0, translate(err)
	}
	dead := map[string]string{}
	for _, c := range clients {
		if silent := time.Duration(c.Silent * float64(time.Second)); judgeOthers && silent > r.deadAfter && c.ID != r.clientID {
			dead[c.ID] = c.Instance
			if silent > 24*time.Hour {
				defer r.forget(ctx, c.ID)
			}
		}
	}
	running, err := r.running(ctx)
	if err != nil {
		return 0, err
	}
	// River's API cannot make a running job available again (JobRetry
	// leaves running jobs alone, by design: it cannot know their worker
	// died), so this one statement writes River's table. The client check
	// makes it a no-op for a job another rescuer already freed and a live
	// client fetched again.
	update := r.db.Rebind(`UPDATE river_job SET state = 'available',
		max_attempts = CASE WHEN max_attempts > attempt THEN max_attempts ELSE attempt + 1 END
		WHERE id = ? AND state = 'running' AND ` + r.lastAttemptedBy() + ` = ?`)
	n := 0
	perClient := map[string]int{}
	stillOrphaned := map[int64]time.Time{}
	for _, j := range running {
		if len(j.AttemptedBy) == 0 {
			continue
		}
		client := j.AttemptedBy[len(j.AttemptedBy)-1]
		_, isDead := dead[client]
		if !isDead && client == r.clientID && r.working != nil && !r.working.has(j.ID) {
			since, seen := r.orphans[j.ID]
			if !seen {
				since = now
			}
			if now.Sub(since) < r.orphanAfter {
				stillOrphaned[j.ID] = since
				continue
			}
		} else if !isDead {
			continue
		}
		res, err := r.db.ExecContext(ctx, update, j.ID, client)
		if err != nil {
			return n, translate(err)
		}
		k, err := res.RowsAffected()
		if err != nil {
			return n, translate(err)
		}
		if k > 0 {
			n++
			perClient[client]++
		}
	}
	r.orphans = stillOrphaned
	for client, k := range perClient {
		if client == r.clientID {
			r.log.WarnContext(ctx, "queued again jobs whose results were lost to a database outage", slog.Int("jobs", k))
			continue
		}
		r.log.WarnContext(ctx, "queued again the jobs a stopped instance was running",
			slog.String("dead_instance", dead[client]), slog.String("dead_client", client), slog.Int("jobs", k))
	}
	return n, nil
}

// forget deletes the row of a client dead for a day. A failure only
// leaves the row for the next pass to delete, so it is logged, not
// returned: the rescue it follows has done its work.
func (r *rescuer) forget(ctx context.Context, clientID string) {
	if _, err := r.db.ExecContext(ctx, r.db.Rebind(`DELETE FROM queue_clients WHERE client_id = ?`), clientID); err != nil && ctx.Err() == nil {
		r.log.WarnContext(ctx, "could not forget a dead queue client; the next pass tries again",
			slog.String("dead_client", clientID), slog.Any("error", translate(err)))
	}
}

package storage

import (
	"context"
	"log/slog"
	"time"

	"payline/domain"
)

// MigrateTo applies Payline's migrations up to version, for tests of one
// migration's conversion of existing rows.
func (db *DB) MigrateTo(ctx context.Context, version int64) error {
	provider, err := db.migrations()
	if err != nil {
		return err
	}
	_, err = provider.UpTo(ctx, version)
	return err
}

// ClientID is the queue's River client id, which River records in a
// running job's attempted_by.
func (q *Queue) ClientID() string { return q.runner.ID() }

// RunningByClient reads the running jobs and the client each was fetched
// by, with the rescuer's own SQL.
func (q *Queue) RunningByClient(ctx context.Context) (map[int64]string, error) {
	var rows []struct {
		ID     int64   `db:"id"`
		Client *string `db:"client"`
	}
	if err := q.rescuer.db.SelectContext(ctx, &rows, `SELECT id, `+q.rescuer.lastAttemptedBy()+` AS client FROM river_job WHERE state = 'running'`); err != nil {
		return nil, err
	}
	out := map[int64]string{}
	for _, r := range rows {
		if r.Client != nil {
			out[r.ID] = *r.Client
		}
	}
	return out, nil
}

// RunningThroughAPI reads the running jobs and the client each was
// fetched by as the rescuer does, through River's JobList.
func (q *Queue) RunningThroughAPI(ctx context.Context) (map[int64]string, error) {
	jobs, err := q.runningJobs(ctx)
	if err != nil {
		return nil, err
	}
	out := map[int64]string{}
	for _, j := range jobs {
		if n := len(j.AttemptedBy); n > 0 {
			out[j.ID] = j.AttemptedBy[n-1]
		}
	}
	return out, nil
}

// JudgedPasses counts the rescuer's passes that judged other clients.
func (q *Queue) JudgedPasses() int64 { return q.rescuer.judged.Load() }

// InsertRun queues a payroll job run outside any transaction.
func (q *Queue) InsertRun(ctx context.Context, r domain.JobRun) error { return q.insert(ctx, nil, r) }

// ReadInvalidationsEvery is ListenInvalidations on SQLite, reading every
// the given interval.
func (db *DB) ReadInvalidationsEvery(h InvalidationHandlers, log *slog.Logger, every time.Duration) (*Invalidations, error) {
	return db.readInvalidations(h, log, every)
}

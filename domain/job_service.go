package domain

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// JobService runs queued payroll jobs through the connector.
type JobService struct {
	tx        Transactor
	connector Connector
	clock     Clock
}

// NewJobService wires the job runner.
func NewJobService(tx Transactor, connector Connector, clock Clock) *JobService {
	return &JobService{tx: tx, connector: connector, clock: clock}
}

// MinPendingRetry is the shortest wait between attempts at a pending job.
const MinPendingRetry = time.Second

// Run makes one attempt at a job. It returns how long to wait before the
// next attempt while the job stays pending, and zero once it is final.
// Each change of outcome is written with its <job>.added event in one
// transaction; a pending job that is still pending writes nothing. After
// PendingWindow a pending job ends in error.
func (s *JobService) Run(ctx context.Context, r JobRun) (time.Duration, error) {
	j, err := s.tx.Jobs().Job(ctx, r.Scope, r.JobID)
	if errors.Is(err, ErrNoRows) {
		return 0, nil // nothing left to run
	}
	if err != nil {
		return 0, err
	}
	if j.Outcome == OutcomeSuccess || j.Outcome == OutcomeError {
		return 0, nil // already final: a duplicate run is harmless
	}
	a, err := s.tx.Accounts().Account(ctx, r.Scope, j.AccountID)
	if err != nil {
		return 0, fmt.Errorf("account of job %s: %w", j.ID, err)
	}
	now := s.clock.Now()
	res, err := s.connector.Run(ctx, j, a, j.CreatedAt, now)
	if err != nil {
		return 0, fmt.Errorf("run job %s: %w", j.ID, err)
	}
	if res.Outcome == OutcomePending && now.Sub(j.CreatedAt) >= PendingWindow {
		res = JobResult{Outcome: OutcomeError, ErrorType: "PLATFORM_ERROR", ErrorCode: "PENDING_TIMEOUT"}
	}
	wait := time.Duration(0)
	if res.Outcome == OutcomePending {
		wait = max(res.RetryAfter, MinPendingRetry)
		if j.Outcome == OutcomePending {
			return wait, nil
		}
	}
	j.Outcome, j.Timestamp, j.ErrorCode, j.ErrorType = res.Outcome, &now, res.ErrorCode, res.ErrorType
	err = s.tx.InTx(ctx, func(tx Tx) error {
		if err := tx.Jobs().UpdateJobOutcome(ctx, r.Scope, j); err != nil {
			return err
		}
		if err := PublishEvent(ctx, tx, r.Scope, string(j.Name)+".added", now, JobEventPayload(j)); err != nil {
			return err
		}
		if res.Outcome != OutcomeSuccess {
			return nil
		}
		product := string(j.Name)
		if j.Name == JobDirectDepositSwitch {
			product = string(JobDirectDepositAllocations)
		}
		a, err := tx.Accounts().Account(ctx, r.Scope, j.AccountID)
		if err != nil {
			return err
		}
		a.DataUpdatedAt[product], a.DataRefreshedAt[product] = now, now
		return tx.Accounts().UpdateAccount(ctx, r.Scope, a)
	})
	return wait, err
}

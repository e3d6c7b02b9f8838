package rest

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// awayForRuns is a connector unreachable for its first n job attempts.
type awayForRuns struct {
	domain.Connector
	n, tries atomic.Int32
}

func (a *awayForRuns) Run(ctx context.Context, j domain.Job, acct domain.Account, started, now time.Time) (domain.JobResult, error) {
	if a.tries.Add(1) <= a.n.Load() {
		return domain.JobResult{}, domain.UpstreamUnavailable("the payroll connector", 100*time.Millisecond, errors.New("connection refused"))
	}
	return a.Connector.Run(ctx, j, acct, started, now)
}

// TestJobsWaitOutConnectorOutage: a job whose connector cannot be reached
// waits the connector's retry hint (a snooze that spends no attempt) and
// succeeds once it answers; nothing is lost and no error is recorded.
func TestJobsWaitOutConnectorOutage(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		away := &awayForRuns{}
		away.n.Store(3)
		f := newFixture(t, db, func(s *fixtureSetup) {
			s.wrapConnector = func(c domain.Connector) domain.Connector { away.Connector = c; return away }
		})
		tokenID, token := f.createToken(`{"org_name": "Acme", "end_user_id": "patient-jobs", "required_jobs": ["paystubs"]}`)
		f.linkSession(sessionBody(token, switchPlatform(t).ID, sandbox.UserGood, "")).data(t)
		jobs := f.waitJobs(tokenID, 1)
		if len(jobs) != 1 || jobs[0]["outcome"] != "success" {
			t.Fatalf("after the outage: %v", jobs)
		}
		if n := away.tries.Load(); n < 4 {
			t.Errorf("the connector was tried %d times, want the 3 refused and one more", n)
		}
		if f.countEvents("paystubs.added") != 1 {
			t.Error("no single paystubs.added after the outage")
		}
	})
}

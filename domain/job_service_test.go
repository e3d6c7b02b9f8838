package domain_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
)

// countingObserver records the outcomes JobService reports.
type countingObserver struct {
	mu       sync.Mutex
	finished map[domain.Outcome]int
}

func (o *countingObserver) JobFinished(_ domain.JobType, out domain.Outcome) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.finished[out]++
}

func (o *countingObserver) WebhookDelivered(string, time.Duration) {}

func TestJobRunOutcomes(t *testing.T) {
	bothDialects(t, domain.ModeSandbox, func(t *testing.T, w *world) {
		obs := &countingObserver{finished: map[domain.Outcome]int{}}
		w.jobs.Observe(obs)
		tests := []struct {
			user    string
			outcome domain.Outcome
			code    string
		}{
			{sandbox.UserGood, domain.OutcomeSuccess, ""},
			{sandbox.UserError, domain.OutcomeError, domain.CodeSandboxJobError},
			{sandbox.UserPending, domain.OutcomePending, ""},
		}
		for _, tc := range tests {
			t.Run(tc.user, func(t *testing.T) {
				a, _ := w.mustLogin(tc.user, "identity")
				before := w.countEvents("identity.added")
				j := w.runJobs(a.ID)[0]
				if j.Outcome != tc.outcome || j.ErrorCode != tc.code {
					t.Fatalf("outcome %s %s, want %s %s", j.Outcome, j.ErrorCode, tc.outcome, tc.code)
				}
				if j.Timestamp == nil || !j.Timestamp.Equal(w.clock.Now()) {
					t.Errorf("timestamp %v, want the clock's now", j.Timestamp)
				}
				if n := w.countEvents("identity.added"); n != before+1 {
					t.Errorf("%d identity.added events written, want 1", n-before)
				}
				_, _, err := w.accounts.Product(w.ctx, w.sc, a.ID, domain.ProductIdentity)
				if tc.outcome == domain.OutcomeSuccess {
					if err != nil {
						t.Errorf("identity not stored: %v", err)
					}
				} else {
					wantCode(t, err, domain.CodeProductNotFound)
				}
			})
		}
		if obs.finished[domain.OutcomeSuccess] != 1 || obs.finished[domain.OutcomeError] != 1 || obs.finished[domain.OutcomePending] != 1 {
			t.Errorf("observer heard %v", obs.finished)
		}
	})
}

func TestJobRunStoresData(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	a, _ := w.mustLogin(sandbox.UserGood, "identity", "paystubs", "tax_forms")
	for _, j := range w.runJobs(a.ID) {
		if j.Outcome != domain.OutcomeSuccess {
			t.Fatalf("%s: %s %s", j.Name, j.Outcome, j.ErrorCode)
		}
		if j.Params.Read == nil {
			t.Errorf("%s: params say nothing of what was read", j.Name)
		}
	}
	acct, err := w.accounts.Account(w.ctx, w.sc, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{domain.ProductIdentity, domain.ProductPaystubs, domain.ProductTaxForms} {
		if !acct.DataRefreshedAt[p].Equal(start) || !acct.DataUpdatedAt[p].Equal(start) {
			t.Errorf("%s: refreshed %v updated %v, want the clock's now", p, acct.DataRefreshedAt[p], acct.DataUpdatedAt[p])
		}
	}
	stubs, _, err := w.accounts.Paystubs(w.ctx, w.sc, a.ID, "", domain.PageRequest{Limit: 100})
	if err != nil || len(stubs.Items) == 0 {
		t.Fatalf("paystubs: %d, %v", len(stubs.Items), err)
	}

	// A refresh that reads the same data changes data_refreshed_at only.
	w.clock.Advance(time.Hour)
	_, value := w.mustToken(domain.LinkTokenRequest{AccountID: a.ID, RequiredJobs: []string{"identity"}})
	if _, err := w.link.Login(w.ctx, value, domain.LoginRequest{PlatformID: w.payroll.ID,
		Credentials: domain.Credentials{Username: sandbox.UserGood, Password: sandbox.Password}}); err != nil {
		t.Fatal(err)
	}
	w.runJobs(a.ID)
	acct, err = w.accounts.Account(w.ctx, w.sc, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !acct.DataRefreshedAt[domain.ProductIdentity].Equal(w.clock.Now()) || !acct.DataUpdatedAt[domain.ProductIdentity].Equal(start) {
		t.Errorf("identity refreshed %v updated %v: an unchanged read moves only data_refreshed_at",
			acct.DataRefreshedAt[domain.ProductIdentity], acct.DataUpdatedAt[domain.ProductIdentity])
	}
}

func TestJobRunPending(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	a, _ := w.mustLogin(sandbox.UserPending, "identity")
	j := w.queuedJobs(a.ID)[0]
	run := domain.JobRun{Scope: w.sc, JobID: j.ID}
	wait, err := w.jobs.Run(w.ctx, run)
	if err != nil || wait != time.Minute {
		t.Fatalf("first attempt: wait %v, %v; want the sandbox's poll of a minute", wait, err)
	}
	events := len(w.events())
	w.clock.Advance(time.Minute)
	if wait, err = w.jobs.Run(w.ctx, run); err != nil || wait <= 0 {
		t.Fatalf("still pending: wait %v, %v", wait, err)
	}
	if n := len(w.events()); n != events {
		t.Errorf("a job still pending wrote %d events", n-events)
	}
	w.clock.Advance(time.Hour) // past the sandbox's pending delay
	if wait, err = w.jobs.Run(w.ctx, run); err != nil || wait != 0 {
		t.Fatalf("final attempt: wait %v, %v", wait, err)
	}
	got, err := w.accounts.Job(w.ctx, w.sc, j.ID)
	if err != nil || got.Outcome != domain.OutcomeError || got.ErrorCode != domain.CodeSandboxPendingExpired {
		t.Fatalf("job %s %s, %v", got.Outcome, got.ErrorCode, err)
	}
	// A duplicate run of a final job is harmless.
	events = len(w.events())
	if wait, err = w.jobs.Run(w.ctx, run); err != nil || wait != 0 || len(w.events()) != events {
		t.Errorf("a run of a final job: wait %v, %v, %d events", wait, err, len(w.events())-events)
	}
	// So is a run of a job that does not exist.
	if wait, err := w.jobs.Run(w.ctx, domain.JobRun{Scope: w.sc, JobID: domain.NewID()}); err != nil || wait != 0 {
		t.Errorf("a run of no job: %v, %v", wait, err)
	}
}

func TestJobRunPendingWindow(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	// A platform that stays pending for two days: the domain's window
	// (a day) ends the job first.
	jobs := domain.NewJobService(w.tx, sandbox.Connector{PendingDelay: 48 * time.Hour, PendingPoll: time.Hour}, w.clock)
	a, _ := w.mustLogin(sandbox.UserPending, "identity")
	j := w.queuedJobs(a.ID)[0]
	run := domain.JobRun{Scope: w.sc, JobID: j.ID}
	if wait, err := jobs.Run(w.ctx, run); err != nil || wait != time.Hour {
		t.Fatalf("wait %v, %v", wait, err)
	}
	w.clock.Advance(domain.PendingWindow - time.Second)
	if _, err := jobs.Run(w.ctx, run); err != nil {
		t.Fatal(err)
	}
	if got, _ := w.accounts.Job(w.ctx, w.sc, j.ID); got.Outcome != domain.OutcomePending {
		t.Fatalf("a second before the window ends: %s", got.Outcome)
	}
	w.clock.Advance(time.Second)
	if wait, err := jobs.Run(w.ctx, run); err != nil || wait != 0 {
		t.Fatalf("wait %v, %v", wait, err)
	}
	if got, _ := w.accounts.Job(w.ctx, w.sc, j.ID); got.Outcome != domain.OutcomeError || got.ErrorCode != domain.CodePendingTimeout {
		t.Fatalf("at the window's end: %s %s, want error PENDING_TIMEOUT", got.Outcome, got.ErrorCode)
	}
}

// away is a connector whose source is away, asking to be called again in
// a minute.
type away struct{ sandbox.Connector }

func (away) Run(context.Context, domain.Job, domain.Account, time.Time, time.Time) (domain.JobResult, error) {
	return domain.JobResult{}, domain.UpstreamUnavailable("the payroll connector", time.Minute, errors.New("connection refused"))
}

// An upstream's Retry-After is waited out (no error, no attempt spent)
// while the job is inside the pending window by the service's clock;
// after it the error goes back to the queue as any failure.
func TestJobRunWaitsOutUpstreamWithinPendingWindow(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	jobs := domain.NewJobService(w.tx, away{}, w.clock)
	a, _ := w.mustLogin(sandbox.UserGood, "identity")
	run := domain.JobRun{Scope: w.sc, JobID: w.queuedJobs(a.ID)[0].ID}
	if wait, err := jobs.Run(w.ctx, run); err != nil || wait != time.Minute {
		t.Fatalf("inside the window: wait %v, %v; want 1m and no error", wait, err)
	}
	w.clock.Advance(domain.PendingWindow)
	var de *domain.Error
	if wait, err := jobs.Run(w.ctx, run); !errors.As(err, &de) || de.Code != domain.CodeUpstreamUnavailable || wait != 0 {
		t.Fatalf("after the window: wait %v, %v; want UPSTREAM_UNAVAILABLE", wait, err)
	}
}

// nameless is the sandbox with identities that fail their rules.
type nameless struct{ sandbox.Connector }

func (c nameless) Fetch(ctx context.Context, r domain.FetchRequest) (domain.Fetched, error) {
	f, err := c.Connector.Fetch(ctx, r)
	if f.Identity != nil {
		f.Identity.FullName = ""
	}
	return f, err
}

func TestJobRunRefusesInvalidData(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	jobs := domain.NewJobService(w.tx, nameless{}, w.clock)
	a, _ := w.mustLogin(sandbox.UserGood, "identity")
	j := w.queuedJobs(a.ID)[0]
	if _, err := jobs.Run(w.ctx, domain.JobRun{Scope: w.sc, JobID: j.ID}); err != nil {
		t.Fatal(err)
	}
	got, err := w.accounts.Job(w.ctx, w.sc, j.ID)
	if err != nil || got.Outcome != domain.OutcomeError || got.ErrorCode != domain.CodeInvalidConnectorData {
		t.Fatalf("job %s %s, %v", got.Outcome, got.ErrorCode, err)
	}
	_, _, err = w.accounts.Product(w.ctx, w.sc, a.ID, domain.ProductIdentity)
	wantCode(t, err, domain.CodeProductNotFound)
	evs, err := w.tx.Events().ListEvents(w.ctx, w.sc)
	if err != nil {
		t.Fatal(err)
	}
	last := evs[len(evs)-1]
	var payload struct {
		InvalidFields []string `json:"invalid_fields"`
	}
	if err := json.Unmarshal(last.Payload, &payload); err != nil || last.Name != "identity.added" || len(payload.InvalidFields) == 0 {
		t.Errorf("event %s %s: the event names the invalid fields", last.Name, last.Payload)
	}
}

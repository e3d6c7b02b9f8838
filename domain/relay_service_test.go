package domain_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"payline/connectors/upstream"
	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
)

// memUpstream is an upstream held in memory: its accounts, jobs and
// directory, the reads made of it, and whether it is away.
type memUpstream struct {
	mu        sync.Mutex
	accounts  map[string]domain.UpstreamAccount
	jobs      map[string][]domain.UpstreamJob
	platforms []domain.Platform
	employers []domain.Employer // served two to a page
	away      bool
	reads     map[string]int
	learned   []domain.UpstreamJob
	acts      []string
}

func newMemUpstream() *memUpstream {
	return &memUpstream{accounts: map[string]domain.UpstreamAccount{}, jobs: map[string][]domain.UpstreamJob{}, reads: map[string]int{}}
}

func (u *memUpstream) read(what string) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.reads[what]++
	if u.away {
		return domain.Errorf(domain.KindUnavailable, domain.CodeUpstreamUnavailable, "the upstream is away")
	}
	return nil
}

func (u *memUpstream) counted(what string) int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.reads[what]
}

func (u *memUpstream) CreateLinkToken(context.Context, domain.LinkTokenRequest, string) (domain.UpstreamToken, error) {
	return domain.UpstreamToken{ID: domain.NewID(), Token: "up-value"}, u.read("token")
}

func (u *memUpstream) Account(_ context.Context, id string) (domain.UpstreamAccount, error) {
	if err := u.read("account"); err != nil {
		return domain.UpstreamAccount{}, err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	a, ok := u.accounts[id]
	if !ok {
		return domain.UpstreamAccount{}, domain.ErrNoRows
	}
	return a, nil
}

func (u *memUpstream) Accounts(_ context.Context, since time.Time, cursor string) ([]domain.UpstreamAccount, string, error) {
	if err := u.read("accounts"); err != nil {
		return nil, "", err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	var out []domain.UpstreamAccount
	for _, a := range u.accounts {
		if !a.CreatedAt.Before(since) {
			out = append(out, a)
		}
	}
	return out, "", nil
}

func (u *memUpstream) Jobs(_ context.Context, id string) ([]domain.UpstreamJob, error) {
	if err := u.read("jobs"); err != nil {
		return nil, err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	return slices.Clone(u.jobs[id]), nil
}

func (u *memUpstream) Learned(j domain.UpstreamJob) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.learned = append(u.learned, j)
}

// VerifyWebhook accepts deliveries whose x-signature header is "good".
func (u *memUpstream) VerifyWebhook(header func(string) string, _ []byte, _ time.Time) error {
	if header("x-signature") != "good" {
		return domain.Errorf(domain.KindUnauthorized, domain.CodeInvalidWebhookSignature, "bad signature")
	}
	return nil
}

// ParseWebhook reads deliveries as the real upstream's client does.
func (u *memUpstream) ParseWebhook(body []byte) (domain.UpstreamDelivery, error) {
	return upstream.ParseDelivery(body)
}

func (u *memUpstream) Act(_ context.Context, accountID, action string) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.acts = append(u.acts, action+" "+accountID)
	return nil
}

func (u *memUpstream) SetBillNavigatorStatus(context.Context, string, string, string) error {
	return nil
}

func (u *memUpstream) Platforms(context.Context) ([]domain.Platform, error) {
	if err := u.read("platforms"); err != nil {
		return nil, err
	}
	return u.platforms, nil
}

func (u *memUpstream) EmployersPage(_ context.Context, _ time.Time, cursor string) ([]domain.Employer, string, error) {
	if err := u.read("employers"); err != nil {
		return nil, "", err
	}
	i := 0
	if cursor != "" {
		fmt.Sscan(cursor, &i)
	}
	end := min(i+2, len(u.employers))
	next := ""
	if end < len(u.employers) {
		next = fmt.Sprint(end)
	}
	return u.employers[i:end], next, nil
}

func (u *memUpstream) Employer(context.Context, string) (domain.Employer, error) {
	return domain.Employer{}, domain.ErrNoRows
}

func (u *memUpstream) Platform(context.Context, string) (domain.Platform, error) {
	return domain.Platform{}, domain.ErrNoRows
}

func (u *memUpstream) Search(context.Context, domain.SearchQuery) ([]domain.SearchResult, error) {
	return nil, nil
}

func (u *memUpstream) EmployerByEIN(context.Context, string) (domain.Employer, error) {
	return domain.Employer{}, domain.ErrNoRows
}

var _ domain.Upstream = (*memUpstream)(nil)

// upstreamRelay is the Relay of a mode whose every platform the one
// upstream takes.
type upstreamRelay struct {
	domain.NoRelay
	up *memUpstream
}

func (r upstreamRelay) CreateLinkToken(ctx context.Context, req domain.LinkTokenRequest, endUser string) (domain.UpstreamToken, bool, error) {
	t, err := r.up.CreateLinkToken(ctx, req, endUser)
	t.Source = "up"
	return t, err == nil, err
}

func (r upstreamRelay) Act(ctx context.Context, _, accountID, action string) error {
	return r.up.Act(ctx, accountID, action)
}

// relayWorld is a world in a relayed mode: link tokens are made at the
// upstream, and a RelayService brings its accounts here.
type relayWorld struct {
	*world
	up    *memUpstream
	relay *domain.RelayService
}

func newRelayWorld(t *testing.T) *relayWorld {
	w := newWorld(t, storage.SQLite, domain.ModeDevelopment)
	up := newMemUpstream()
	rw := &relayWorld{world: w, up: up}
	w.link = domain.NewLinkService(w.tx, w.dir, sandbox.Connector{}, upstreamRelay{up: up}, w.clock, w.reporter)
	w.accounts = domain.NewAccountService(w.tx, w.clock, w.reporter, upstreamRelay{up: up})
	rw.relay = domain.NewRelayService(w.tx, "up", up, w.dir, w.clock, slog.New(slog.NewTextHandler(io.Discard, nil)))
	return rw
}

// upstreamAccount makes a token here (and its upstream token) and an
// upstream account of it with the jobs, and returns the account.
func (rw *relayWorld) upstreamAccount(jobs ...domain.UpstreamJob) domain.UpstreamAccount {
	rw.t.Helper()
	tok, _ := rw.mustToken(domain.LinkTokenRequest{})
	l, err := rw.tx.Upstream().UpstreamLink(rw.ctx, rw.sc, tok.ID)
	if err != nil {
		rw.t.Fatalf("the token has no upstream token: %v", err)
	}
	a := domain.UpstreamAccount{ID: domain.NewID(), LinkTokenID: l.ID, EndUserID: "up-erin", PlatformID: rw.payroll.ID,
		CreatedAt: rw.clock.Now(), Connected: true}
	rw.up.mu.Lock()
	defer rw.up.mu.Unlock()
	rw.up.accounts[a.ID] = a
	for i := range jobs {
		jobs[i].AccountID = a.ID
	}
	rw.up.jobs[a.ID] = jobs
	return a
}

func (rw *relayWorld) deliver(sig string, body any) error {
	b, err := json.Marshal(body)
	if err != nil {
		rw.t.Fatal(err)
	}
	return rw.relay.HandleWebhook(rw.ctx, func(name string) string {
		if name == "x-signature" {
			return sig
		}
		return ""
	}, b)
}

func TestRelayedLinkToken(t *testing.T) {
	rw := newRelayWorld(t)
	tok, value := rw.mustToken(domain.LinkTokenRequest{})
	sess, err := rw.link.Open(rw.ctx, value)
	if err != nil || sess.Upstream == nil || sess.Upstream.Token != "up-value" {
		t.Fatalf("a relayed token opens the upstream's Link: %+v, %v", sess.Upstream, err)
	}
	rw.up.away = true
	before, err := rw.link.LinkToken(rw.ctx, rw.sc, tok.ID)
	if err != nil || before.ID != tok.ID {
		t.Fatal(err)
	}
	_, _, err = rw.link.CreateLinkToken(rw.ctx, rw.sc, domain.LinkTokenRequest{OrgName: "Acme Lending", EndUserID: "erin"}, domain.LatestVersion)
	wantCode(t, err, domain.CodeUpstreamUnavailable)
}

func TestRelayHandleWebhook(t *testing.T) {
	rw := newRelayWorld(t)
	ua := rw.upstreamAccount(domain.UpstreamJob{ID: domain.NewID(), Name: domain.JobIdentity, CreatedAt: rw.clock.Now(), Outcome: domain.OutcomeSuccess})
	added := map[string]any{"event": "account.added", "event_id": "ev-1", "payload": map[string]any{"account_id": ua.ID}}

	wantCode(t, rw.deliver("forged", added), domain.CodeInvalidWebhookSignature)
	if rw.up.counted("account") != 0 || rw.countEvents("account.added") != 0 {
		t.Fatal("a forged delivery read or changed something")
	}
	wantCode(t, rw.deliver("good", "not an event"), domain.CodeInvalidJSON)

	if err := rw.deliver("good", added); err != nil {
		t.Fatal(err)
	}
	a, err := rw.accounts.Account(rw.ctx, rw.sc, ua.ID)
	if err != nil || a.EndUserID != "erin" || a.PlatformID != rw.payroll.ID {
		t.Fatalf("ingested account %+v, %v; want the customer's own end user", a, err)
	}
	jobs := rw.queuedJobs(ua.ID)
	if len(jobs) != 1 || jobs[0].Name != domain.JobIdentity {
		t.Fatalf("ingested jobs %+v", jobs)
	}
	if rw.countEvents("account.added") != 1 {
		t.Errorf("%d account.added events", rw.countEvents("account.added"))
	}
	reads := rw.up.counted("account")
	if err := rw.deliver("good", added); err != nil { // a replay
		t.Fatal(err)
	}
	if rw.up.counted("account") != reads || rw.countEvents("account.added") != 1 {
		t.Error("a replayed delivery read the upstream or added the account again")
	}

	// A job's event for an account already here records the job with no read.
	job := domain.UpstreamJob{ID: domain.NewID(), Name: domain.JobPaystubs, Outcome: domain.OutcomeSuccess}
	l, _ := rw.tx.Upstream().UpstreamLink(rw.ctx, rw.sc, a.LinkTokenID)
	if err := rw.deliver("good", map[string]any{"event": "paystubs.added", "event_id": "ev-2", "payload": map[string]any{
		"id": job.ID, "account_id": ua.ID, "link_token_id": l.ID, "name": "paystubs", "outcome": "success", "timestamp": rw.clock.Now()}}); err != nil {
		t.Fatal(err)
	}
	if rw.up.counted("account") != reads || len(rw.queuedJobs(ua.ID)) != 2 {
		t.Errorf("job event: %d reads, %d jobs", rw.up.counted("account")-reads, len(rw.queuedJobs(ua.ID)))
	}
	if len(rw.up.learned) == 0 || rw.up.learned[len(rw.up.learned)-1].ID != job.ID {
		t.Error("the connector was not told the job's outcome")
	}

	// Another client's account is acknowledged and changes nothing.
	other := domain.UpstreamAccount{ID: domain.NewID(), LinkTokenID: "theirs", PlatformID: rw.payroll.ID, CreatedAt: rw.clock.Now(), Connected: true}
	rw.up.accounts[other.ID] = other
	if err := rw.deliver("good", map[string]any{"event": "account.added", "event_id": "ev-3", "payload": map[string]any{"account_id": other.ID}}); err != nil {
		t.Fatal(err)
	}
	_, err = rw.accounts.Account(rw.ctx, rw.sc, other.ID)
	wantCode(t, err, domain.CodeAccountNotFound)

	// An upstream that is away: acknowledged, and the ingest queued.
	away := rw.upstreamAccount()
	rw.up.away = true
	if err := rw.deliver("good", map[string]any{"event": "account.added", "event_id": "ev-4", "payload": map[string]any{"account_id": away.ID}}); err != nil {
		t.Fatalf("an away upstream's delivery: %v", err)
	}
	_, err = rw.accounts.Account(rw.ctx, rw.sc, away.ID)
	wantCode(t, err, domain.CodeAccountNotFound)
	rw.up.away = false
	if err := rw.relay.FollowUp(rw.ctx, domain.IngestRun{Source: "up", AccountID: away.ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := rw.accounts.Account(rw.ctx, rw.sc, away.ID); err != nil {
		t.Errorf("the queued ingest did not bring the account: %v", err)
	}
}

func TestRelayIngest(t *testing.T) {
	rw := newRelayWorld(t)
	pending := domain.UpstreamJob{ID: domain.NewID(), Name: domain.JobIdentity, CreatedAt: rw.clock.Now(), Outcome: domain.OutcomePending}
	ua := rw.upstreamAccount(pending, domain.UpstreamJob{ID: domain.NewID(), Name: "teleport", Outcome: domain.OutcomeSuccess})
	if err := rw.relay.Ingest(rw.ctx, domain.NewID()); !errors.Is(err, domain.ErrNotOurs) {
		t.Fatalf("an account the upstream lacks: %v", err)
	}
	for range 2 { // idempotent
		if err := rw.relay.Ingest(rw.ctx, ua.ID); err != nil {
			t.Fatal(err)
		}
	}
	if jobs := rw.queuedJobs(ua.ID); len(jobs) != 1 {
		t.Fatalf("%d jobs, want the known one only", len(jobs))
	}
	if n := rw.countEvents("account.added"); n != 1 {
		t.Errorf("%d account.added events", n)
	}
	// The upstream disconnected it.
	ua.Connected = false
	rw.up.accounts[ua.ID] = ua
	if err := rw.relay.Ingest(rw.ctx, ua.ID); err != nil {
		t.Fatal(err)
	}
	if a, _ := rw.accounts.Account(rw.ctx, rw.sc, ua.ID); a.Connected || a.MonitoringStatus != domain.MonitoringUnavailable {
		t.Errorf("after the upstream's disconnect: connected %v, %s", a.Connected, a.MonitoringStatus)
	}
	// Actions on a relayed account go to the upstream.
	if err := rw.accounts.DisableMonitoring(rw.ctx, rw.sc, ua.ID); err != nil {
		t.Fatal(err)
	}
	if len(rw.up.acts) != 1 || rw.up.acts[0] != domain.ActionDisableMonitoring+" "+ua.ID {
		t.Errorf("upstream actions %v", rw.up.acts)
	}
	rw.up.away = true
	wantCode(t, rw.relay.Ingest(rw.ctx, ua.ID), domain.CodeUpstreamUnavailable)
}

func TestRelayReconcile(t *testing.T) {
	rw := newRelayWorld(t)
	missed := rw.upstreamAccount(domain.UpstreamJob{ID: domain.NewID(), Name: domain.JobIdentity, Outcome: domain.OutcomeSuccess})
	pass, err := rw.relay.Reconcile(rw.ctx)
	if err != nil || pass.Running || pass.Listed != 1 || pass.Ingested != 1 {
		t.Fatalf("pass %+v, %v", pass, err)
	}
	if _, err := rw.accounts.Account(rw.ctx, rw.sc, missed.ID); err != nil {
		t.Fatalf("reconciliation did not bring the missed account: %v", err)
	}
	rw.runJobs(missed.ID)
	rw.clock.Advance(time.Minute)
	reads := rw.up.counted("jobs")
	pass, err = rw.relay.Reconcile(rw.ctx)
	if err != nil || pass.Ingested != 0 || rw.up.counted("jobs") != reads {
		t.Errorf("a settled account ingested again: %+v, %v", pass, err)
	}
	more, err := domain.Relays{rw.relay}.Reconcile(rw.ctx)
	if err != nil || more {
		t.Errorf("Relays.Reconcile: %v, %v", more, err)
	}
}

func TestRelaySyncDirectory(t *testing.T) {
	rw := newRelayWorld(t)
	platform := domain.Platform{ID: domain.NewID(), Name: "Upstream Payroll", Type: domain.PlatformPayroll,
		SupportedJobs: []domain.JobType{domain.JobIdentity}, LastUpdated: rw.clock.Now()}
	rw.up.platforms = []domain.Platform{platform}
	for i := range 3 {
		rw.up.employers = append(rw.up.employers, domain.Employer{ID: domain.NewID(), Name: fmt.Sprintf("Upstream Employer %d", i),
			PlatformID: platform.ID, LastUpdated: rw.clock.Now()})
	}
	st, err := rw.relay.DirectoryStatus(rw.ctx)
	if err != nil || st.Status() != "not synced yet" {
		t.Fatalf("before: %q, %v", st.Status(), err)
	}
	st, err = rw.relay.SyncDirectory(rw.ctx)
	if err != nil || st.Running || st.Read != 3 || st.CompletedAt.IsZero() {
		t.Fatalf("sync %+v, %v", st, err)
	}
	if _, err := rw.dir.Platform(rw.ctx, platform.ID); err != nil {
		t.Errorf("the upstream's platform: %v", err)
	}
	for _, e := range rw.up.employers {
		if got, err := rw.dir.Employer(rw.ctx, e.ID); err != nil || got.Name != e.Name {
			t.Errorf("employer %s: %v", e.Name, err)
		}
	}
	status, err := domain.Relays{rw.relay}.DirectoryStatus(rw.ctx)
	if err != nil || status != st.Status() {
		t.Errorf("Relays.DirectoryStatus %q, %v", status, err)
	}
	rw.up.away = true
	_, err = domain.Relays{rw.relay}.SyncDirectory(rw.ctx)
	wantCode(t, err, domain.CodeUpstreamUnavailable)
}

func TestRelaysRouting(t *testing.T) {
	rw := newRelayWorld(t)
	var none domain.Relays
	wantCode(t, none.HandleWebhook(rw.ctx, func(string) string { return "good" }, []byte(`{}`)), domain.CodeInvalidWebhookSignature)
	if err := none.FollowUp(rw.ctx, domain.IngestRun{Source: "gone", AccountID: domain.NewID()}); err == nil {
		t.Error("an ingest for an upstream no longer configured ran")
	}
	relays := domain.Relays{rw.relay}
	ua := rw.upstreamAccount()
	body, _ := json.Marshal(map[string]any{"event": "account.added", "event_id": "ev-r", "payload": map[string]any{"account_id": ua.ID}})
	if err := relays.HandleWebhook(rw.ctx, func(string) string { return "good" }, body); err != nil {
		t.Fatal(err)
	}
	if _, err := rw.accounts.Account(rw.ctx, rw.sc, ua.ID); err != nil {
		t.Errorf("Relays.HandleWebhook did not reach the upstream's relay: %v", err)
	}
	if err := relays.FollowUp(rw.ctx, domain.IngestRun{Source: "up", AccountID: domain.NewID()}); err != nil {
		t.Errorf("a follow-up of an account that is not ours ends the chain quietly: %v", err)
	}
}

// TestRelayJobBeforeAccount: a job's delivery that comes before its
// account's reads the account (once) and brings both; one whose params
// cannot be read ingests the whole account instead.
func TestRelayJobBeforeAccount(t *testing.T) {
	rw := newRelayWorld(t)
	job := domain.UpstreamJob{ID: domain.NewID(), Name: domain.JobIdentity, Outcome: domain.OutcomeSuccess}
	ua := rw.upstreamAccount(job)
	tok, _ := rw.tx.Upstream().LinkTokenByUpstream(rw.ctx, ua.LinkTokenID)
	if err := rw.deliver("good", map[string]any{"event": "identity.added", "event_id": "ev-j", "payload": map[string]any{
		"id": job.ID, "account_id": ua.ID, "link_token_id": ua.LinkTokenID, "name": "identity", "outcome": "success",
		"timestamp": rw.clock.Now()}}); err != nil {
		t.Fatal(err)
	}
	a, err := rw.accounts.Account(rw.ctx, rw.sc, ua.ID)
	if err != nil || a.LinkTokenID != tok.ID {
		t.Fatalf("the account did not come with its job: %v", err)
	}
	if jobs := rw.queuedJobs(ua.ID); len(jobs) != 1 || jobs[0].ID != job.ID {
		t.Errorf("jobs %+v, want the delivered one", jobs)
	}
	if rw.up.counted("account") != 1 || rw.up.counted("jobs") != 0 {
		t.Errorf("reads: %d account, %d jobs; want the account only", rw.up.counted("account"), rw.up.counted("jobs"))
	}

	second := domain.UpstreamJob{ID: domain.NewID(), Name: domain.JobPaystubs, Outcome: domain.OutcomeSuccess, AccountID: ua.ID}
	rw.up.mu.Lock()
	rw.up.jobs[ua.ID] = append(rw.up.jobs[ua.ID], second)
	rw.up.mu.Unlock()
	if err := rw.deliver("good", map[string]any{"event": "paystubs.added", "event_id": "ev-k", "payload": map[string]any{
		"id": second.ID, "account_id": ua.ID, "link_token_id": ua.LinkTokenID, "name": "paystubs", "outcome": "success",
		"params": "not params"}}); err != nil {
		t.Fatal(err)
	}
	if rw.up.counted("jobs") != 1 || len(rw.queuedJobs(ua.ID)) != 2 {
		t.Errorf("unreadable params: %d job listings, %d jobs; want a full ingest", rw.up.counted("jobs"), len(rw.queuedJobs(ua.ID)))
	}
}

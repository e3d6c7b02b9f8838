package domain_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/domain/search"
	"payline/storage"
	"payline/storage/storagetest"
)

func TestMain(m *testing.M) { os.Exit(storagetest.Main(m)) }

// movableClock is a clock a test moves by hand, so expiries and windows are
// reached without waiting.
type movableClock struct {
	mu  sync.Mutex
	now time.Time
}

// start is the fake clock's first reading: fixed, so the sandbox's
// synthetic pay history is the same on every run.
var start = time.Date(2026, 3, 2, 15, 4, 5, 0, time.UTC)

func newMovableClock() *movableClock { return &movableClock{now: start} }

func (c *movableClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *movableClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// fakeReporter stands for the reports adapter behind domain.Reporter: it
// records what the domain asks of it and answers with links naming what
// was asked, so tests see the port used as documented.
type fakeReporter struct {
	mu    sync.Mutex
	forms []domain.DepositForm
	links []string // ids of documents linked
	err   error    // returned by every call when set
}

func (r *fakeReporter) VerificationReport(context.Context, domain.Scope, string, string, domain.ReportRequest) (domain.VerificationReport, error) {
	return domain.VerificationReport{}, errors.New("fakeReporter: no reports")
}

func (r *fakeReporter) VerificationReports(context.Context, domain.Scope, []string, string) (map[string]domain.VerificationReport, error) {
	return nil, errors.New("fakeReporter: no reports")
}

func (r *fakeReporter) DocumentLinks(_ context.Context, _ domain.Scope, docs []domain.Record) []domain.DocumentLink {
	out := make([]domain.DocumentLink, len(docs))
	for i, d := range docs {
		out[i] = r.link(d.ID)
	}
	return out
}

func (r *fakeReporter) DocumentLink(_ context.Context, _ domain.Scope, doc domain.Record) (domain.DocumentLink, error) {
	if r.err != nil {
		return domain.DocumentLink{}, r.err
	}
	return r.link(doc.ID), nil
}

func (r *fakeReporter) link(id string) domain.DocumentLink {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.links = append(r.links, id)
	return domain.DocumentLink{ID: id, DownloadURL: "https://files.test/" + id}
}

func (r *fakeReporter) DepositForm(_ context.Context, _ domain.Scope, f domain.DepositForm) (domain.DocumentLink, error) {
	if r.err != nil {
		return domain.DocumentLink{}, r.err
	}
	r.mu.Lock()
	r.forms = append(r.forms, f)
	r.mu.Unlock()
	return domain.DocumentLink{ID: f.ID, DownloadURL: "https://files.test/" + f.ID}, nil
}

// ParseUpload makes the fake the domain's UploadParser too, as the real
// reports service is: a file saying "W-2" reads as a W-2 (saying "odd",
// one modified a week after it was made), one saying "BOMB" inflates too
// far, a paystub's JSON reads as that paystub, anything else reads as
// nothing; one saying "SLOW" is read until the context ends, as a file
// whose OCR would outlast every limit.
func (r *fakeReporter) ParseUpload(ctx context.Context, _, _ string, data []byte) ([]domain.ParsedUpload, error) {
	switch {
	case bytes.Contains(data, []byte("SLOW")):
		<-ctx.Done()
		return nil, ctx.Err()
	case bytes.Contains(data, []byte("BOMB")):
		return nil, domain.ErrUploadInflatesTooLarge
	case bytes.Contains(data, []byte("W-2")):
		var facts domain.FileFacts
		if bytes.Contains(data, []byte("odd")) {
			facts.Created, facts.Modified = start, start.Add(7*24*time.Hour)
		}
		w2 := domain.W2{DocumentType: domain.DocumentW2}
		wages := int64(5_000_000)
		w2.FromBoxes(domain.W2Boxes{Box1: &wages})
		return []domain.ParsedUpload{{Data: domain.ParsedDocument{W2: &w2}, File: facts}}, nil
	case bytes.HasPrefix(data, []byte("%PDF-1.4\n{")):
		var p domain.ReadPaystub
		if err := json.Unmarshal(data[len("%PDF-1.4\n"):], &p); err != nil {
			return nil, err
		}
		return []domain.ParsedUpload{{Data: domain.ParsedDocument{Paystub: &p}}}, nil
	}
	return []domain.ParsedUpload{{}}, nil
}

func (r *fakeReporter) Download(context.Context, string, string, string) (domain.File, error) {
	return domain.File{}, errors.New("fakeReporter: no downloads")
}

// world is the domain's services over a real, seeded database, a fake
// clock and the sandbox connector. The queue is never started: a test
// runs the jobs it queued itself (runJobs), so nothing happens behind its
// back and nothing needs waiting for.
type world struct {
	t        *testing.T
	ctx      context.Context
	db       *storage.DB
	tx       *storage.Transactor
	clock    *movableClock
	dir      *domain.DirectoryService
	keys     *domain.KeyService
	key      domain.APIKey
	sc       domain.Scope
	link     *domain.LinkService
	accounts *domain.AccountService
	jobs     *domain.JobService
	reporter *fakeReporter
	// payroll is a sandbox payroll platform that runs every read job and
	// direct deposit switches.
	payroll domain.Platform
}

func newWorld(t *testing.T, d storage.Dialect, mode domain.Mode) *world {
	t.Helper()
	db := storagetest.Open(t, d, storagetest.Seeded)
	ctx := context.Background()
	q, err := storage.NewQueue(db, storage.QueueConfig{})
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, ctx: ctx, db: db, tx: storage.NewTransactor(db, q), clock: newMovableClock(), reporter: &fakeReporter{}}
	ks := storage.NewKeyStore(db)
	w.keys = domain.NewKeyService(ks, ks, w.clock)
	created, err := w.keys.CreateKey(ctx, "acme", mode)
	if err != nil {
		t.Fatal(err)
	}
	w.key, w.sc = created.Key, created.Key.Scope()
	w.dir = domain.NewDirectoryService(storage.NewDirectoryStore(db), domain.NoRelay{}, search.Build)
	conn := sandbox.Connector{PendingDelay: time.Hour, PendingPoll: time.Minute}
	w.jobs = domain.NewJobService(w.tx, conn, w.clock)
	w.accounts = domain.NewAccountService(w.tx, w.clock, w.reporter, domain.NoRelay{})
	w.link = domain.NewLinkService(w.tx, w.dir, conn, domain.NoRelay{}, w.clock, w.reporter)
	w.payroll = w.platformSupporting(domain.JobDirectDepositSwitch, domain.JobPaystubs, domain.JobIdentity, domain.JobTaxForms)
	return w
}

// platformSupporting returns the first sandbox payroll platform (not a
// partnership) that supports every job named.
func (w *world) platformSupporting(jobs ...domain.JobType) domain.Platform {
	w.t.Helper()
	all, err := domain.ReadAll(w.ctx, func(ctx context.Context, p domain.PageRequest) (domain.Page[domain.Platform], error) {
		return w.dir.ListPlatforms(ctx, domain.PlatformFilter{Type: domain.PlatformPayroll}, p)
	})
	if err != nil {
		w.t.Fatal(err)
	}
	for _, p := range all {
		if !p.Partnership && domain.Supports(p.SupportedJobs, jobs) {
			return p
		}
	}
	w.t.Fatalf("no sandbox payroll platform supports %v", jobs)
	return domain.Platform{}
}

// target is a valid allocation target.
var target = domain.AllocationTarget{Name: "Checking", Type: "checking", AccountNumber: "1234567890", RoutingNumber: "021000021"}

// mustToken creates a link token for end user "erin" on w.payroll
// (unless r names a platform or employer), with r's other fields.
func (w *world) mustToken(r domain.LinkTokenRequest) (domain.LinkToken, string) {
	w.t.Helper()
	if r.OrgName == "" {
		r.OrgName = "Acme Lending"
	}
	if r.EndUserID == "" && r.AccountID == "" {
		r.EndUserID = "erin"
	}
	tok, value, err := w.link.CreateLinkToken(w.ctx, w.sc, r, domain.LatestVersion)
	if err != nil {
		w.t.Fatalf("CreateLinkToken: %v", err)
	}
	return tok, value
}

// mustLogin logs user in to w.payroll through a new token asking for jobs.
func (w *world) mustLogin(user string, jobs ...string) (domain.Account, string) {
	w.t.Helper()
	_, value := w.mustToken(domain.LinkTokenRequest{RequiredJobs: jobs})
	a, err := w.link.Login(w.ctx, value, domain.LoginRequest{PlatformID: w.payroll.ID,
		Credentials: domain.Credentials{Username: user, Password: sandbox.Password}})
	if err != nil {
		w.t.Fatalf("Login(%s): %v", user, err)
	}
	return a, value
}

// queuedJobs lists every job of the account, run or not.
func (w *world) queuedJobs(accountID string) []domain.Job {
	w.t.Helper()
	all, err := domain.ReadAll(w.ctx, func(ctx context.Context, p domain.PageRequest) (domain.Page[domain.Job], error) {
		return w.tx.Jobs().FindJobs(ctx, w.sc, domain.JobFilter{AccountID: accountID, IncludeUnrun: true}, p)
	})
	if err != nil {
		w.t.Fatal(err)
	}
	return all
}

// runJobs makes one attempt at every job of the account that has no
// final outcome, as the queue would, and returns the jobs afterwards.
func (w *world) runJobs(accountID string) []domain.Job {
	w.t.Helper()
	for _, j := range w.queuedJobs(accountID) {
		if j.Outcome == domain.OutcomeSuccess || j.Outcome == domain.OutcomeError {
			continue
		}
		if _, err := w.jobs.Run(w.ctx, domain.JobRun{Scope: w.sc, JobID: j.ID}); err != nil {
			w.t.Fatalf("run %s: %v", j.Name, err)
		}
	}
	return w.queuedJobs(accountID)
}

// events are the names of the scope's events, oldest first.
func (w *world) events() []string {
	w.t.Helper()
	evs, err := w.tx.Events().ListEvents(w.ctx, w.sc)
	if err != nil {
		w.t.Fatal(err)
	}
	var names []string
	for _, e := range evs {
		names = append(names, e.Name)
	}
	return names
}

// countEvents counts the scope's events named name.
func (w *world) countEvents(name string) int {
	w.t.Helper()
	n := 0
	for _, e := range w.events() {
		if e == name {
			n++
		}
	}
	return n
}

// wantCode fails unless err is a *domain.Error with the code (or nil
// when code is "").
func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if code == "" {
		if err != nil {
			t.Fatalf("err = %v, want none", err)
		}
		return
	}
	var de *domain.Error
	if !errors.As(err, &de) {
		t.Fatalf("err = %v, want a domain error %s", err, code)
	}
	if de.Code != code {
		t.Fatalf("code = %s (%v), want %s", de.Code, err, code)
	}
}

// jobNamed returns the job of the list with the name.
func jobNamed(t *testing.T, jobs []domain.Job, name domain.JobType) domain.Job {
	t.Helper()
	i := slices.IndexFunc(jobs, func(j domain.Job) bool { return j.Name == name })
	if i < 0 {
		t.Fatalf("no %s job among %d", name, len(jobs))
	}
	return jobs[i]
}

// bothDialects runs fn on SQLite and PostgreSQL, each with its own world.
func bothDialects(t *testing.T, mode domain.Mode, fn func(t *testing.T, w *world)) {
	for _, d := range storagetest.DialectList() {
		t.Run(string(d), func(t *testing.T) { fn(t, newWorld(t, d, mode)) })
	}
}

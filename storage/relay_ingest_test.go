package storage_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"payline/connectors/upstream"
	"payline/domain"
	"payline/domain/search"
	"payline/internal/secretbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// signedUpstream is accountsUpstream whose deliveries all verify, and
// which counts the reads an ingest makes of it.
type signedUpstream struct {
	*accountsUpstream
	mu sync.Mutex
	n  map[string]int
}

func (u *signedUpstream) count(what string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.n[what]++
}

func (u *signedUpstream) counted(what string) int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.n[what]
}

func (u *signedUpstream) Account(ctx context.Context, id string) (domain.UpstreamAccount, error) {
	u.count("account")
	return u.accountsUpstream.Account(ctx, id)
}

func (u *signedUpstream) Jobs(ctx context.Context, id string) ([]domain.UpstreamJob, error) {
	u.count("jobs")
	return u.accountsUpstream.Jobs(ctx, id)
}

func (u *signedUpstream) VerifyWebhook(func(string) string, []byte, time.Time) error { return nil }

func (u *signedUpstream) ParseWebhook(body []byte) (domain.UpstreamDelivery, error) {
	return upstream.ParseDelivery(body)
}

// relayFixture is a relayed customer, its relay service over a real
// store, and an upstream whose accounts a test adds.
type relayFixture struct {
	tx    *storage.Transactor
	relay *domain.RelayService
	up    *signedUpstream
	sc    domain.Scope
	logs  *bytes.Buffer
	// connect adds an upstream account made through a new token of ours,
	// returning the account id and the upstream token id.
	connect func(jobs ...domain.JobType) (accountID, upstreamToken string)
}

func newRelayFixture(t *testing.T, db *storage.DB) *relayFixture {
	t.Helper()
	ctx := context.Background()
	box, err := secretbox.New(bytes.Repeat([]byte{5}, secretbox.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	db.SealWith(box)
	customer := domain.Customer{ID: domain.NewID(), Name: "relayed", CreatedAt: time.Now().UTC().Truncate(time.Microsecond)}
	if err := storage.NewKeyStore(db).CreateCustomer(ctx, customer); err != nil {
		t.Fatal(err)
	}
	q, err := storage.NewQueue(db, storage.QueueConfig{})
	if err != nil {
		t.Fatal(err)
	}
	f := &relayFixture{tx: storage.NewTransactor(db, q), sc: domain.Scope{CustomerID: customer.ID, Mode: domain.ModeDevelopment},
		up: &signedUpstream{accountsUpstream: &accountsUpstream{accounts: map[string]domain.UpstreamAccount{},
			jobs: map[string][]domain.UpstreamJob{}}, n: map[string]int{}}, logs: &bytes.Buffer{}}
	dir := domain.NewDirectoryService(storage.NewDirectoryStore(db), domain.NoRelay{}, search.Build)
	platforms, err := dir.ListPlatforms(ctx, domain.PlatformFilter{}, domain.PageRequest{Limit: 1})
	if err != nil || len(platforms.Items) == 0 {
		t.Fatalf("platforms: %v", err)
	}
	var logMu sync.Mutex
	f.relay = domain.NewRelayService(f.tx, "upstream", f.up, dir, domain.SystemClock{},
		slog.New(slog.NewTextHandler(&lockedWriter{&logMu, f.logs}, &slog.HandlerOptions{Level: slog.LevelDebug})))
	now := time.Now().UTC().Truncate(time.Microsecond)
	f.connect = func(jobs ...domain.JobType) (string, string) {
		tok := domain.LinkToken{ID: domain.NewID(), CustomerID: customer.ID, Mode: f.sc.Mode, TokenHash: []byte(domain.NewID()),
			CreatedAt: now, Expires: now.Add(time.Hour), APIVersion: "2025-07-08", EndUserID: "erin", RequiredJobs: jobs}
		if err := f.tx.LinkTokens().CreateLinkToken(ctx, f.sc, tok); err != nil {
			t.Fatal(err)
		}
		upTok := "up-" + tok.ID
		if err := f.tx.Upstream().PutUpstreamLink(ctx, f.sc, domain.UpstreamLink{LinkTokenID: tok.ID,
			UpstreamToken: domain.UpstreamToken{ID: upTok, Token: "value"}}, now); err != nil {
			t.Fatal(err)
		}
		id := domain.NewID()
		f.up.mu.Lock()
		f.up.accounts[id] = domain.UpstreamAccount{ID: id, LinkTokenID: upTok, EndUserID: "payline-erin", PlatformID: platforms.Items[0].ID,
			CreatedAt: now, Connected: true}
		f.up.mu.Unlock()
		return id, upTok
	}
	return f
}

// delivery is an upstream delivery's body.
func delivery(t *testing.T, event, id string, payload map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"event": event, "event_id": id, "payload": payload})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func noHeader(string) string { return "" }

// TestRelayIngestIdempotentUnderConcurrency: ten copies of one signed
// delivery at once, and ten ingests of one account at once, all succeed
// and leave one account, its jobs once and one account.added event.
func TestRelayIngestIdempotentUnderConcurrency(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		f := newRelayFixture(t, db)
		for _, via := range []string{"deliveries", "ingests"} {
			id, _ := f.connect(domain.JobPaystubs, domain.JobIdentity)
			f.up.mu.Lock()
			f.up.jobs[id] = []domain.UpstreamJob{
				{ID: domain.NewID(), AccountID: id, Name: domain.JobPaystubs, Outcome: domain.OutcomeSuccess, CreatedAt: time.Now().UTC()},
				{ID: domain.NewID(), AccountID: id, Name: domain.JobIdentity, Outcome: domain.OutcomeSuccess, CreatedAt: time.Now().UTC()}}
			f.up.mu.Unlock()
			body := delivery(t, "account.added", domain.NewID(), map[string]any{"account_id": id})
			var wg sync.WaitGroup
			errs := make(chan error, 10)
			for range 10 {
				wg.Go(func() {
					if via == "deliveries" {
						errs <- f.relay.HandleWebhook(ctx, noHeader, body)
					} else {
						errs <- f.relay.Ingest(ctx, id)
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatalf("%s: %v", via, err)
				}
			}
			if _, err := f.tx.Accounts().Account(ctx, f.sc, id); err != nil {
				t.Fatalf("%s: the account: %v", via, err)
			}
			page, err := f.tx.Jobs().FindJobs(ctx, f.sc, domain.JobFilter{AccountID: id, IncludeUnrun: true}, domain.PageRequest{Limit: 10})
			if err != nil || len(page.Items) != 2 {
				t.Fatalf("%s: %d jobs, %v; want 2", via, len(page.Items), err)
			}
		}
		events, err := f.tx.Events().ListEvents(ctx, f.sc)
		if err != nil {
			t.Fatal(err)
		}
		added := 0
		for _, e := range events {
			if e.Name == "account.added" {
				added++
			}
		}
		if added != 2 {
			t.Errorf("%d account.added events for two accounts", added)
		}
		if strings.Contains(f.logs.String(), "level=ERROR") {
			t.Errorf("errors logged:\n%s", f.logs)
		}
	})
}

// TestRelayDeliveriesNeedNoReads: an account.added that carries the
// account creates it without reading the upstream; a job's delivery for
// an account here records the job without a read; a replayed event id
// reads nothing; a delivery for an account the upstream does not have is
// acknowledged and logged at INFO with its event id.
func TestRelayDeliveriesNeedNoReads(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		f := newRelayFixture(t, db)
		id, upTok := f.connect(domain.JobPaystubs)
		ua := f.up.accounts[id]
		added := delivery(t, "account.added", "evt-1", map[string]any{"account_id": id, "link_token_id": upTok,
			"platform_id": ua.PlatformID, "end_user_id": ua.EndUserID, "created_at": domain.APITime(ua.CreatedAt), "connected": true})
		if err := f.relay.HandleWebhook(ctx, noHeader, added); err != nil {
			t.Fatal(err)
		}
		jobID := domain.NewID()
		job := delivery(t, "paystubs.added", "evt-2", map[string]any{"id": jobID, "account_id": id, "link_token_id": upTok,
			"name": "paystubs", "outcome": "success", "timestamp": domain.APITime(time.Now().UTC()), "params": nil})
		if err := f.relay.HandleWebhook(ctx, noHeader, job); err != nil {
			t.Fatal(err)
		}
		for _, body := range [][]byte{added, job} { // replays
			if err := f.relay.HandleWebhook(ctx, noHeader, body); err != nil {
				t.Fatal(err)
			}
		}
		if a, j := f.up.counted("account"), f.up.counted("jobs"); a != 0 || j != 0 {
			t.Errorf("%d account reads and %d job lists for two deliveries and their replays; want none", a, j)
		}
		if _, err := f.tx.Accounts().Account(ctx, f.sc, id); err != nil {
			t.Fatalf("the account: %v", err)
		}
		if _, err := f.tx.Jobs().Job(ctx, f.sc, jobID); err != nil {
			t.Fatalf("the job: %v", err)
		}

		unknown := delivery(t, "account.added", "evt-unknown", map[string]any{"account_id": domain.NewID()})
		if err := f.relay.HandleWebhook(ctx, noHeader, unknown); err != nil {
			t.Fatalf("a delivery for an account the upstream does not have: %v; want it acknowledged", err)
		}
		if logs := f.logs.String(); !strings.Contains(logs, "level=INFO") || !strings.Contains(logs, "evt-unknown") {
			t.Errorf("the unknown account's delivery was not logged at INFO with its event id:\n%s", logs)
		}
		if strings.Contains(f.logs.String(), "level=ERROR") {
			t.Errorf("errors logged:\n%s", f.logs)
		}
	})
}

// TestRelayDeliveryQueuedWhenUpstreamAway: a delivery whose account
// cannot be read (the upstream away) is acknowledged, and its ingest is
// queued instead of lost.
func TestRelayDeliveryQueuedWhenUpstreamAway(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		f := newRelayFixture(t, db)
		id, _ := f.connect(domain.JobPaystubs)
		away := &awayUpstream{signedUpstream: f.up}
		relay := domain.NewRelayService(f.tx, "upstream", away, domain.NewDirectoryService(storage.NewDirectoryStore(db), domain.NoRelay{}, search.Build), domain.SystemClock{}, nil)
		if err := relay.HandleWebhook(ctx, noHeader, delivery(t, "account.added", "evt-away", map[string]any{"account_id": id})); err != nil {
			t.Fatalf("delivery while the upstream is away: %v; want it acknowledged", err)
		}
		var n int
		if err := db.Get(&n, `SELECT COUNT(*) FROM river_job WHERE kind = 'upstream_ingest'`); err != nil || n != 1 {
			t.Fatalf("%d ingests queued, %v; want 1", n, err)
		}
		if seen, err := f.tx.Upstream().UpstreamEventSeen(ctx, "evt-away", time.Now().Add(-time.Minute)); err != nil || !seen {
			t.Errorf("the queued delivery's event id is not remembered (%v): its replay would read again", err)
		}
	})
}

// awayUpstream cannot be reached.
type awayUpstream struct{ *signedUpstream }

func (awayUpstream) Account(context.Context, string) (domain.UpstreamAccount, error) {
	return domain.UpstreamAccount{}, domain.UpstreamUnavailable("the upstream", 3*time.Second, fmt.Errorf("connection refused"))
}

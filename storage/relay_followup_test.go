package storage_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/search"
	"payline/internal/secretbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// accountsUpstream is an upstream of a few accounts whose jobs a test
// sets, answering the two reads an ingest makes. The rest of the port is
// never called here (a nil embedded interface would panic if it were).
type accountsUpstream struct {
	domain.Upstream

	mu       sync.Mutex
	accounts map[string]domain.UpstreamAccount
	jobs     map[string][]domain.UpstreamJob
}

func (u *accountsUpstream) Account(_ context.Context, id string) (domain.UpstreamAccount, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	a, ok := u.accounts[id]
	if !ok {
		return a, fmt.Errorf("GET /v1/accounts/%s: %w", id, domain.ErrNoRows)
	}
	return a, nil
}

func (u *accountsUpstream) Learned(domain.UpstreamJob) {}

func (u *accountsUpstream) Jobs(_ context.Context, id string) ([]domain.UpstreamJob, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return slices.Clone(u.jobs[id]), nil
}

// TestRelayFollowsUpEventlessJobs: the upstream sends no event for a
// bill cancellation and lists a job only once it has run, so an account
// whose token asked for one is ingested again after its first sight, on
// the follow-up schedule and no more; one that ran after the first
// ingest arrives with a follow-up. A token without such a job queues no
// follow-up.
func TestRelayFollowsUpEventlessJobs(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
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
		sc := domain.Scope{CustomerID: customer.ID, Mode: domain.ModeDevelopment}
		q, err := storage.NewQueue(db, storage.QueueConfig{PollInterval: 50 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		tx := storage.NewTransactor(db, q)
		dir := domain.NewDirectoryService(storage.NewDirectoryStore(db), domain.NoRelay{}, search.Build)
		platforms, err := dir.ListPlatforms(ctx, domain.PlatformFilter{}, domain.PageRequest{Limit: 1})
		if err != nil || len(platforms.Items) == 0 {
			t.Fatalf("platforms: %v", err)
		}
		up := &accountsUpstream{accounts: map[string]domain.UpstreamAccount{}, jobs: map[string][]domain.UpstreamJob{}}
		now := time.Now().UTC().Truncate(time.Microsecond)
		// account connects an upstream account through a token of ours
		// that asked for jobs.
		account := func(jobs ...domain.JobType) string {
			tok := domain.LinkToken{ID: domain.NewID(), CustomerID: customer.ID, Mode: sc.Mode, TokenHash: []byte(domain.NewID()),
				CreatedAt: now, Expires: now.Add(time.Hour), APIVersion: "2025-07-08", EndUserID: "erin", RequiredJobs: jobs}
			if err := tx.LinkTokens().CreateLinkToken(ctx, sc, tok); err != nil {
				t.Fatal(err)
			}
			upTok := "up-" + tok.ID
			if err := tx.Upstream().PutUpstreamLink(ctx, sc, domain.UpstreamLink{LinkTokenID: tok.ID,
				UpstreamToken: domain.UpstreamToken{ID: upTok, Token: "value"}}, now); err != nil {
				t.Fatal(err)
			}
			id := domain.NewID()
			up.mu.Lock()
			up.accounts[id] = domain.UpstreamAccount{ID: id, LinkTokenID: upTok, EndUserID: "payline-erin", PlatformID: platforms.Items[0].ID,
				CreatedAt: now, Connected: true}
			up.mu.Unlock()
			return id
		}
		var mu sync.Mutex
		var runs []domain.IngestRun
		relay := domain.NewRelayService(tx, "upstream", up, dir, domain.SystemClock{}, nil)
		// River promotes scheduled jobs every few seconds, so two follow-ups
		// (however short their delays) take that long twice.
		relay.FollowUpAfter(100*time.Millisecond, 100*time.Millisecond)
		err = q.Start(ctx, storage.Runners{Job: noJobs, Delivery: noDeliveries,
			Schedule: func(context.Context, string) (string, error) { return "", nil },
			Refresh:  func(context.Context, domain.RefreshRun) error { return nil },
			Ingest: func(ctx context.Context, r domain.IngestRun) error {
				mu.Lock()
				runs = append(runs, r)
				mu.Unlock()
				return relay.FollowUp(ctx, r)
			}})
		if err != nil {
			t.Fatal(err)
		}
		defer q.Stop(context.Background())
		followUps := func(state string) int {
			var n int
			if err := db.Get(&n, `SELECT COUNT(*) FROM river_job WHERE kind = 'upstream_ingest' AND CAST(state AS TEXT) LIKE '`+state+`'`); err != nil {
				t.Fatal(err)
			}
			return n
		}

		// Paystubs have an event of their own: no follow-up. The queue
		// is written in the ingest's transaction, so this holds at once.
		if err := relay.Ingest(ctx, account(domain.JobPaystubs)); err != nil {
			t.Fatal(err)
		}
		if n := followUps("%"); n != 0 {
			t.Fatalf("%d follow-ups for an account that asked for paystubs", n)
		}

		cancel := account(domain.JobBillCancellation)
		if err := relay.Ingest(ctx, cancel); err != nil {
			t.Fatal(err)
		}
		if n := followUps("%"); n != 1 {
			t.Fatalf("%d follow-ups queued for a bill cancellation's account, want 1", n)
		}
		// The upstream's job runs after the first ingest read its jobs.
		job := domain.UpstreamJob{ID: domain.NewID(), AccountID: cancel, Name: domain.JobBillCancellation, CreatedAt: now,
			Outcome: domain.OutcomeSuccess}
		up.mu.Lock()
		up.jobs[cancel] = []domain.UpstreamJob{job}
		up.mu.Unlock()
		waitFor(t, 30*time.Second, "the bill cancellation to reach the relay", func() bool {
			_, err := tx.Jobs().Job(ctx, sc, job.ID)
			return err == nil
		})
		waitFor(t, 30*time.Second, "both follow-ups to complete", func() bool { return followUps("completed") == 2 })
		if n := followUps("%"); n != 2 {
			t.Errorf("%d follow-ups in all, want the schedule's 2", n)
		}
		mu.Lock()
		defer mu.Unlock()
		for i, r := range runs {
			if r.AccountID != cancel || r.Attempt != i+1 {
				t.Errorf("follow-up %d: %+v", i+1, r)
			}
		}
	})
}

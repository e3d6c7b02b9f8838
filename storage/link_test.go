package storage_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// tenant is a customer's sandbox scope on a fresh database, with the
// transactor its stores are reached through.
type tenant struct {
	db       *storage.DB
	tx       *storage.Transactor
	sc       domain.Scope
	now      time.Time
	platform string // a platform its accounts are on
}

func newTenant(t *testing.T, db *storage.DB) tenant {
	t.Helper()
	ctx := context.Background()
	now := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	c := domain.Customer{ID: domain.NewID(), Name: "tenant-" + domain.NewID(), CreatedAt: now}
	if err := storage.NewKeyStore(db).CreateCustomer(ctx, c); err != nil {
		t.Fatal(err)
	}
	q, err := storage.NewQueue(db, storage.QueueConfig{})
	if err != nil {
		t.Fatal(err)
	}
	p := domain.Platform{ID: domain.NewID(), Name: "Test Payroll " + c.ID, Type: domain.PlatformPayroll,
		SupportedJobs: []domain.JobType{domain.JobIdentity, domain.JobDirectDepositSwitch}, LastUpdated: now}
	if err := storage.NewDirectoryStore(db).UpsertDirectory(ctx, []domain.Platform{p}, nil); err != nil {
		t.Fatal(err)
	}
	return tenant{db: db, tx: storage.NewTransactor(db, q), sc: domain.Scope{CustomerID: c.ID, Mode: domain.ModeSandbox}, now: now, platform: p.ID}
}

func (tn tenant) token(t *testing.T, hash string) domain.LinkToken {
	t.Helper()
	tok := domain.LinkToken{ID: domain.NewID(), CustomerID: tn.sc.CustomerID, Mode: tn.sc.Mode, TokenHash: []byte(hash),
		CreatedAt: tn.now, Expires: tn.now.Add(time.Hour), APIVersion: domain.LatestVersion, OrgName: "Acme", EndUserID: "erin",
		RequiredJobs: []domain.JobType{domain.JobIdentity}, PlatformMatching: &domain.PlatformMatching{FirstName: "Erin"}}
	if err := tn.tx.LinkTokens().CreateLinkToken(context.Background(), tn.sc, tok); err != nil {
		t.Fatal(err)
	}
	return tok
}

func (tn tenant) account(t *testing.T, tok domain.LinkToken, created time.Time) domain.Account {
	t.Helper()
	a := domain.Account{ID: domain.NewID(), CustomerID: tn.sc.CustomerID, Mode: tn.sc.Mode, CreatedAt: created, LinkTokenID: tok.ID,
		PlatformID: tn.platform, EndUserID: tok.EndUserID, Connected: true, MonitoringStatus: domain.MonitoringActive,
		DataUpdatedAt: map[string]time.Time{}, DataRefreshedAt: map[string]time.Time{}, Connection: "good", EmployerName: "Acme Co"}
	if err := tn.tx.Accounts().CreateAccount(context.Background(), tn.sc, a); err != nil {
		t.Fatal(err)
	}
	return a
}

func TestLinkTokenStore(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		tn, other := newTenant(t, db), newTenant(t, db)
		tok := tn.token(t, "hash-1")
		got, err := tn.tx.LinkTokens().LinkTokenByHash(ctx, []byte("hash-1"))
		if err != nil || got.ID != tok.ID || got.PlatformMatching == nil || got.PlatformMatching.FirstName != "Erin" || got.Allocation != nil {
			t.Fatalf("by hash: %+v, %v; want the token with its matching identifiers opened", got, err)
		}
		if !slices.Equal(got.RequiredJobs, tok.RequiredJobs) || !got.Expires.Equal(tok.Expires) || string(got.TokenHash) != "hash-1" {
			t.Errorf("read back %+v", got)
		}
		if _, err := tn.tx.LinkTokens().LinkTokenByHash(ctx, []byte("nope")); !errors.Is(err, domain.ErrNoRows) {
			t.Errorf("unknown hash: %v", err)
		}
		if _, err := other.tx.LinkTokens().LinkToken(ctx, other.sc, tok.ID); !errors.Is(err, domain.ErrNoRows) {
			t.Errorf("another tenant read the token: %v", err)
		}
		if err := tn.tx.LinkTokens().MarkLinkTokenUsed(ctx, tn.sc, tok.ID, tn.now); err != nil {
			t.Fatal(err)
		}
		if err := tn.tx.LinkTokens().MarkLinkTokenUsed(ctx, tn.sc, tok.ID, tn.now.Add(time.Minute)); !errors.Is(err, domain.ErrNoRows) {
			t.Errorf("a second use: %v, want ErrNoRows", err)
		}
		if got, _ := tn.tx.LinkTokens().LinkToken(ctx, tn.sc, tok.ID); got.UsedAt == nil || !got.UsedAt.Equal(tn.now) {
			t.Errorf("used at %v, want the first use", got.UsedAt)
		}
		if err := tn.tx.LinkTokens().ForgetPlatformMatching(ctx, tn.sc, tok.ID); err != nil {
			t.Fatal(err)
		}
		found, err := tn.tx.LinkTokens().LinkTokensByID(ctx, tn.sc, []string{domain.NewID(), tok.ID})
		if err != nil || len(found) != 1 || found[0].ID != tok.ID {
			t.Errorf("LinkTokensByID: %d, %v", len(found), err)
		}
	})
}

func TestLinkTokenCorruptHash(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Empty)
	ctx := context.Background()
	tn := newTenant(t, db)
	tok := tn.token(t, "hash-1")
	if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE link_tokens SET token_hash = ? WHERE id = ?`), "not hex", tok.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := tn.tx.LinkTokens().LinkToken(ctx, tn.sc, tok.ID); err == nil {
		t.Fatal("a token whose stored hash is not hex read as a token")
	}
}

func TestAccountStore(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		tn, other := newTenant(t, db), newTenant(t, db)
		tok := tn.token(t, "h")
		older := tn.account(t, tok, tn.now)
		newer := tn.account(t, tn.token(t, "h2"), tn.now.Add(time.Minute))
		got, err := tn.tx.Accounts().Account(ctx, tn.sc, older.ID)
		if err != nil || got.Connection != "good" || got.EmployerName != "Acme Co" || !got.CreatedAt.Equal(tn.now) {
			t.Fatalf("Account: %+v, %v", got, err)
		}
		if _, err := other.tx.Accounts().Account(ctx, other.sc, older.ID); !errors.Is(err, domain.ErrNoRows) {
			t.Errorf("another tenant read the account: %v", err)
		}
		page, err := tn.tx.Accounts().FindAccounts(ctx, tn.sc, domain.AccountFilter{EndUserID: "erin"}, domain.PageRequest{Limit: 1})
		if err != nil || len(page.Items) != 1 || page.Items[0].ID != newer.ID || page.Next == nil {
			t.Fatalf("first page: %+v, %v (newest first)", page.Items, err)
		}
		page, err = tn.tx.Accounts().FindAccounts(ctx, tn.sc, domain.AccountFilter{EndUserID: "erin"}, domain.PageRequest{Limit: 1, Cursor: page.Next})
		if err != nil || len(page.Items) != 1 || page.Items[0].ID != older.ID || page.Next != nil {
			t.Fatalf("second page: %+v, %v", page.Items, err)
		}
		off := false
		if page, _ := tn.tx.Accounts().FindAccounts(ctx, tn.sc, domain.AccountFilter{Connected: &off}, domain.PageRequest{Limit: 10}); len(page.Items) != 0 {
			t.Errorf("%d disconnected accounts, want none yet", len(page.Items))
		}
		byToken, err := tn.tx.Accounts().FindAccounts(ctx, tn.sc, domain.AccountFilter{LinkTokenID: tok.ID}, domain.PageRequest{Limit: 10})
		if err != nil || len(byToken.Items) != 1 || byToken.Items[0].ID != older.ID {
			t.Errorf("by token: %+v, %v", byToken.Items, err)
		}
		err = tn.tx.InTx(ctx, func(ctx context.Context, tx domain.Tx) error {
			a, err := tx.Accounts().AccountForUpdate(ctx, tn.sc, older.ID)
			if err != nil {
				return err
			}
			a.Connected, a.MonitoringStatus = false, domain.MonitoringUnavailable
			a.DataRefreshedAt[domain.ProductIdentity] = tn.now
			return tx.Accounts().UpdateAccount(ctx, tn.sc, a)
		})
		if err != nil {
			t.Fatal(err)
		}
		got, _ = tn.tx.Accounts().Account(ctx, tn.sc, older.ID)
		if got.Connected || got.MonitoringStatus != domain.MonitoringUnavailable || !got.DataRefreshedAt[domain.ProductIdentity].Equal(tn.now) {
			t.Errorf("after update: %+v", got)
		}
		if page, _ := tn.tx.Accounts().FindAccounts(ctx, tn.sc, domain.AccountFilter{Connected: &off}, domain.PageRequest{Limit: 10}); len(page.Items) != 1 {
			t.Errorf("%d disconnected accounts, want 1", len(page.Items))
		}
	})
}

func TestTransactorRollsBack(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		tn := newTenant(t, db)
		tok := tn.token(t, "h")
		boom := errors.New("boom")
		var id string
		err := tn.tx.InTx(ctx, func(ctx context.Context, tx domain.Tx) error {
			a := domain.Account{ID: domain.NewID(), CustomerID: tn.sc.CustomerID, Mode: tn.sc.Mode, CreatedAt: tn.now, LinkTokenID: tok.ID,
				PlatformID: tn.platform, EndUserID: "erin", Connected: true, MonitoringStatus: domain.MonitoringActive,
				DataUpdatedAt: map[string]time.Time{}, DataRefreshedAt: map[string]time.Time{}}
			id = a.ID
			if err := tx.Accounts().CreateAccount(ctx, tn.sc, a); err != nil {
				return err
			}
			if err := domain.PublishEvent(ctx, tx, tn.sc, "account.added", tn.now, map[string]string{"account_id": a.ID}); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("InTx: %v, want fn's error", err)
		}
		if _, err := tn.tx.Accounts().Account(ctx, tn.sc, id); !errors.Is(err, domain.ErrNoRows) {
			t.Errorf("the account outlived the rollback: %v", err)
		}
		if evs, _ := tn.tx.Events().ListEvents(ctx, tn.sc); len(evs) != 0 {
			t.Errorf("%d events outlived the rollback", len(evs))
		}
	})
}

func TestJobStore(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		tn := newTenant(t, db)
		tok := tn.token(t, "h")
		a := tn.account(t, tok, tn.now)
		job := func(name domain.JobType, created time.Time) domain.Job {
			j := domain.Job{ID: domain.NewID(), CustomerID: tn.sc.CustomerID, Mode: tn.sc.Mode, AccountID: a.ID, PlatformID: a.PlatformID,
				PlatformName: "P", EndUserID: "erin", LinkTokenID: tok.ID, Name: name, CreatedAt: created}
			if name == domain.JobDirectDepositSwitch {
				j.Params = domain.JobParams{Action: domain.ActionFullSwitch}
				j.Target = &domain.SwitchTarget{Name: "Checking", Type: "checking", LastFour: "7890", RoutingNumber: "021000021"}
			}
			if err := tn.tx.Jobs().CreateJob(ctx, tn.sc, j); err != nil {
				t.Fatal(err)
			}
			return j
		}
		identity := job(domain.JobIdentity, tn.now)
		sw := job(domain.JobDirectDepositSwitch, tn.now.Add(time.Second))
		err := tn.tx.Jobs().CreateJob(ctx, tn.sc, domain.Job{ID: domain.NewID(), CustomerID: tn.sc.CustomerID, Mode: tn.sc.Mode, AccountID: a.ID,
			LinkTokenID: tok.ID, Name: domain.JobDirectDepositSwitch, CreatedAt: tn.now})
		if !errors.Is(err, domain.ErrDuplicate) {
			t.Errorf("a second switch of one token: %v, want ErrDuplicate", err)
		}
		got, err := tn.tx.Jobs().Job(ctx, tn.sc, sw.ID)
		if err != nil || got.Params.Action != domain.ActionFullSwitch || got.Target == nil || got.Target.LastFour != "7890" {
			t.Fatalf("switch read back: %+v, %v", got, err)
		}
		unrun, err := tn.tx.Jobs().FindJobs(ctx, tn.sc, domain.JobFilter{AccountID: a.ID}, domain.PageRequest{Limit: 10})
		if err != nil || len(unrun.Items) != 0 {
			t.Errorf("jobs not run yet are listed: %d, %v", len(unrun.Items), err)
		}
		all, err := tn.tx.Jobs().FindJobs(ctx, tn.sc, domain.JobFilter{AccountID: a.ID, IncludeUnrun: true}, domain.PageRequest{Limit: 10})
		if err != nil || len(all.Items) != 2 {
			t.Errorf("IncludeUnrun: %d, %v", len(all.Items), err)
		}
		at := tn.now.Add(time.Minute)
		identity.Outcome, identity.Timestamp = domain.OutcomeSuccess, &at
		if err := tn.tx.Jobs().UpdateJobOutcome(ctx, tn.sc, identity); err != nil {
			t.Fatal(err)
		}
		identity.Outcome = domain.OutcomeError
		if err := tn.tx.Jobs().UpdateJobOutcome(ctx, tn.sc, identity); !errors.Is(err, domain.ErrNoRows) {
			t.Errorf("changing a final outcome: %v, want ErrNoRows", err)
		}
		done, err := tn.tx.Jobs().FindJobs(ctx, tn.sc, domain.JobFilter{AccountID: a.ID, Outcome: domain.OutcomeSuccess}, domain.PageRequest{Limit: 10})
		if err != nil || len(done.Items) != 1 || done.Items[0].ID != identity.ID || done.Items[0].Outcome != domain.OutcomeSuccess {
			t.Errorf("successful jobs: %+v, %v", done.Items, err)
		}
		byType, err := tn.tx.Jobs().FindJobs(ctx, tn.sc, domain.JobFilter{JobTypes: []domain.JobType{domain.JobDirectDepositSwitch}, IncludeUnrun: true},
			domain.PageRequest{Limit: 10})
		if err != nil || len(byType.Items) != 1 || byType.Items[0].ID != sw.ID {
			t.Errorf("by type: %+v, %v", byType.Items, err)
		}
	})
}

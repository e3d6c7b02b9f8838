package domain_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
)

func TestMonitoringRefresh(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	mon := domain.NewMonitoringService(w.tx, w.jobs, sandbox.Connector{}, w.clock, slog.New(slog.NewTextHandler(io.Discard, nil)))
	a, _ := w.mustLogin(sandbox.UserGood, "paystubs", "identity")
	w.runJobs(a.ID)
	disabled, _ := w.mustLogin(sandbox.UserGood, "identity")
	w.runJobs(disabled.ID)
	if err := w.accounts.DisableMonitoring(w.ctx, w.sc, disabled.ID); err != nil {
		t.Fatal(err)
	}
	if next, err := mon.Schedule(w.ctx, ""); err != nil || next != "" {
		t.Fatalf("Schedule: %q, %v; want one short batch", next, err)
	}
	// All of them: a weekly-paid sandbox person has more than a page.
	stubs := func() int {
		all, err := domain.ReadAll(w.ctx, func(ctx context.Context, p domain.PageRequest) (domain.Page[domain.Paystub], error) {
			page, _, err := w.accounts.Paystubs(ctx, w.sc, a.ID, "", p)
			return page, err
		})
		if err != nil {
			t.Fatal(err)
		}
		return len(all)
	}
	before, events := stubs(), w.countEvents("paystubs.added")

	// Nothing new within the same pay period: data_refreshed_at moves,
	// nothing else.
	w.clock.Advance(time.Hour)
	if err := mon.RefreshAccount(w.ctx, domain.RefreshRun{Scope: w.sc, AccountID: a.ID}); err != nil {
		t.Fatal(err)
	}
	got, _ := w.accounts.Account(w.ctx, w.sc, a.ID)
	if !got.DataRefreshedAt[domain.ProductPaystubs].Equal(w.clock.Now()) || !got.DataRefreshedAt[domain.ProductIdentity].Equal(w.clock.Now()) {
		t.Errorf("refreshed at %v", got.DataRefreshedAt)
	}
	if stubs() != before || w.countEvents("paystubs.added") != events {
		t.Errorf("an hour later: %d new paystubs, %d events", stubs()-before, w.countEvents("paystubs.added")-events)
	}

	// A month later there are new paystubs: stored, with a monitoring job
	// and its event.
	w.clock.Advance(31 * 24 * time.Hour)
	if err := mon.RefreshAccount(w.ctx, domain.RefreshRun{Scope: w.sc, AccountID: a.ID}); err != nil {
		t.Fatal(err)
	}
	if stubs() <= before || w.countEvents("paystubs.added") != events+1 {
		t.Errorf("a month later: %d new paystubs, %d events; want some and one", stubs()-before, w.countEvents("paystubs.added")-events)
	}
	listed, err := w.accounts.Jobs(w.ctx, w.sc, domain.JobFilter{AccountID: a.ID}, domain.PageRequest{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range listed.Items {
		if j.Monitoring {
			t.Error("GET /jobs lists a monitoring job")
		}
	}

	// An account no longer monitored, or gone, is skipped.
	refreshed, _ := w.accounts.Account(w.ctx, w.sc, disabled.ID)
	w.clock.Advance(time.Hour)
	if err := mon.RefreshAccount(w.ctx, domain.RefreshRun{Scope: w.sc, AccountID: disabled.ID}); err != nil {
		t.Fatal(err)
	}
	if after, _ := w.accounts.Account(w.ctx, w.sc, disabled.ID); !after.DataRefreshedAt[domain.ProductIdentity].Equal(refreshed.DataRefreshedAt[domain.ProductIdentity]) {
		t.Error("an account whose monitoring is disabled was refreshed")
	}
	if err := mon.RefreshAccount(w.ctx, domain.RefreshRun{Scope: w.sc, AccountID: domain.NewID()}); err != nil {
		t.Errorf("a refresh of an account gone: %v", err)
	}
}

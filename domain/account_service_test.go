package domain_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
)

// readAccount is an account of end user "erin" whose read jobs all ran.
func (w *world) readAccount(user string) domain.Account {
	w.t.Helper()
	a, _ := w.mustLogin(user)
	for _, j := range w.runJobs(a.ID) {
		if j.Outcome != domain.OutcomeSuccess {
			w.t.Fatalf("%s: %s %s", j.Name, j.Outcome, j.ErrorCode)
		}
	}
	a, err := w.accounts.Account(w.ctx, w.sc, a.ID)
	if err != nil {
		w.t.Fatal(err)
	}
	return a
}

func TestAccountReads(t *testing.T) {
	bothDialects(t, domain.ModeSandbox, func(t *testing.T, w *world) {
		a := w.readAccount(sandbox.UserGood)
		unknown := domain.NewID()
		lookups := []struct {
			name string
			call func() error
			code string
		}{
			{"Account", func() error { _, err := w.accounts.Account(w.ctx, w.sc, a.ID); return err }, ""},
			{"Account malformed", func() error { _, err := w.accounts.Account(w.ctx, w.sc, "x"); return err }, domain.CodeInvalidFields},
			{"Account unknown", func() error { _, err := w.accounts.Account(w.ctx, w.sc, unknown); return err }, domain.CodeAccountNotFound},
			{"Account of another mode", func() error {
				_, err := w.accounts.Account(w.ctx, domain.Scope{CustomerID: w.sc.CustomerID, Mode: domain.ModeDevelopment}, a.ID)
				return err
			}, domain.CodeAccountNotFound},
			{"Product", func() error { _, _, err := w.accounts.Product(w.ctx, w.sc, a.ID, domain.ProductIdentity); return err }, ""},
			{"Product of no account", func() error {
				_, _, err := w.accounts.Product(w.ctx, w.sc, unknown, domain.ProductIdentity)
				return err
			}, domain.CodeAccountNotFound},
			{"Paystubs bad from", func() error {
				_, _, err := w.accounts.Paystubs(w.ctx, w.sc, a.ID, "2026-13-40", domain.PageRequest{Limit: 5})
				return err
			}, domain.CodeInvalidFields},
			{"Paystubs of no account", func() error {
				_, _, err := w.accounts.Paystubs(w.ctx, w.sc, unknown, "", domain.PageRequest{Limit: 5})
				return err
			}, domain.CodeAccountNotFound},
			{"Paystub malformed", func() error { _, err := w.accounts.Paystub(w.ctx, w.sc, a.ID, "x"); return err }, domain.CodeInvalidFields},
			{"Paystub unknown", func() error { _, err := w.accounts.Paystub(w.ctx, w.sc, a.ID, unknown); return err }, domain.CodePaystubNotFound},
			{"Paystub of no account", func() error { _, err := w.accounts.Paystub(w.ctx, w.sc, unknown, unknown); return err }, domain.CodeAccountNotFound},
			{"PaystubByID malformed", func() error { _, err := w.accounts.PaystubByID(w.ctx, w.sc, "x"); return err }, domain.CodeInvalidFields},
			{"PaystubByID unknown", func() error { _, err := w.accounts.PaystubByID(w.ctx, w.sc, unknown); return err }, domain.CodePaystubNotFound},
			{"Job malformed", func() error { _, err := w.accounts.Job(w.ctx, w.sc, "x"); return err }, domain.CodeInvalidFields},
			{"Job unknown", func() error { _, err := w.accounts.Job(w.ctx, w.sc, unknown); return err }, domain.CodeJobNotFound},
			{"EndUser", func() error { _, err := w.accounts.EndUser(w.ctx, w.sc, "erin"); return err }, ""},
			{"EndUser empty", func() error { _, err := w.accounts.EndUser(w.ctx, w.sc, ""); return err }, domain.CodeInvalidFields},
			{"EndUser unknown", func() error { _, err := w.accounts.EndUser(w.ctx, w.sc, "nobody"); return err }, domain.CodeEndUserNotFound},
			{"DocumentByID malformed", func() error { _, err := w.accounts.DocumentByID(w.ctx, w.sc, "x"); return err }, domain.CodeInvalidFields},
			{"DocumentByID unknown", func() error { _, err := w.accounts.DocumentByID(w.ctx, w.sc, unknown); return err }, domain.CodeDocumentNotFound},
			{"TaxForm unknown", func() error { _, err := w.accounts.TaxForm(w.ctx, w.sc, a.ID, unknown); return err }, domain.CodeTaxFormNotFound},
			{"TaxForm of no account", func() error { _, err := w.accounts.TaxForm(w.ctx, w.sc, unknown, unknown); return err }, domain.CodeAccountNotFound},
			{"Document unknown", func() error { _, err := w.accounts.Document(w.ctx, w.sc, "erin", unknown); return err }, domain.CodeDocumentNotFound},
			{"AccountRecords of no account", func() error {
				_, _, err := w.accounts.AccountRecords(w.ctx, w.sc, unknown, domain.RecordTaxForm, domain.ProductTaxForms, domain.PageRequest{Limit: 5})
				return err
			}, domain.CodeAccountNotFound},
			{"Accounts bad filter", func() error {
				_, err := w.accounts.Accounts(w.ctx, w.sc, domain.AccountFilter{MonitoringStatus: "sleepy"}, domain.PageRequest{Limit: 5})
				return err
			}, domain.CodeInvalidFields},
			{"Jobs bad filter", func() error {
				_, err := w.accounts.Jobs(w.ctx, w.sc, domain.JobFilter{Outcome: "maybe"}, domain.PageRequest{Limit: 5})
				return err
			}, domain.CodeInvalidFields},
			{"Overview 0 days", func() error { _, err := w.accounts.Overview(w.ctx, w.sc, 0); return err }, domain.CodeInvalidFields},
			{"Overview too many days", func() error { _, err := w.accounts.Overview(w.ctx, w.sc, domain.MaxOverviewDays+1); return err }, domain.CodeInvalidFields},
		}
		for _, tc := range lookups {
			t.Run(tc.name, func(t *testing.T) { wantCode(t, tc.call(), tc.code) })
		}

		t.Run("paystubs", func(t *testing.T) {
			page, got, err := w.accounts.Paystubs(w.ctx, w.sc, a.ID, "", domain.PageRequest{Limit: 3})
			if err != nil || got.ID != a.ID || len(page.Items) != 3 || page.Next == nil {
				t.Fatalf("%d paystubs, next %v, %v", len(page.Items), page.Next, err)
			}
			if !sortedDesc(page.Items, func(p domain.Paystub) string { return p.PayDate.String() }) {
				t.Error("paystubs are not newest first")
			}
			from := page.Items[1].PayDate
			since, _, err := w.accounts.Paystubs(w.ctx, w.sc, a.ID, from.String(), domain.PageRequest{Limit: 100})
			if err != nil || len(since.Items) != 2 {
				t.Errorf("from %s: %d paystubs, want 2", from, len(since.Items))
			}
			one, err := w.accounts.Paystub(w.ctx, w.sc, a.ID, page.Items[0].ID)
			if err != nil || one.ID != page.Items[0].ID || one.AccountID != a.ID {
				t.Errorf("Paystub: %+v, %v", one.ID, err)
			}
			byID, err := w.accounts.PaystubByID(w.ctx, w.sc, page.Items[0].ID)
			if err != nil || byID.ID != one.ID {
				t.Errorf("PaystubByID: %v", err)
			}
			stubs, errs := w.accounts.PaystubsByID(w.ctx, w.sc, []string{unknown, one.ID})
			if stubs[1].ID != one.ID || errs[1] != nil {
				t.Errorf("PaystubsByID slot 1: %v", errs[1])
			}
			wantCode(t, errs[0], domain.CodePaystubNotFound)
			of, err := w.accounts.PaystubsOfAccounts(w.ctx, w.sc, []string{a.ID, unknown}, from.String(), domain.PageRequest{Limit: 100})
			if err != nil || len(of[a.ID].Items) != 2 || len(of[unknown].Items) != 0 {
				t.Errorf("PaystubsOfAccounts: %d, %d, %v", len(of[a.ID].Items), len(of[unknown].Items), err)
			}
		})

		t.Run("products", func(t *testing.T) {
			p, got, err := w.accounts.Product(w.ctx, w.sc, a.ID, domain.ProductIdentity)
			if err != nil || p.Identity == nil || p.Identity.FullName == "" || !got.DataRefreshedAt[domain.ProductIdentity].Equal(start) {
				t.Fatalf("identity %+v, %v", p.Identity, err)
			}
			many, err := w.accounts.ProductsOfAccounts(w.ctx, w.sc, []string{a.ID, unknown}, domain.ProductIdentity)
			if err != nil || many[a.ID].Identity == nil || many[a.ID].Identity.FullName != p.Identity.FullName {
				t.Errorf("ProductsOfAccounts: %v", err)
			}
			if _, ok := many[unknown]; ok {
				t.Error("ProductsOfAccounts answered for an unknown account")
			}
		})

		t.Run("tax forms and documents", func(t *testing.T) {
			forms, _, err := w.accounts.AccountRecords(w.ctx, w.sc, a.ID, domain.RecordTaxForm, domain.ProductTaxForms, domain.PageRequest{Limit: 100})
			if err != nil || len(forms.Items) == 0 {
				t.Fatalf("%d tax forms, %v", len(forms.Items), err)
			}
			form, err := w.accounts.TaxForm(w.ctx, w.sc, a.ID, forms.Items[0].ID)
			if err != nil || form.TaxForm == nil {
				t.Fatalf("TaxForm: %v", err)
			}
			docs, err := w.accounts.Documents(w.ctx, w.sc, "erin", "", domain.PageRequest{Limit: 100})
			if err != nil || len(docs.Items) != len(forms.Items) {
				t.Fatalf("%d documents for %d W-2s, %v", len(docs.Items), len(forms.Items), err)
			}
			doc := docs.Items[0]
			if _, err := w.accounts.Document(w.ctx, w.sc, "erin", doc.ID); err != nil {
				t.Errorf("Document: %v", err)
			}
			if _, err := w.accounts.DocumentByID(w.ctx, w.sc, doc.ID); err != nil {
				t.Errorf("DocumentByID: %v", err)
			}
			if !slices.Contains(w.reporter.links, doc.ID) {
				t.Errorf("no link was asked of the reporter for document %s", doc.ID)
			}
			got, errs := w.accounts.DocumentsByID(w.ctx, w.sc, []string{doc.ID, unknown})
			if got[0].ID != doc.ID || errs[0] != nil {
				t.Errorf("DocumentsByID slot 0: %v", errs[0])
			}
			wantCode(t, errs[1], domain.CodeDocumentNotFound)
			of, err := w.accounts.DocumentsOfEndUsers(w.ctx, w.sc, []string{"erin", "nobody"}, "", domain.PageRequest{Limit: 100})
			if err != nil || len(of["erin"].Items) != len(docs.Items) || len(of["nobody"].Items) != 0 {
				t.Errorf("DocumentsOfEndUsers: %d, %v", len(of["erin"].Items), err)
			}
			recs, err := w.accounts.RecordsOfAccounts(w.ctx, w.sc, []string{a.ID, unknown}, domain.RecordTaxForm, domain.ProductTaxForms, domain.PageRequest{Limit: 100})
			if err != nil || len(recs[a.ID].Items) != len(forms.Items) || len(recs[unknown].Items) != 0 {
				t.Errorf("RecordsOfAccounts: %d, %v", len(recs[a.ID].Items), err)
			}
		})

		t.Run("jobs", func(t *testing.T) {
			page, err := w.accounts.Jobs(w.ctx, w.sc, domain.JobFilter{AccountID: a.ID}, domain.PageRequest{Limit: 100})
			if err != nil || len(page.Items) != len(w.queuedJobs(a.ID)) {
				t.Fatalf("%d jobs, %v", len(page.Items), err)
			}
			j := page.Items[0]
			if got, err := w.accounts.Job(w.ctx, w.sc, j.ID); err != nil || got.Name != j.Name {
				t.Errorf("Job: %v", err)
			}
			jobs, errs := w.accounts.JobsByID(w.ctx, w.sc, []string{unknown, j.ID})
			if jobs[1].ID != j.ID || errs[1] != nil {
				t.Errorf("JobsByID slot 1: %v", errs[1])
			}
			wantCode(t, errs[0], domain.CodeJobNotFound)
			of, err := w.accounts.JobsOfAccounts(w.ctx, w.sc, []string{a.ID}, domain.JobFilter{JobTypes: []domain.JobType{domain.JobPaystubs}}, domain.PageRequest{Limit: 100})
			if err != nil || len(of[a.ID].Items) != 1 || of[a.ID].Items[0].Name != domain.JobPaystubs {
				t.Errorf("JobsOfAccounts: %+v, %v", of[a.ID].Items, err)
			}
			tokJobs, err := w.accounts.TokenJobs(w.ctx, w.sc, a.LinkTokenID)
			if err != nil || len(tokJobs) != len(page.Items) {
				t.Errorf("TokenJobs: %d, %v", len(tokJobs), err)
			}
			_, err = w.accounts.TokenJobs(w.ctx, w.sc, "x")
			wantCode(t, err, domain.CodeInvalidFields)
			_, err = w.accounts.TokenJobs(w.ctx, w.sc, unknown)
			wantCode(t, err, domain.CodeLinkTokenNotFound)
		})

		t.Run("end users and accounts", func(t *testing.T) {
			w.clock.Advance(time.Minute)
			second, _ := w.mustLogin(sandbox.UserGood)
			u, err := w.accounts.EndUser(w.ctx, w.sc, "erin")
			if err != nil || u.Accounts != 2 || !u.FirstConnected.Equal(start) {
				t.Fatalf("end user %+v, %v", u, err)
			}
			users, err := w.accounts.EndUsers(w.ctx, w.sc, domain.PageRequest{Limit: 10})
			if err != nil || len(users.Items) != 1 || users.Items[0].ID != "erin" {
				t.Errorf("EndUsers: %+v, %v", users.Items, err)
			}
			eus, errs := w.accounts.EndUsersByID(w.ctx, w.sc, []string{"erin", "nobody"})
			if eus[0].Accounts != 2 || errs[0] != nil {
				t.Errorf("EndUsersByID slot 0: %+v %v", eus[0], errs[0])
			}
			wantCode(t, errs[1], domain.CodeEndUserNotFound)
			page, err := w.accounts.Accounts(w.ctx, w.sc, domain.AccountFilter{EndUserID: "erin"}, domain.PageRequest{Limit: 10})
			if err != nil || len(page.Items) != 2 || page.Items[0].ID != second.ID {
				t.Errorf("Accounts: %d, %v (newest first)", len(page.Items), err)
			}
			accts, errs := w.accounts.AccountsByID(w.ctx, w.sc, []string{second.ID, unknown})
			if accts[0].ID != second.ID || errs[0] != nil {
				t.Errorf("AccountsByID slot 0: %v", errs[0])
			}
			wantCode(t, errs[1], domain.CodeAccountNotFound)
			of, err := w.accounts.AccountsOfEndUsers(w.ctx, w.sc, []string{"erin", "nobody"}, domain.PageRequest{Limit: 10})
			if err != nil || len(of["erin"].Items) != 2 || len(of["nobody"].Items) != 0 {
				t.Errorf("AccountsOfEndUsers: %d, %v", len(of["erin"].Items), err)
			}
		})

		t.Run("earnings stream", func(t *testing.T) {
			s, err := w.accounts.EarningsStream(w.ctx, w.sc, "erin")
			if err != nil || len(s.Payouts) == 0 {
				t.Fatalf("%d payouts, %v", len(s.Payouts), err)
			}
			many, err := w.accounts.EarningsStreams(w.ctx, w.sc, []string{"erin", "nobody"})
			if err != nil || len(many["erin"].Payouts) != len(s.Payouts) || len(many["nobody"].Payouts) != 0 {
				t.Errorf("EarningsStreams: %v", err)
			}
			_, err = w.accounts.EarningsStream(w.ctx, w.sc, "nobody")
			wantCode(t, err, domain.CodeEndUserNotFound)
		})

		t.Run("overview", func(t *testing.T) {
			o, err := w.accounts.Overview(w.ctx, w.sc, 7)
			if err != nil || len(o.Days) != 7 || o.AccountsConnected == 0 {
				t.Fatalf("overview %+v, %v", o, err)
			}
			total := 0
			for _, d := range o.Days {
				total += d.Success + d.Pending + d.Error
			}
			if total != len(w.queuedJobs(a.ID)) {
				t.Errorf("overview counts %d jobs, want %d", total, len(w.queuedJobs(a.ID)))
			}
		})
	})
}

func sortedDesc[T any](items []T, key func(T) string) bool {
	return slices.IsSortedFunc(items, func(a, b T) int { return strings.Compare(key(b), key(a)) })
}

func TestAccountMonitoring(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	a, _ := w.mustLogin(sandbox.UserGood, "identity")
	w.runJobs(a.ID)

	got, err := w.accounts.SimulateMonitoringStatus(w.ctx, w.sc, a.ID, domain.MonitoringDegraded)
	if err != nil || got.MonitoringStatus != domain.MonitoringDegraded {
		t.Fatalf("simulate: %s, %v", got.MonitoringStatus, err)
	}
	if n := w.countEvents("account.monitoring_status.updated"); n != 1 {
		t.Errorf("%d status events, want 1", n)
	}
	if _, err := w.accounts.SimulateMonitoringStatus(w.ctx, w.sc, a.ID, domain.MonitoringDegraded); err != nil {
		t.Fatal(err)
	}
	if n := w.countEvents("account.monitoring_status.updated"); n != 1 {
		t.Errorf("an unchanged status wrote an event (%d)", n)
	}
	_, err = w.accounts.SimulateMonitoringStatus(w.ctx, w.sc, a.ID, domain.MonitoringCustomerDisabled)
	wantCode(t, err, domain.CodeInvalidFields)
	_, err = w.accounts.SimulateMonitoringStatus(w.ctx, domain.Scope{CustomerID: w.sc.CustomerID, Mode: domain.ModeProduction}, a.ID, domain.MonitoringActive)
	wantCode(t, err, domain.CodeNotSandbox)
	_, err = w.accounts.SimulateMonitoringStatus(w.ctx, w.sc, domain.NewID(), domain.MonitoringActive)
	wantCode(t, err, domain.CodeAccountNotFound)

	if err := w.accounts.DisableMonitoring(w.ctx, w.sc, a.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := w.accounts.Account(w.ctx, w.sc, a.ID); got.MonitoringStatus != domain.MonitoringCustomerDisabled {
		t.Errorf("after DisableMonitoring: %s", got.MonitoringStatus)
	}
	wantCode(t, w.accounts.Disconnect(w.ctx, w.sc, domain.NewID()), domain.CodeAccountNotFound)
	for range 2 { // repeating it changes nothing
		if err := w.accounts.Disconnect(w.ctx, w.sc, a.ID); err != nil {
			t.Fatal(err)
		}
	}
	got, _ = w.accounts.Account(w.ctx, w.sc, a.ID)
	if got.Connected || got.MonitoringStatus != domain.MonitoringUnavailable {
		t.Errorf("after Disconnect: connected %v, %s", got.Connected, got.MonitoringStatus)
	}
	if n := w.countEvents("account.monitoring_status.updated"); n != 3 {
		t.Errorf("%d status events, want 3 (degraded, disabled, unavailable)", n)
	}
	if _, _, err := w.accounts.Product(w.ctx, w.sc, a.ID, domain.ProductIdentity); err != nil {
		t.Errorf("data read before the disconnect is gone: %v", err)
	}
	if err := w.accounts.DisableMonitoring(w.ctx, w.sc, a.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := w.accounts.Account(w.ctx, w.sc, a.ID); got.MonitoringStatus != domain.MonitoringUnavailable {
		t.Errorf("a disconnected account became %s", got.MonitoringStatus)
	}
}

func TestSetBillNavigatorStatus(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	w.mustLogin(sandbox.UserGood, "identity")
	tests := []struct {
		name, user, action, reason, code string
	}{
		{"deactivate", "erin", "deactivate", "moved banks", ""},
		{"no action", "erin", "", "", domain.CodeMissingFields},
		{"unknown action", "erin", "explode", "", domain.CodeInvalidFields},
		{"long reason", "erin", "deactivate", strings.Repeat("x", 501), domain.CodeInvalidFields},
		{"unknown end user", "nobody", "deactivate", "", domain.CodeEndUserNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wantCode(t, w.accounts.SetBillNavigatorStatus(w.ctx, w.sc, tc.user, tc.action, tc.reason), tc.code)
		})
	}
}

func TestWatchJobs(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	ctx, cancel := context.WithCancel(w.ctx)
	defer cancel()
	_, err := w.accounts.WatchJobs(ctx, w.sc, domain.JobWatch{AccountID: "x"})
	wantCode(t, err, domain.CodeInvalidFields)
	jobs, err := w.accounts.WatchJobs(ctx, w.sc, domain.JobWatch{EndUserID: "erin"})
	if err != nil {
		t.Fatal(err)
	}
	accounts, err := w.accounts.WatchAccounts(ctx, w.sc, "erin")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := w.mustLogin(sandbox.UserGood, "identity")
	w.runJobs(a.ID)
	select {
	case j := <-jobs:
		if j.AccountID != a.ID || j.Outcome != domain.OutcomeSuccess {
			t.Errorf("watched job %+v", j)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no job came through the watch")
	}
	for range 2 { // added, then its job finished
		select {
		case got := <-accounts:
			if got.ID != a.ID {
				t.Errorf("watched account %s", got.ID)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no account came through the watch")
		}
	}
	cancel()
	for range jobs { // the channel closes once ctx ends
	}
}

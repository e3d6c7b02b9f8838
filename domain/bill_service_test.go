package domain_test

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// merchant is a sandbox merchant that switches and cancels bills.
func (w *world) merchant() domain.Platform {
	w.t.Helper()
	all, err := domain.ReadAll(w.ctx, func(ctx context.Context, p domain.PageRequest) (domain.Page[domain.Platform], error) {
		return w.dir.ListPlatforms(ctx, domain.PlatformFilter{Type: domain.PlatformMerchant}, p)
	})
	if err != nil {
		w.t.Fatal(err)
	}
	for _, p := range all {
		if domain.Supports(p.SupportedJobs, []domain.JobType{domain.JobBillSwitch, domain.JobBillCancellation}) {
			return p
		}
	}
	w.t.Fatal("no sandbox merchant switches and cancels bills")
	return domain.Platform{}
}

func TestBill(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	m := w.merchant()
	good := domain.LoginRequest{PlatformID: m.ID, Credentials: domain.Credentials{Username: sandbox.UserGood, Password: sandbox.Password}}
	loggedIn := func(r domain.LinkTokenRequest) string {
		t.Helper()
		_, value := w.mustToken(r)
		if _, err := w.link.Login(w.ctx, value, good); err != nil {
			t.Fatal(err)
		}
		return value
	}
	card := func(number string, month, year int) *domain.CardInput {
		return &domain.CardInput{Number: number, Name: "Erin Doe", ExpMonth: month, ExpYear: year}
	}
	year := start.Year()

	_, fresh := w.mustToken(domain.LinkTokenRequest{RequiredJobs: []string{"bill_switch"}})
	_, err := w.link.Bill(w.ctx, fresh, domain.BillRequest{Job: domain.JobBillSwitch, Card: card("4242424242424242", 12, year+1)})
	wantCode(t, err, domain.CodeInvalidFields) // not logged in

	switchToken := loggedIn(domain.LinkTokenRequest{RequiredJobs: []string{"bill_switch"}})
	refusals := []struct {
		name string
		r    domain.BillRequest
		code string
	}{
		{"unknown job", domain.BillRequest{Job: "teleport"}, domain.CodeInvalidFields},
		{"a job the token does not ask for", domain.BillRequest{Job: domain.JobBillCancellation}, domain.CodeUnsupportedJobs},
		{"bad card number", domain.BillRequest{Job: domain.JobBillSwitch, Card: card("4242424242424241", 12, year+1)}, domain.CodeInvalidFields},
		{"expired card", domain.BillRequest{Job: domain.JobBillSwitch, Card: card("4242424242424242", 1, year-1)}, domain.CodeInvalidFields},
		{"card far in the future", domain.BillRequest{Job: domain.JobBillSwitch, Card: card("4242424242424242", 1, year+21)}, domain.CodeInvalidFields},
		{"no card and no bank account", domain.BillRequest{Job: domain.JobBillSwitch}, domain.CodeMissingFields},
	}
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			_, err := w.link.Bill(w.ctx, switchToken, tc.r)
			wantCode(t, err, tc.code)
		})
	}
	job, err := w.link.Bill(w.ctx, switchToken, domain.BillRequest{Job: domain.JobBillSwitch, Card: card("4242 4242 4242 4242", 12, year+1)})
	if err != nil {
		t.Fatal(err)
	}
	if b := job.Params.Bill; b == nil || b.Type != "card" || b.Payment.LastFourCardNumber != "4242" || b.Payment.CardName != "Erin Doe" {
		t.Errorf("bill params %+v", job.Params.Bill)
	}
	if job.PaymentCard != "" {
		t.Error("the card number comes back with the job")
	}
	// Stored sealed (storage seals it), bound to the job.
	var sealed []byte
	if err := w.db.Get(&sealed, w.db.Rebind(`SELECT sealed_payment FROM jobs WHERE id = ?`), job.ID); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(sealed, []byte("4242424242424242")) {
		t.Error("the card number is stored in the clear")
	}
	if n, err := storagetest.TestBox.Open(sealed, storage.BillCardAD(job.ID)); err != nil || string(n) != "4242424242424242" {
		t.Errorf("the sealed card opens to %q, %v; want the number, bound to the job", n, err)
	}
	if _, err := storagetest.TestBox.Open(sealed, storage.BillCardAD(domain.NewID())); err == nil {
		t.Error("the sealed card opens for another job")
	}
	_, err = w.link.Bill(w.ctx, switchToken, domain.BillRequest{Job: domain.JobBillSwitch, Card: card("4242424242424242", 12, year+1)})
	wantCode(t, err, domain.CodeLinkTokenUsed)

	t.Run("from a bank account", func(t *testing.T) {
		value := loggedIn(domain.LinkTokenRequest{RequiredJobs: []string{"bill_switch"},
			Allocation: &domain.AllocationRequest{Targets: []domain.AllocationTarget{target}}})
		_, err := w.link.Bill(w.ctx, value, domain.BillRequest{Job: domain.JobBillSwitch, TargetName: "Savings"})
		wantCode(t, err, domain.CodeInvalidFields)
		job, err := w.link.Bill(w.ctx, value, domain.BillRequest{Job: domain.JobBillSwitch})
		if err != nil {
			t.Fatal(err)
		}
		if b := job.Params.Bill; b.Type != "ach" || b.Payment.LastFourAccount != "7890" || job.PaymentCard != "" {
			t.Errorf("ach params %+v", b.Payment)
		}
	})
	t.Run("cancellation", func(t *testing.T) {
		value := loggedIn(domain.LinkTokenRequest{RequiredJobs: []string{"bill_cancellation"}})
		_, err := w.link.Bill(w.ctx, value, domain.BillRequest{Job: domain.JobBillCancellation, Card: card("4242424242424242", 12, year+1)})
		wantCode(t, err, domain.CodeInvalidFields) // a cancellation takes no payment
		if _, err := w.link.Bill(w.ctx, value, domain.BillRequest{Job: domain.JobBillCancellation}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("sandbox session", func(t *testing.T) {
		_, value := w.mustToken(domain.LinkTokenRequest{RequiredJobs: []string{"bill_cancellation"}})
		a, _, err := w.link.SandboxSession(w.ctx, w.sc, value, good, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(w.queuedJobs(a.ID), func(j domain.Job) bool { return j.Name == domain.JobBillCancellation }) {
			t.Error("a cancellation token's session queued no cancellation")
		}
		_, value = w.mustToken(domain.LinkTokenRequest{RequiredJobs: []string{"bill_switch"}})
		_, _, err = w.link.SandboxSession(w.ctx, w.sc, value, good, nil, nil)
		wantCode(t, err, domain.CodeMissingFields) // the helper cannot guess the payment method
	})
	t.Run("bill navigator deactivated", func(t *testing.T) {
		if err := w.accounts.SetBillNavigatorStatus(w.ctx, w.sc, "erin", "deactivate", ""); err != nil {
			t.Fatal(err)
		}
		_, _, err := w.link.CreateLinkToken(w.ctx, w.sc, domain.LinkTokenRequest{OrgName: "Acme Lending", EndUserID: "erin",
			RequiredJobs: []string{"bill_switch"}}, domain.LatestVersion)
		wantCode(t, err, domain.CodeInvalidFields)
		w.mustToken(domain.LinkTokenRequest{RequiredJobs: []string{"paystubs"}}) // other jobs still may
	})
}

package domain_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
)

func num(s string) *domain.Number { n := domain.Number(s); return &n }

func TestCreateLinkToken(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	other := newWorld(t, storage.SQLite, domain.ModeSandbox) // another customer's account id
	foreign, _ := other.mustLogin(sandbox.UserGood)
	tests := []struct {
		name string
		r    domain.LinkTokenRequest
		code string
	}{
		{"minimal", domain.LinkTokenRequest{OrgName: "Acme Lending", EndUserID: "erin"}, ""},
		{"switch with a target", domain.LinkTokenRequest{OrgName: "Acme Lending", EndUserID: "erin", RequiredJobs: []string{"direct_deposit_switch"},
			Allocation: &domain.AllocationRequest{Type: "amount", Value: num("150.00"), Targets: []domain.AllocationTarget{target}}}, ""},
		{"restricted to a platform", domain.LinkTokenRequest{OrgName: "Acme Lending", EndUserID: "erin", PlatformID: w.payroll.ID}, ""},
		{"no org_name", domain.LinkTokenRequest{EndUserID: "erin"}, domain.CodeMissingFields},
		{"no end_user_id", domain.LinkTokenRequest{OrgName: "Acme Lending"}, domain.CodeMissingFields},
		{"unknown job", domain.LinkTokenRequest{OrgName: "Acme Lending", EndUserID: "erin", RequiredJobs: []string{"teleport"}}, domain.CodeInvalidFields},
		{"switch without targets", domain.LinkTokenRequest{OrgName: "Acme Lending", EndUserID: "erin", RequiredJobs: []string{"direct_deposit_switch"}}, domain.CodeMissingFields},
		{"bad routing number", domain.LinkTokenRequest{OrgName: "Acme Lending", EndUserID: "erin", Features: []string{"direct_deposit_switch"},
			Allocation: &domain.AllocationRequest{Targets: []domain.AllocationTarget{{Type: "checking", AccountNumber: "12345", RoutingNumber: "123456789"}}}}, domain.CodeInvalidFields},
		{"platform id not a UUID", domain.LinkTokenRequest{OrgName: "Acme Lending", EndUserID: "erin", PlatformID: "nope"}, domain.CodeInvalidFields},
		{"unknown platform", domain.LinkTokenRequest{OrgName: "Acme Lending", EndUserID: "erin", PlatformID: domain.NewID()}, domain.CodeInvalidFields},
		{"another customer's account", domain.LinkTokenRequest{OrgName: "Acme Lending", AccountID: foreign.ID}, domain.CodeInvalidFields},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tok, value, err := w.link.CreateLinkToken(w.ctx, w.sc, tc.r, domain.LatestVersion)
			wantCode(t, err, tc.code)
			if err != nil {
				return
			}
			if !strings.HasPrefix(value, "lt_") || tok.ID == "" {
				t.Fatalf("token %q, value %q", tok.ID, value)
			}
			if want := w.clock.Now().Add(domain.LinkTokenLifetime); !tok.Expires.Equal(want) {
				t.Errorf("expires %v, want %v (the clock's now + the lifetime)", tok.Expires, want)
			}
			stored, err := w.link.LinkToken(w.ctx, w.sc, tok.ID)
			if err != nil || stored.EndUserID != tc.r.EndUserID || stored.PlatformID != tc.r.PlatformID {
				t.Fatalf("stored %+v, %v", stored, err)
			}
			sess, err := w.link.Open(w.ctx, value)
			if err != nil || sess.Token.ID != tok.ID {
				t.Fatalf("Open: %v", err)
			}
			if tc.r.Allocation != nil && (sess.Token.Allocation == nil || sess.Token.Allocation.Targets[0].AccountNumber != target.AccountNumber) {
				t.Errorf("the sealed allocation did not come back: %+v", sess.Token.Allocation)
			}
		})
	}
}

func TestCreateLinkTokenForDisconnectedAccount(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	a, _ := w.mustLogin(sandbox.UserGood)
	if err := w.accounts.Disconnect(w.ctx, w.sc, a.ID); err != nil {
		t.Fatal(err)
	}
	_, _, err := w.link.CreateLinkToken(w.ctx, w.sc, domain.LinkTokenRequest{OrgName: "Acme Lending", AccountID: a.ID}, domain.LatestVersion)
	wantCode(t, err, domain.CodeAccountDisconnected)
}

func TestOpenLinkToken(t *testing.T) {
	// SQLite only: TestLogin covers the same stores on PostgreSQL.
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	_, value := w.mustToken(domain.LinkTokenRequest{})
	other := newWorld(t, storage.SQLite, domain.ModeSandbox)
	tests := []struct {
		name    string
		value   string
		advance time.Duration
		code    string
	}{
		{"fresh", value, 0, ""},
		{"empty", "", 0, domain.CodeLinkTokenInvalid},
		{"unknown", "lt_nothing", 0, domain.CodeLinkTokenInvalid},
		{"a moment before expiry", value, domain.LinkTokenLifetime - time.Second, ""},
		{"at expiry", value, time.Second, domain.CodeLinkTokenExpired},
	}
	for _, tc := range tests { // in order: the clock only moves forward
		w.clock.Advance(tc.advance)
		_, err := w.link.Open(w.ctx, tc.value)
		t.Run(tc.name, func(t *testing.T) { wantCode(t, err, tc.code) })
	}
	_, mine := w.mustToken(domain.LinkTokenRequest{})
	if _, err := w.link.OpenFor(w.ctx, w.sc, mine); err != nil {
		t.Fatalf("OpenFor its own tenant: %v", err)
	}
	_, err := w.link.OpenFor(w.ctx, other.sc, mine)
	wantCode(t, err, domain.CodeLinkTokenInvalid)
}

func TestLogin(t *testing.T) {
	bothDialects(t, domain.ModeSandbox, func(t *testing.T, w *world) {
		a, value := w.mustLogin(sandbox.UserGood, "paystubs", "identity")
		if !a.Connected || a.PlatformID != w.payroll.ID || a.EndUserID != "erin" || a.MonitoringStatus != domain.MonitoringActive {
			t.Fatalf("account %+v", a)
		}
		if !a.CreatedAt.Equal(start) {
			t.Errorf("created at %v, want the clock's %v", a.CreatedAt, start)
		}
		var names []string
		for _, j := range w.queuedJobs(a.ID) {
			names = append(names, string(j.Name))
		}
		slices.Sort(names)
		if !slices.Equal(names, []string{"identity", "paystubs"}) {
			t.Errorf("queued jobs %v, want the token's read jobs", names)
		}
		if n := w.countEvents("account.added"); n != 1 {
			t.Errorf("%d account.added events, want 1", n)
		}
		sess, err := w.link.Open(w.ctx, value)
		if err != nil || sess.Account == nil || sess.Account.ID != a.ID {
			t.Fatalf("a used token opens on its account: %+v, %v", sess.Account, err)
		}
		_, err = w.link.Login(w.ctx, value, domain.LoginRequest{PlatformID: w.payroll.ID,
			Credentials: domain.Credentials{Username: sandbox.UserGood, Password: sandbox.Password}})
		wantCode(t, err, domain.CodeLinkTokenUsed)
	})
}

func TestLoginRefusals(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	lacking := domain.Platform{}
	all, err := domain.ReadAll(w.ctx, func(ctx context.Context, p domain.PageRequest) (domain.Page[domain.Platform], error) {
		return w.dir.ListPlatforms(ctx, domain.PlatformFilter{Type: domain.PlatformPayroll}, p)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range all {
		if !slices.Contains(p.SupportedJobs, domain.JobTaxForms) {
			lacking = p
			break
		}
	}
	good := domain.Credentials{Username: sandbox.UserGood, Password: sandbox.Password}
	employers, err := w.dir.ListEmployers(w.ctx, domain.EmployerFilter{}, domain.PageRequest{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	employer := employers.Items[0]
	tests := []struct {
		name  string
		token domain.LinkTokenRequest
		login domain.LoginRequest
		code  string
		mfa   bool
	}{
		{"wrong password", domain.LinkTokenRequest{}, domain.LoginRequest{PlatformID: w.payroll.ID,
			Credentials: domain.Credentials{Username: sandbox.UserGood, Password: "nope"}}, domain.CodeInvalidCredentials, false},
		{"locked", domain.LinkTokenRequest{}, domain.LoginRequest{PlatformID: w.payroll.ID,
			Credentials: domain.Credentials{Username: sandbox.UserLocked, Password: sandbox.Password}}, domain.CodeAccountLocked, false},
		{"mfa asked", domain.LinkTokenRequest{}, domain.LoginRequest{PlatformID: w.payroll.ID,
			Credentials: domain.Credentials{Username: sandbox.UserMFA, Password: sandbox.Password}}, "", true},
		{"wrong mfa code", domain.LinkTokenRequest{}, domain.LoginRequest{PlatformID: w.payroll.ID,
			Credentials: domain.Credentials{Username: sandbox.UserMFA, Password: sandbox.Password, MFACode: "000000"}}, domain.CodeInvalidMFACode, false},
		{"no platform or employer", domain.LinkTokenRequest{}, domain.LoginRequest{Credentials: good}, domain.CodeMissingFields, false},
		{"unknown platform", domain.LinkTokenRequest{}, domain.LoginRequest{PlatformID: domain.NewID(), Credentials: good}, domain.CodePlatformNotFound, false},
		{"another platform than the token's", domain.LinkTokenRequest{PlatformID: w.payroll.ID},
			domain.LoginRequest{PlatformID: lacking.ID, Credentials: good}, domain.CodeInvalidFields, false},
		{"another employer than the token's", domain.LinkTokenRequest{EmployerID: employer.ID},
			domain.LoginRequest{EmployerID: domain.NewID(), Credentials: good}, domain.CodeInvalidFields, false},
		{"platform lacking a required job", domain.LinkTokenRequest{RequiredJobs: []string{"tax_forms"}},
			domain.LoginRequest{PlatformID: lacking.ID, Credentials: good}, domain.CodeUnsupportedJobs, false},
		{"unknown consent text", domain.LinkTokenRequest{}, domain.LoginRequest{PlatformID: w.payroll.ID, Credentials: good,
			ConsentTextVersion: "v999"}, domain.CodeInvalidFields, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := len(w.events())
			_, value := w.mustToken(tc.token)
			_, err := w.link.Login(w.ctx, value, tc.login)
			if tc.mfa {
				var mfa *domain.MFARequiredError
				if !errors.As(err, &mfa) || mfa.Prompt == "" {
					t.Fatalf("err = %v, want *MFARequiredError", err)
				}
			} else {
				wantCode(t, err, tc.code)
			}
			if n := len(w.events()); n != before {
				t.Errorf("a refused login wrote %d events", n-before)
			}
			if sess, err := w.link.Open(w.ctx, value); err != nil || sess.Account != nil {
				t.Errorf("a refused login spent the token: %+v, %v", sess.Account, err)
			}
		})
	}
}

func TestLoginByEmployer(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	page, err := w.dir.ListEmployers(w.ctx, domain.EmployerFilter{}, domain.PageRequest{Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(page.Items, func(e domain.Employer) bool { return e.PlatformID != "" })
	if i < 0 {
		t.Fatal("no sandbox employer names its platform")
	}
	e := page.Items[i]
	_, value := w.mustToken(domain.LinkTokenRequest{EmployerID: e.ID})
	a, err := w.link.Login(w.ctx, value, domain.LoginRequest{Credentials: domain.Credentials{Username: sandbox.UserGood, Password: sandbox.Password}})
	if err != nil {
		t.Fatal(err)
	}
	if a.PlatformID != e.PlatformID || a.EmployerID != e.ID || a.EmployerName != e.Name {
		t.Errorf("account %s/%s %q, want the employer's platform %s, %s %q", a.PlatformID, a.EmployerID, a.EmployerName, e.PlatformID, e.ID, e.Name)
	}
}

func TestOnDemandUpdate(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	a, _ := w.mustLogin(sandbox.UserGood, "identity")
	if err := w.accounts.DisableMonitoring(w.ctx, w.sc, a.ID); err != nil {
		t.Fatal(err)
	}
	_, value := w.mustToken(domain.LinkTokenRequest{AccountID: a.ID, RequiredJobs: []string{"identity"}})
	again, err := w.link.Login(w.ctx, value, domain.LoginRequest{PlatformID: w.payroll.ID,
		Credentials: domain.Credentials{Username: sandbox.UserGood, Password: sandbox.Password}})
	if err != nil {
		t.Fatal(err)
	}
	if again.ID != a.ID {
		t.Fatalf("an update made account %s, want %s again", again.ID, a.ID)
	}
	if again.MonitoringStatus != domain.MonitoringCustomerDisabled {
		t.Errorf("monitoring %s: the customer's choice must outlive an update", again.MonitoringStatus)
	}
	if n := w.countEvents("account.added"); n != 1 {
		t.Errorf("%d account.added events, want 1 (an update adds no account)", n)
	}
	if n := len(w.queuedJobs(a.ID)); n != 2 {
		t.Errorf("%d jobs, want a second identity job", n)
	}
}

func switchToken(w *world, r domain.LinkTokenRequest) string {
	w.t.Helper()
	r.RequiredJobs = append(r.RequiredJobs, "direct_deposit_switch")
	if r.Allocation == nil {
		r.Allocation = &domain.AllocationRequest{Targets: []domain.AllocationTarget{target}}
	}
	_, value := w.mustToken(r)
	return value
}

func TestSwitch(t *testing.T) {
	// SQLite only: TestLogin covers the same stores on PostgreSQL.
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	login := func(value string) domain.Account {
		t.Helper()
		a, err := w.link.Login(w.ctx, value, domain.LoginRequest{PlatformID: w.payroll.ID,
			Credentials: domain.Credentials{Username: sandbox.UserGood, Password: sandbox.Password}})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	value := switchToken(w, domain.LinkTokenRequest{})
	_, err := w.link.Switch(w.ctx, value, domain.SwitchRequest{Action: domain.ActionFullSwitch})
	wantCode(t, err, domain.CodeInvalidFields) // not logged in yet
	a := login(value)
	if jobs := w.queuedJobs(a.ID); slices.ContainsFunc(jobs, func(j domain.Job) bool { return j.Name == domain.JobDirectDepositSwitch }) {
		t.Fatal("a login queued the switch before the user chose an allocation")
	}
	_, err = w.link.Switch(w.ctx, value, domain.SwitchRequest{Action: domain.ActionPartialSwitch, Type: "percentage", Value: num("101")})
	wantCode(t, err, domain.CodeInvalidFields)
	_, err = w.link.Switch(w.ctx, value, domain.SwitchRequest{Action: domain.ActionFullSwitch, TargetName: "Savings"})
	wantCode(t, err, domain.CodeInvalidFields) // no such target
	job, err := w.link.Switch(w.ctx, value, domain.SwitchRequest{Action: domain.ActionFullSwitch})
	if err != nil {
		t.Fatal(err)
	}
	if job.Name != domain.JobDirectDepositSwitch || job.AccountID != a.ID || job.Target == nil || job.Target.LastFour != "7890" {
		t.Fatalf("switch job %+v", job)
	}
	_, err = w.link.Switch(w.ctx, value, domain.SwitchRequest{Action: domain.ActionFullSwitch})
	wantCode(t, err, domain.CodeLinkTokenUsed)

	got, err := w.link.Job(w.ctx, value, job.ID)
	if err != nil || got.ID != job.ID {
		t.Fatalf("Job: %v", err)
	}
	_, err = w.link.Job(w.ctx, value, domain.NewID())
	wantCode(t, err, domain.CodeJobNotFound)
	other, _ := w.mustLogin(sandbox.UserGood)
	_, err = w.link.Job(w.ctx, value, w.queuedJobs(other.ID)[0].ID)
	wantCode(t, err, domain.CodeJobNotFound) // another token's job

	// A token that asks for no switch refuses one.
	_, plain := w.mustToken(domain.LinkTokenRequest{})
	login(plain)
	_, err = w.link.Switch(w.ctx, plain, domain.SwitchRequest{Action: domain.ActionFullSwitch})
	wantCode(t, err, domain.CodeInvalidFields)
}

func TestDepositForm(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	value := switchToken(w, domain.LinkTokenRequest{RequiredJobs: []string{"identity"}}) // identity names the employee
	_, err := w.link.DepositForm(w.ctx, value)
	wantCode(t, err, domain.CodeInvalidFields) // no login
	a, _, err := w.link.SandboxSession(w.ctx, w.sc, value, domain.LoginRequest{PlatformID: w.payroll.ID,
		Credentials: domain.Credentials{Username: sandbox.UserGood, Password: sandbox.Password}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.link.DepositForm(w.ctx, value)
	wantCode(t, err, domain.CodeInvalidFields) // the switch has not succeeded yet
	jobs := w.runJobs(a.ID)
	sw := jobNamed(t, jobs, domain.JobDirectDepositSwitch)
	if sw.Outcome != domain.OutcomeSuccess {
		t.Fatalf("switch %s", sw.Outcome)
	}
	link, err := w.link.DepositForm(w.ctx, value)
	if err != nil {
		t.Fatal(err)
	}
	again, err := w.link.DepositForm(w.ctx, value)
	if err != nil || again.ID != link.ID {
		t.Fatalf("asking again made form %s (%v), want %s", again.ID, err, link.ID)
	}
	if len(w.reporter.forms) != 2 {
		t.Fatalf("reporter got %d forms", len(w.reporter.forms))
	}
	f := w.reporter.forms[0]
	if f.AccountID != a.ID || f.EndUserID != "erin" || f.Target.LastFour != "7890" || f.EmployeeName == "" || f.CreatedAt.IsZero() {
		t.Errorf("form %+v", f)
	}
	w.reporter.err = errors.New("renderer down")
	if _, err := w.link.DepositForm(w.ctx, value); !errors.Is(err, w.reporter.err) {
		t.Errorf("the reporter's failure became %v", err)
	}
}

func TestSandboxSession(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	good := domain.LoginRequest{PlatformID: w.payroll.ID, Credentials: domain.Credentials{Username: sandbox.UserGood, Password: sandbox.Password}}
	t.Run("switch in one call", func(t *testing.T) {
		value := switchToken(w, domain.LinkTokenRequest{})
		a, tok, err := w.link.SandboxSession(w.ctx, w.sc, value, good, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		sw := jobNamed(t, w.queuedJobs(a.ID), domain.JobDirectDepositSwitch)
		if sw.Params.Action != domain.ActionFullSwitch || sw.LinkTokenID != tok.ID {
			t.Errorf("switch %+v, want a full switch of token %s", sw.Params, tok.ID)
		}
	})
	t.Run("a bad allocation leaves nothing", func(t *testing.T) {
		value := switchToken(w, domain.LinkTokenRequest{})
		_, _, err := w.link.SandboxSession(w.ctx, w.sc, value, good, &domain.SwitchRequest{Action: domain.ActionPartialSwitch, Type: "bogus"}, nil)
		wantCode(t, err, domain.CodeInvalidFields)
		if sess, err := w.link.Open(w.ctx, value); err != nil || sess.Account != nil {
			t.Errorf("the token was spent: %v", err)
		}
	})
	refusals := []struct {
		name  string
		sc    domain.Scope
		value string
		login domain.LoginRequest
		code  string
	}{
		{"outside the sandbox", domain.Scope{CustomerID: w.sc.CustomerID, Mode: domain.ModeProduction}, "lt_x", good, domain.CodeNotSandbox},
		{"no token", w.sc, "", good, domain.CodeMissingFields},
		{"no password", w.sc, "lt_x", domain.LoginRequest{Credentials: domain.Credentials{Username: "u"}}, domain.CodeMissingFields},
		{"unknown token", w.sc, "lt_x", good, domain.CodeLinkTokenInvalid},
		{"mfa", w.sc, "", domain.LoginRequest{PlatformID: w.payroll.ID, Credentials: domain.Credentials{Username: sandbox.UserMFA, Password: sandbox.Password}}, domain.CodeMFARequired},
	}
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			if tc.code == domain.CodeMFARequired {
				_, tc.value = w.mustToken(domain.LinkTokenRequest{})
			}
			_, _, err := w.link.SandboxSession(w.ctx, tc.sc, tc.value, tc.login, nil, nil)
			wantCode(t, err, tc.code)
		})
	}
}

func TestPlatformMatching(t *testing.T) {
	// SQLite only: TestLogin covers the same stores on PostgreSQL.
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	matching := func(lastFour string) *domain.PlatformMatching {
		return &domain.PlatformMatching{SocialSecurityLastFour: lastFour, FirstName: "Erin", LastName: "Doe",
			DateOfBirth: "1990-01-02", MobilePhoneNumber: "5551234567", HomeAddressZipCode: "94107"}
	}
	value := switchToken(w, domain.LinkTokenRequest{PlatformMatching: matching("1234")})
	matched, err := w.link.MatchPlatforms(w.ctx, value)
	if err != nil || len(matched) == 0 {
		t.Fatalf("matched %d: %v", len(matched), err)
	}
	for _, p := range matched {
		if !p.Partnership {
			t.Errorf("matched %s, not a partnership platform", p.Name)
		}
	}
	_, _, err = w.link.MatchedSwitch(w.ctx, value, w.payroll.ID)
	wantCode(t, err, domain.CodeInvalidFields) // not a matched platform
	a, job, err := w.link.MatchedSwitch(w.ctx, value, matched[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if a.PlatformID != matched[0].ID || job.Name != domain.JobDirectDepositSwitch || job.Params.Action != "" {
		t.Errorf("account on %s, job %s %+v", a.PlatformID, job.Name, job.Params)
	}
	sess, err := w.link.Open(w.ctx, value)
	if err != nil || sess.Token.PlatformMatching != nil {
		t.Errorf("the identifiers outlived the switch: %+v, %v", sess.Token.PlatformMatching, err)
	}

	none := switchToken(w, domain.LinkTokenRequest{PlatformMatching: matching(sandbox.NoMatchLastFour)})
	matched, err = w.link.MatchPlatforms(w.ctx, none)
	if err != nil || len(matched) != 0 {
		t.Fatalf("matched %d: %v, want none", len(matched), err)
	}
	if sess, err := w.link.Open(w.ctx, none); err != nil || sess.Token.PlatformMatching != nil {
		t.Errorf("identifiers kept after matching nothing: %v", err)
	}
}

func TestLinkTokenLookups(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	tok, _ := w.mustToken(domain.LinkTokenRequest{})
	_, err := w.link.LinkToken(w.ctx, w.sc, "nope")
	wantCode(t, err, domain.CodeInvalidFields)
	_, err = w.link.LinkToken(w.ctx, w.sc, domain.NewID())
	wantCode(t, err, domain.CodeLinkTokenNotFound)
	_, err = w.link.LinkToken(w.ctx, domain.Scope{CustomerID: w.sc.CustomerID, Mode: domain.ModeProduction}, tok.ID)
	wantCode(t, err, domain.CodeLinkTokenNotFound) // another mode's tenant
	unknown := domain.NewID()
	got, errs := w.link.LinkTokensByID(w.ctx, w.sc, []string{unknown, tok.ID})
	if got[1].ID != tok.ID || errs[1] != nil {
		t.Errorf("slot 1: %s, %v", got[1].ID, errs[1])
	}
	wantCode(t, errs[0], domain.CodeLinkTokenNotFound)
}

func TestPartialSwitch(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	var pl domain.Platform
	all, err := domain.ReadAll(w.ctx, func(ctx context.Context, p domain.PageRequest) (domain.Page[domain.Platform], error) {
		return w.dir.ListPlatforms(ctx, domain.PlatformFilter{Type: domain.PlatformPayroll}, p)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range all {
		if !p.Partnership && p.AmountSupported && p.PercentageSupported && !p.FractionalAmountSupported && p.MinAmount != nil &&
			p.MaxPercentage < 100 && slices.Contains(p.SupportedJobs, domain.JobDirectDepositSwitch) {
			pl = p
			break
		}
	}
	if pl.ID == "" {
		t.Fatal("no sandbox platform takes whole-dollar amounts from a minimum and percentages below 100")
	}
	dollars := func(cents int64) *domain.Number { return num(domain.USD(cents).Decimal()) }
	tests := []struct {
		name  string
		token domain.LinkTokenRequest
		r     domain.SwitchRequest
		code  string
	}{
		{"remainder", domain.LinkTokenRequest{}, domain.SwitchRequest{Action: domain.ActionPartialSwitch, Type: "remainder"}, ""},
		{"the least percentage", domain.LinkTokenRequest{}, domain.SwitchRequest{Action: domain.ActionPartialSwitch, Type: "percentage",
			Value: num(fmt.Sprint(pl.MinPercentage))}, ""},
		{"over the most percentage", domain.LinkTokenRequest{}, domain.SwitchRequest{Action: domain.ActionPartialSwitch, Type: "percentage",
			Value: num(fmt.Sprint(pl.MaxPercentage + 1))}, domain.CodeInvalidFields},
		{"the least amount", domain.LinkTokenRequest{}, domain.SwitchRequest{Action: domain.ActionPartialSwitch, Type: "amount",
			Value: dollars(*pl.MinAmount)}, ""},
		{"under the least amount", domain.LinkTokenRequest{}, domain.SwitchRequest{Action: domain.ActionPartialSwitch, Type: "amount",
			Value: dollars(*pl.MinAmount - 100)}, domain.CodeInvalidFields},
		{"cents", domain.LinkTokenRequest{}, domain.SwitchRequest{Action: domain.ActionPartialSwitch, Type: "amount",
			Value: dollars(*pl.MinAmount + 50)}, domain.CodeInvalidFields},
		{"no type", domain.LinkTokenRequest{}, domain.SwitchRequest{Action: domain.ActionPartialSwitch}, domain.CodeMissingFields},
		{"unknown action", domain.LinkTokenRequest{}, domain.SwitchRequest{Action: "half_switch"}, domain.CodeInvalidFields},
		{"a full switch with a value", domain.LinkTokenRequest{}, domain.SwitchRequest{Action: domain.ActionFullSwitch, Type: "amount",
			Value: dollars(*pl.MinAmount)}, domain.CodeInvalidFields},
		{"splitting disabled", domain.LinkTokenRequest{DisableDirectDepositSplitting: true},
			domain.SwitchRequest{Action: domain.ActionPartialSwitch, Type: "remainder"}, domain.CodeInvalidFields},
		{"the token's preset wins", domain.LinkTokenRequest{Allocation: &domain.AllocationRequest{Type: "remainder",
			Targets: []domain.AllocationTarget{target}}}, domain.SwitchRequest{Action: domain.ActionFullSwitch}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.token.PlatformID = pl.ID
			value := switchToken(w, tc.token)
			if _, err := w.link.Login(w.ctx, value, domain.LoginRequest{PlatformID: pl.ID,
				Credentials: domain.Credentials{Username: sandbox.UserGood, Password: sandbox.Password}}); err != nil {
				t.Fatal(err)
			}
			job, err := w.link.Switch(w.ctx, value, tc.r)
			wantCode(t, err, tc.code)
			if err == nil && (job.Params.Action != domain.ActionPartialSwitch || job.Params.Allocation == nil || job.Params.Allocation.Split.Type == "") {
				t.Errorf("params %+v, want a partial switch with its split", job.Params)
			}
		})
	}
}

func TestUploadDocuments(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	pdf := func(text string) domain.UploadFile {
		return domain.UploadFile{Name: text + ".pdf", Data: []byte("%PDF-1.4\n" + text)}
	}
	_, value := w.mustToken(domain.LinkTokenRequest{})
	n, err := w.link.UploadDocuments(w.ctx, value, domain.DocumentW2, []domain.UploadFile{pdf("W-2 2025"), pdf("W-2 odd"), pdf("a letter")})
	if err != nil || n != 3 {
		t.Fatalf("UploadDocuments: %d, %v", n, err)
	}
	docs, err := w.accounts.Documents(w.ctx, w.sc, "erin", domain.DocumentW2, domain.PageRequest{Limit: 10})
	if err != nil || len(docs.Items) != 3 {
		t.Fatalf("%d documents, %v", len(docs.Items), err)
	}
	fraud := map[string]int{}
	for _, d := range docs.Items {
		fraud[d.Document.Fraud.Status]++
		if d.Document.Fraud.Status == "unavailable" && (len(d.Document.Warnings) != 1 || d.Document.Warnings[0].Status != "unparsable") {
			t.Errorf("an unread file's warnings: %+v", d.Document.Warnings)
		}
	}
	// A file modified a week after it was made is a doubt for a person,
	// not evidence.
	if fraud["not_suspected"] != 1 || fraud[domain.FraudNeedsReview] != 1 || fraud["unavailable"] != 1 {
		t.Errorf("fraud statuses %v", fraud)
	}
	for _, d := range docs.Items {
		if review := d.Document.Review; (d.Document.Fraud.Status == domain.FraudNeedsReview) != (review != nil && review.Status == domain.ReviewRequired) {
			t.Errorf("fraud %s, review %+v", d.Document.Fraud.Status, review)
		}
	}
	if c := w.countEvents("documents.added"); c != 3 {
		t.Errorf("%d documents.added events", c)
	}
	_, err = w.link.UploadDocuments(w.ctx, value, domain.DocumentW2, []domain.UploadFile{pdf("W-2")})
	wantCode(t, err, domain.CodeLinkTokenUsed)

	tooMany := make([]domain.UploadFile, domain.MaxUploadFiles+1)
	for i := range tooMany {
		tooMany[i] = pdf("W-2")
	}
	refusals := []struct {
		name    string
		value   string
		docType string
		files   []domain.UploadFile
		code    string
	}{
		{"unknown document type", "", "selfie", []domain.UploadFile{pdf("W-2")}, domain.CodeInvalidFields},
		{"no files", "", domain.DocumentPaystub, nil, domain.CodeMissingFields},
		{"too many files", "", domain.DocumentPaystub, tooMany, domain.CodeInvalidFields},
		{"an empty file", "", domain.DocumentPaystub, []domain.UploadFile{{Name: "x.pdf"}}, domain.CodeInvalidFields},
		{"not a PDF whatever its name", "", domain.DocumentPaystub, []domain.UploadFile{{Name: "x.pdf", Data: []byte("hello there")}}, domain.CodeInvalidFields},
		{"too large", "", domain.DocumentPaystub, []domain.UploadFile{{Name: "x.pdf", Data: []byte("%PDF-1.4"), Size: domain.MaxUploadBytes + 1}}, domain.CodeInvalidFields},
		{"inflates too far", "", domain.DocumentPaystub, []domain.UploadFile{pdf("W-2"), pdf("BOMB")}, domain.CodeUploadTooLargeInflated},
	}
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			if tc.value == "" {
				_, tc.value = w.mustToken(domain.LinkTokenRequest{})
			}
			events := len(w.events())
			_, err := w.link.UploadDocuments(w.ctx, tc.value, tc.docType, tc.files)
			wantCode(t, err, tc.code)
			if len(w.events()) != events {
				t.Error("a refused upload stored something")
			}
		})
	}
}

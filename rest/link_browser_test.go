package rest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/internal/browsertest"
	"payline/storage"
	"payline/storage/storagetest"
)

// newBrowser starts headless Chromium for one test (browsertest.New).
func newBrowser(t *testing.T) context.Context { return browsertest.New(t) }

// modal drives the Link iframe of the demo page, which is same-origin.
type modal struct {
	t   *testing.T
	ctx context.Context
}

const frameDoc = browsertest.FrameDoc

func (m modal) page() browsertest.Page { return browsertest.Page{T: m.t, Ctx: m.ctx} }

// until runs JS in the page until it returns true, or fails after 20s.
func (m modal) until(what, js string) { m.t.Helper(); m.page().Until(what, js) }
func (m modal) click(sel string)      { m.t.Helper(); m.page().Click(sel) }
func (m modal) typeInto(sel, value string) {
	m.t.Helper()
	m.page().TypeInto(sel, value)
}
func (m modal) waitScreen(name string) { m.t.Helper(); m.page().WaitScreen(name) }

type clientEvent struct {
	Name    string
	Payload map[string]any
}

func (m modal) events() []clientEvent {
	m.t.Helper()
	raw, err := chromedp.Run(m.ctx, chromedp.Evaluate[string](`JSON.stringify(window.paylineEvents)`))
	if err != nil {
		m.t.Fatal(err)
	}
	var pairs [][2]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &pairs); err != nil {
		m.t.Fatal(err)
	}
	out := make([]clientEvent, len(pairs))
	for i, p := range pairs {
		_ = json.Unmarshal(p[0], &out[i].Name)
		_ = json.Unmarshal(p[1], &out[i].Payload)
	}
	return out
}

func (m modal) callback(kind string) map[string]any {
	m.t.Helper()
	raw, err := chromedp.Run(m.ctx, chromedp.Evaluate[string](`JSON.stringify(window.paylineCallbacks)`))
	if err != nil {
		m.t.Fatal(err)
	}
	var pairs [][2]json.RawMessage
	_ = json.Unmarshal([]byte(raw), &pairs)
	for _, p := range pairs {
		var k string
		_ = json.Unmarshal(p[0], &k)
		if k == kind {
			var payload map[string]any
			_ = json.Unmarshal(p[1], &payload)
			return payload
		}
	}
	m.t.Fatalf("%s was never called: %s", kind, raw)
	return nil
}

// eventNames lists event names, with the screen for screen transitions.
func eventNames(events []clientEvent) []string {
	out := make([]string, len(events))
	for i, e := range events {
		out[i] = e.Name
		if e.Name == "screen_transition" {
			out[i] += ":" + fmt.Sprint(e.Payload["screen_name"])
		}
	}
	return out
}

func openLink(t *testing.T, f *fixture, token string) modal {
	t.Helper()
	m := modal{t: t, ctx: newBrowser(t)}
	if err := chromedp.Do(m.ctx, chromedp.Navigate(f.http.URL+"/link/v1/demo#token="+token), chromedp.Click("#open")); err != nil {
		t.Fatal(err)
	}
	m.click("#consent-continue") // the consent screen sends no event
	return m
}

func TestBrowserFullSwitch(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db)
	_, token := f.createToken(switchTokenBody(""))
	m := openLink(t, f, token)
	m.waitScreen("SEARCH_DEFAULT")
	m.typeInto("#search-input", "summit payroll")
	m.click(`.result[data-kind="platform"]`)
	m.click("#confirm-provider")
	m.typeInto("#username", sandbox.UserGood)
	m.typeInto("#password", sandbox.Password)
	m.click("#login-submit")
	m.click("#alloc-full")
	m.click("#alloc-continue")
	m.click("#confirm-switch")
	m.waitScreen("JOB_SUCCESS")
	m.click("#dd-form")
	m.click("#dd-form-download")
	m.click("#done")
	m.until("the modal to close", `!document.querySelector('#payline-link-frame')`)

	got := eventNames(m.events())
	want := []string{"open", "screen_transition:SEARCH_DEFAULT", "screen_transition:SEARCH_RESULTS", "select_platform",
		"screen_transition:PROVIDER_CONFIRMATION", "screen_transition:LOGIN", "login_attempt", "login",
		"screen_transition:DD_AMOUNT_SELECTION", "input_allocation", "screen_transition:DD_CONFIRMATION", "success",
		"screen_transition:JOB_SUCCESS", "dd_form_begin", "dd_form_create", "dd_form_download", "exit"}
	if !slices.Equal(got, want) {
		t.Fatalf("events\n got %v\nwant %v", got, want)
	}
	events := m.events()
	success := m.callback("onSuccess")
	accountID, _ := success["accountId"].(string)
	if !domain.ValidID(accountID) || success["job"] != "direct_deposit_switch" ||
		fmt.Sprint(success["params"]) != "map[action:full_switch]" {
		t.Errorf("onSuccess payload %v", success)
	}
	login := events[7].Payload
	if login["accountId"] != accountID || login["platformId"] != success["platformId"] {
		t.Errorf("login payload %v vs success %v", login, success)
	}
	if events[5].Payload["selectedPlatformName"] != "Summit Payroll" {
		t.Errorf("LOGIN transition payload %v", events[5].Payload)
	}
	if len(events[len(events)-1].Payload) != 0 {
		t.Errorf("exit without error has payload %v", events[len(events)-1].Payload)
	}
	// The API agrees with what the browser saw.
	acct := f.get("/v1/accounts/" + accountID).data(t)
	if acct["platform_id"] != success["platformId"] {
		t.Errorf("account %v", acct)
	}
	jobs := f.get("/v1/jobs?job_types=direct_deposit_switch&account_id=" + accountID).list(t)
	if len(jobs) != 1 || jobs[0]["outcome"] != "success" || jobs[0]["params"].(map[string]any)["action"] != "full_switch" {
		t.Errorf("switch job %v", jobs)
	}
	// The direct deposit form Link offered is a document of the end user,
	// and the url of dd_form_create downloads it.
	var formURL string
	for _, e := range events {
		if e.Name == "dd_form_create" {
			formURL, _ = e.Payload["url"].(string)
		}
	}
	res, body := fetch(t, "GET", formURL)
	if res.StatusCode != 200 || !strings.HasPrefix(string(body), "%PDF-") {
		t.Errorf("dd_form_create url %q: %d", formURL, res.StatusCode)
	}
	docs := f.get("/v1/end_users/user-123/documents?type=direct_deposit_form").list(t)
	if len(docs) != 1 || !strings.HasPrefix(formURL, f.http.URL+"/files/"+docs[0]["id"].(string)+"?") {
		t.Errorf("documents %v, form url %s", docs, formURL)
	}
}

func TestBrowserMFALogin(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db)
	_, token := f.createToken(`{"org_name": "Acme Lending", "end_user_id": "mfa-browser", "required_jobs": ["paystubs", "income"]}`)
	m := openLink(t, f, token)
	m.typeInto("#search-input", "summit payroll")
	m.click(`.result[data-kind="platform"]`)
	m.click("#confirm-provider")
	m.typeInto("#username", sandbox.UserMFA)
	m.typeInto("#password", sandbox.Password)
	m.click("#login-submit")
	m.typeInto("#mfa-code", sandbox.MFACode)
	m.click("#mfa-submit")
	m.waitScreen("JOB_SUCCESS")
	got := eventNames(m.events())
	want := []string{"open", "screen_transition:SEARCH_DEFAULT", "screen_transition:SEARCH_RESULTS", "select_platform",
		"screen_transition:PROVIDER_CONFIRMATION", "screen_transition:LOGIN", "login_attempt", "login_attempt", "login",
		"success", "screen_transition:JOB_SUCCESS"}
	if !slices.Equal(got, want) {
		t.Fatalf("events\n got %v\nwant %v", got, want)
	}
	success := m.callback("onSuccess")
	if success["job"] != "login" || !domain.ValidID(fmt.Sprint(success["accountId"])) {
		t.Errorf("onSuccess %v", success)
	}
	if login := m.callback("onLogin"); login["accountId"] != success["accountId"] {
		t.Errorf("onLogin %v", login)
	}
}

func TestBrowserExitWithError(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db)
	p := switchPlatform(t)
	_, token := f.createToken(`{"org_name": "Acme", "end_user_id": "quitter", "platform_id": "` + p.ID + `"}`)
	m := openLink(t, f, token)
	m.waitScreen("LOGIN")
	m.typeInto("#username", sandbox.UserGood)
	m.typeInto("#password", "wrong-password")
	m.click("#login-submit")
	m.until("the error event", `(window.paylineEvents || []).some(e => e[0] === 'error')`)
	m.click("#close")
	m.waitScreen("EXIT_CONFIRMATION")
	m.click("#exit-confirm")
	m.until("the modal to close", `!document.querySelector('#payline-link-frame')`)

	events := m.events()
	got := eventNames(events)
	want := []string{"open", "select_platform", "screen_transition:LOGIN", "login_attempt", "error",
		"screen_transition:EXIT_CONFIRMATION", "exit"}
	if !slices.Equal(got, want) {
		t.Fatalf("events\n got %v\nwant %v", got, want)
	}
	exit := m.callback("onExit")
	if exit["type"] != "USER_ACTION_REQUIRED" || exit["code"] != domain.CodeInvalidCredentials ||
		exit["pendingRetry"] != false || !strings.Contains(fmt.Sprint(exit["message"]), "password") {
		t.Errorf("exit payload %v", exit)
	}
	if fmt.Sprint(m.callback("onError")) != fmt.Sprint(exit) {
		t.Errorf("onError %v differs from the exit error %v", m.callback("onError"), exit)
	}
}

// TestBrowserOnDemandUpdate: a token with account_id goes straight to the
// account's platform and sends no select_employer or select_platform.
func TestBrowserOnDemandUpdate(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db)
	p := switchPlatform(t)
	_, first := f.createToken(`{"org_name": "Acme", "end_user_id": "odu-browser"}`)
	acct := f.linkSession(sessionBody(first, p.ID, sandbox.UserGood, "")).data(t)["account_id"].(string)
	_, odu := f.createToken(`{"org_name": "Acme", "account_id": "` + acct + `"}`)
	m := openLink(t, f, odu)
	m.typeInto("#username", sandbox.UserGood)
	m.typeInto("#password", sandbox.Password)
	m.click("#login-submit")
	m.waitScreen("JOB_SUCCESS")
	got := eventNames(m.events())
	want := []string{"open", "screen_transition:LOGIN", "login_attempt", "login", "success", "screen_transition:JOB_SUCCESS"}
	if !slices.Equal(got, want) {
		t.Fatalf("events\n got %v\nwant %v", got, want)
	}
	if s := m.callback("onSuccess"); s["accountId"] != acct || s["job"] != "login" {
		t.Errorf("onSuccess %v", s)
	}
}

// awayOnce is a connector whose first login finds it unreachable.
type awayOnce struct {
	domain.Connector
	tried atomic.Bool
}

func (a *awayOnce) Login(ctx context.Context, p domain.Platform, c domain.Credentials) (string, error) {
	if !a.tried.Swap(true) {
		return "", domain.UpstreamUnavailable("the payroll connector", 5*time.Second, errors.New("connection refused"))
	}
	return a.Connector.Login(ctx, p, c)
}

// TestBrowserConnectorAway: when the connector behind a platform cannot be
// reached, Link tells the user the provider is not responding, keeps the
// form, and the next try goes through; the developer detail is in the
// error event.
func TestBrowserConnectorAway(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db, func(s *fixtureSetup) {
		s.wrapConnector = func(c domain.Connector) domain.Connector { return &awayOnce{Connector: c} }
	})
	p := switchPlatform(t)
	_, token := f.createToken(`{"org_name": "Acme", "end_user_id": "patient", "platform_id": "` + p.ID + `", "required_jobs": ["paystubs"]}`)
	m := openLink(t, f, token)
	m.waitScreen("LOGIN")
	m.typeInto("#username", sandbox.UserGood)
	m.typeInto("#password", sandbox.Password)
	m.click("#login-submit")
	m.until("the message", fmt.Sprintf(`(() => { const d = %s; const el = d && d.getElementById('message'); return !!el && !el.hidden; })()`, frameDoc))
	if got := m.text("#message"); !strings.Contains(got, "is not responding right now") {
		t.Errorf("the user reads %q", got)
	}
	// The provider down: the upload is offered in the same session too.
	m.until("the upload offered", fmt.Sprintf(`(() => { const d = %s; const b = d.getElementById('upload-after-failure'); return !!b && b.getClientRects().length > 0 && !b.closest('[hidden]'); })()`, frameDoc))
	m.click("#login-submit")
	m.waitScreen("JOB_SUCCESS")
	var sawError bool
	for _, e := range m.events() {
		if e.Name == "error" && strings.Contains(fmt.Sprint(e.Payload), domain.CodeUpstreamUnavailable) {
			sawError = true
		}
	}
	if !sawError {
		t.Errorf("no error event with UPSTREAM_UNAVAILABLE: %v", eventNames(m.events()))
	}
}

package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"payline/domain"
)

// fakeUpstream is an upstream API answering from canned bodies by path,
// recording every request it gets.
type fakeUpstream struct {
	mu       sync.Mutex
	requests []string          // method and path (with query)
	bodies   map[string][]byte // the last body sent to a method and path (without query)
	answers  map[string]string // method and path (without query) → the data of the answer
}

func newFakeUpstream(t *testing.T) (*fakeUpstream, *Client) {
	f := &fakeUpstream{bodies: map[string][]byte{}, answers: map[string]string{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		key := r.Method + " " + r.URL.Path
		f.mu.Lock()
		f.requests = append(f.requests, r.Method+" "+r.URL.RequestURI())
		f.bodies[key] = body
		data, ok := f.answers[key]
		f.mu.Unlock()
		if !ok {
			data = "{}"
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"data":`+data+`,"meta":{"next_cursor":null}}`)
	}))
	t.Cleanup(srv.Close)
	c, err := New(Config{URL: srv.URL, Secret: "s3cret", HTTP: srv.Client(), Rate: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return f, c
}

func (f *fakeUpstream) answer(key, data string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.answers[key] = data
}

func (f *fakeUpstream) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.requests)
}

func (f *fakeUpstream) sent() ([]string, map[string][]byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	bodies := map[string][]byte{}
	for k, v := range f.bodies {
		bodies[k] = v
	}
	return append([]string(nil), f.requests...), bodies
}

func (f *fakeUpstream) body(t *testing.T, key string) map[string]any {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	var m map[string]any
	if err := json.Unmarshal(f.bodies[key], &m); err != nil {
		t.Fatalf("%s sent %q: %v", key, f.bodies[key], err)
	}
	return m
}

// TestConnectorLoginAndMatch: a relayed mode neither logs in nor matches
// platforms itself; both happen in the upstream's Link.
func TestConnectorLoginAndMatch(t *testing.T) {
	f, c := newFakeUpstream(t)
	_, err := c.Login(context.Background(), domain.Platform{}, domain.Credentials{Username: "u", Password: "p"})
	var de *domain.Error
	if !errors.As(err, &de) || de.Code != domain.CodePlatformUnavailable {
		t.Errorf("Login: %v, want PLATFORM_UNAVAILABLE", err)
	}
	if got := c.Match(context.Background(), domain.PlatformMatching{}, []domain.Platform{{ID: "p"}}); got != nil {
		t.Errorf("Match: %v, want none", got)
	}
	if f.count() != 0 {
		t.Errorf("%d requests, want none", f.count())
	}
}

// TestConnectorRun: a job's outcome is the upstream's; one a delivery
// already told costs no request, others list the account's jobs, and a
// job not listed yet is pending.
func TestConnectorRun(t *testing.T) {
	ctx := context.Background()
	started := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	done := started.Add(time.Minute)
	acct := domain.Account{ID: "acct-1"}
	f, c := newFakeUpstream(t)
	f.answer("GET /v1/jobs", `[
		{"id":"ok","account_id":"acct-1","name":"paystubs","timestamp":"`+done.Format(time.RFC3339)+`","outcome":"success"},
		{"id":"bad","account_id":"acct-1","name":"identity","timestamp":"`+done.Format(time.RFC3339)+`","outcome":"error","error_code":"ACCOUNT_LOCKED","error_type":"USER_ACTION_REQUIRED"}]`)

	tests := []struct {
		job      string
		outcome  domain.Outcome
		code     string
		requests int // made by this run
	}{
		{"ok", domain.OutcomeSuccess, "", 1},
		{"bad", domain.OutcomeError, "ACCOUNT_LOCKED", 0}, // learned from the listing before
		{"unlisted", domain.OutcomePending, "", 1},
	}
	for _, tc := range tests {
		t.Run(tc.job, func(t *testing.T) {
			before := f.count()
			res, err := c.Run(ctx, domain.Job{ID: tc.job}, acct, started, started.Add(10*time.Second))
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != tc.outcome || res.ErrorCode != tc.code {
				t.Errorf("outcome %s %s, want %s %s", res.Outcome, res.ErrorCode, tc.outcome, tc.code)
			}
			if tc.outcome != domain.OutcomePending && !res.At.Equal(done) {
				t.Errorf("at %v, want the upstream's time %v", res.At, done)
			}
			if tc.outcome == domain.OutcomePending && res.RetryAfter != 5*time.Second {
				t.Errorf("retry after %v, want half the job's age", res.RetryAfter)
			}
			if n := f.count() - before; n != tc.requests {
				t.Errorf("%d requests, want %d", n, tc.requests)
			}
		})
	}

	// A delivery's success needs no listing; its error without a code
	// (deliveries carry none) is not trusted.
	c.Learned(domain.UpstreamJob{ID: "told", Outcome: domain.OutcomeSuccess, CreatedAt: done})
	c.Learned(domain.UpstreamJob{ID: "vague", Outcome: domain.OutcomeError})
	before := f.count()
	if res, err := c.Run(ctx, domain.Job{ID: "told"}, acct, started, done); err != nil || res.Outcome != domain.OutcomeSuccess || f.count() != before {
		t.Errorf("a told success: %+v, %v, %d requests", res, err, f.count()-before)
	}
	if _, err := c.Run(ctx, domain.Job{ID: "vague"}, acct, started, done); err != nil || f.count() != before+1 {
		t.Errorf("an error without a code was trusted: %d requests", f.count()-before)
	}
}

// TestJobCacheKeepsTheNewest: the cache of final jobs forgets the oldest
// beyond its size, and a job put again keeps one place.
func TestJobCacheKeepsTheNewest(t *testing.T) {
	c := newJobCache(2)
	for _, id := range []string{"a", "b", "a", "c"} {
		c.put(domain.UpstreamJob{ID: id, Outcome: domain.OutcomeSuccess})
	}
	for id, want := range map[string]bool{"a": false, "b": true, "c": true} {
		if _, ok := c.get(id); ok != want {
			t.Errorf("%s remembered %v, want %v", id, ok, want)
		}
	}
}

// TestActions: account actions and the bill navigator go to the
// upstream's endpoints; an unknown action sends nothing.
func TestActions(t *testing.T) {
	ctx := context.Background()
	f, c := newFakeUpstream(t)
	for _, action := range []string{domain.ActionDisconnect, domain.ActionDisableMonitoring} {
		if err := c.Act(ctx, "acct 1", action); err != nil {
			t.Fatalf("%s: %v", action, err)
		}
	}
	if err := c.Act(ctx, "acct-1", "explode"); err == nil {
		t.Error("an unknown action was accepted")
	}
	if err := c.SetBillNavigatorStatus(ctx, "payline-erin", "deactivate", "moved banks"); err != nil {
		t.Fatal(err)
	}
	want := []string{"POST /v1/accounts/acct%201/disconnect", "POST /v1/accounts/acct%201/disable_monitoring",
		"PUT /v1/end_users/payline-erin/bill_navigator/status"}
	requests, _ := f.sent()
	if len(requests) != len(want) {
		t.Fatalf("requests %v, want %v", requests, want)
	}
	for i := range want {
		if requests[i] != want[i] {
			t.Errorf("request %d: %s, want %s", i, requests[i], want[i])
		}
	}
	if b := f.body(t, "PUT /v1/end_users/payline-erin/bill_navigator/status"); b["action"] != "deactivate" || b["reason"] != "moved banks" {
		t.Errorf("bill navigator body %v", b)
	}
}

// TestCreateLinkToken: the upstream's token carries the request's fields,
// numbers as the caller wrote them, and the solution the jobs imply.
func TestCreateLinkToken(t *testing.T) {
	ctx := context.Background()
	f, c := newFakeUpstream(t)
	f.answer("POST /v1/link_tokens", `{"id":"up-1","token":"value-1"}`)
	amount, pct := domain.Number("150.10"), domain.Number("25")
	r := domain.LinkTokenRequest{OrgName: "Acme", RequiredJobs: []string{"direct_deposit_switch"}, Amount: &amount,
		Allocation: &domain.AllocationRequest{Type: "percentage", Value: &pct,
			Targets: []domain.AllocationTarget{{Name: "Checking", Type: "checking", AccountNumber: "1234567890", RoutingNumber: "021000021"}}},
		PlatformMatching: &domain.PlatformMatching{SocialSecurityLastFour: "1234", LastName: "Doe"}}
	tok, err := c.CreateLinkToken(ctx, r, "payline-erin")
	if err != nil || tok.ID != "up-1" || tok.Token != "value-1" || tok.SDKURL != c.linkJS {
		t.Fatalf("token %+v, %v", tok, err)
	}
	var sent struct {
		EndUserID  string          `json:"end_user_id"`
		Solution   string          `json:"solution"`
		Amount     json.RawMessage `json:"amount"`
		Allocation struct {
			Value   json.RawMessage  `json:"value"`
			Targets []map[string]any `json:"targets"`
		} `json:"allocation"`
		EndUser struct {
			PlatformMatching map[string]any `json:"platform_matching"`
		} `json:"end_user"`
	}
	_, bodies := f.sent()
	if err := json.Unmarshal(bodies["POST /v1/link_tokens"], &sent); err != nil {
		t.Fatal(err)
	}
	if sent.EndUserID != "payline-erin" || sent.Solution != "Deposit Switch" || string(sent.Amount) != "150.10" ||
		string(sent.Allocation.Value) != "25" || len(sent.Allocation.Targets) != 1 || sent.EndUser.PlatformMatching["last_name"] != "Doe" {
		t.Errorf("sent %s", bodies["POST /v1/link_tokens"])
	}

	f.answer("POST /v1/link_tokens", `{"id":"up-2"}`)
	if _, err := c.CreateLinkToken(ctx, domain.LinkTokenRequest{OrgName: "Acme"}, "payline-erin"); err == nil {
		t.Error("a token without its value was accepted")
	}
}

func TestSolutionFor(t *testing.T) {
	for _, c := range []struct {
		r    domain.LinkTokenRequest
		want string
	}{
		{domain.LinkTokenRequest{Solution: "Paycheck Viewer", RequiredJobs: []string{"direct_deposit_switch"}}, "Paycheck Viewer"},
		{domain.LinkTokenRequest{RequiredJobs: []string{"paystubs", "direct_deposit_payment"}}, "Deposit Switch"},
		{domain.LinkTokenRequest{RequiredJobs: []string{"bill_cancellation"}}, "Bill Switch"},
		{domain.LinkTokenRequest{RequiredJobs: []string{"identity"}}, "Verify"},
		{domain.LinkTokenRequest{}, "Verify"},
	} {
		if got := solutionFor(c.r); got != c.want {
			t.Errorf("solutionFor(%v) = %q, want %q", c.r.RequiredJobs, got, c.want)
		}
	}
}

func TestLinkOrigin(t *testing.T) {
	c, err := New(Config{URL: "https://up.example.com/api", Secret: "s", LinkJS: "https://link.example.com:8443/v1/link.js"})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.LinkOrigin(); got != "https://link.example.com:8443" {
		t.Errorf("LinkOrigin = %q", got)
	}
	c, err = New(Config{URL: "https://up.example.com", Secret: "s"})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.LinkOrigin(); got != "https://up.example.com" {
		t.Errorf("default LinkOrigin = %q, want the upstream's own", got)
	}
}

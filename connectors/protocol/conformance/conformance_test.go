package conformance_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"payline/connectors/protocol"
	"payline/connectors/protocol/conformance"
	"payline/domain"
	"payline/domain/sandbox"
)

const secret = "conformance test secret"

func serve(t *testing.T, c domain.Connector, wrap func(http.Handler) http.Handler) string {
	t.Helper()
	platforms, _ := sandbox.Directory(10)
	var h http.Handler = protocol.NewServer("sandbox", c, platforms, secret, domain.SystemClock{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

func failed(results []conformance.Result) map[string]string {
	out := map[string]string{}
	for _, r := range results {
		if r.Failed() {
			out[r.Scenario] = r.Reason
		}
	}
	return out
}

var good = sandbox.Connector{PendingDelay: time.Hour, PendingPoll: time.Minute}

// TestSandboxConforms: the sandbox served over the protocol passes every
// scenario on every platform it lists, each message naming the platform
// and user it tried; only the products a platform does not list are
// skipped.
func TestSandboxConforms(t *testing.T) {
	results := conformance.Check(context.Background(), serve(t, good, nil), secret, conformance.DefaultUsers, nil)
	if len(results) < 20 {
		t.Errorf("only %d scenarios ran", len(results))
	}
	for s, why := range failed(results) {
		t.Errorf("%s: %s", s, why)
	}
	if !conformance.AllPassed(results) {
		t.Error("AllPassed is false")
	}
	platforms, _ := sandbox.Directory(10)
	tried := map[string]bool{}
	for _, r := range results {
		tried[r.PlatformID] = true
		if r.State == conformance.Skipped && !strings.HasPrefix(r.Scenario, "products: ") {
			t.Errorf("%s skipped: %s", r.Scenario, r.Reason)
		}
		if strings.HasPrefix(r.Scenario, "login: locked") && !strings.HasPrefix(r.Reason, "platform "+r.Platform+" · user user_locked: ") {
			t.Errorf("%s: %q does not name the platform and user", r.Scenario, r.Reason)
		}
	}
	for _, p := range platforms {
		if !tried[p.ID] {
			t.Errorf("platform %s (%s) was not checked", p.Name, p.ID)
		}
	}
}

// TestPlatformNarrows: the platforms asked for are the only ones tried,
// and one the connector does not list fails the capabilities scenario.
func TestPlatformNarrows(t *testing.T) {
	url := serve(t, good, nil)
	platforms, _ := sandbox.Directory(10)
	one := platforms[len(platforms)/2]
	results := conformance.Check(context.Background(), url, secret, conformance.DefaultUsers, nil, one.ID)
	for _, r := range results {
		if r.PlatformID != "" && r.PlatformID != one.ID {
			t.Errorf("%s tried %s, not only %s", r.Scenario, r.Platform, one.Name)
		}
	}
	if f := failed(results); len(f) > 0 || len(results) < 20 {
		t.Errorf("%d scenarios, failures %v", len(results), f)
	}
	results = conformance.Check(context.Background(), url, secret, conformance.DefaultUsers, nil, "no-such-platform")
	if why := failed(results)["capabilities"]; !strings.Contains(why, "no-such-platform") || len(results) != 1 {
		t.Errorf("an unknown platform: %+v", results)
	}
}

// rewriting changes one operation's answers: fn gets the request body and
// the answer and returns the answer to send.
func rewriting(path string, fn func(req, answer []byte) []byte) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != path {
				next.ServeHTTP(w, r)
				return
			}
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			rec := httptest.NewRecorder()
			next.ServeHTTP(rec, r)
			out := rec.Body.Bytes()
			if rec.Code == http.StatusOK {
				out = fn(body, out)
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(rec.Code)
			_, _ = w.Write(out)
		})
	}
}

// TestUndeclaredScenariosSkipped: a connector whose capabilities declare
// neither MFA nor pending jobs passes with those scenarios skipped, each
// saying why; so does one whose test users leave the locked user out.
func TestUndeclaredScenariosSkipped(t *testing.T) {
	undeclare := rewriting(protocol.PathCapabilities, func(_, answer []byte) []byte {
		var caps protocol.Capabilities
		if err := json.Unmarshal(answer, &caps); err != nil {
			t.Fatal(err)
		}
		for i := range caps.Platforms {
			caps.Platforms[i].MFASupported, caps.Platforms[i].PendingSupported = false, false
		}
		out, _ := json.Marshal(caps)
		return out
	})
	platforms, _ := sandbox.Directory(10)
	users := conformance.DefaultUsers
	users.Locked = ""
	results := conformance.Check(context.Background(), serve(t, good, undeclare), secret, users, nil, platforms[0].ID)
	if !conformance.AllPassed(results) {
		t.Errorf("failures: %v", failed(results))
	}
	skipped := map[string]string{}
	for _, r := range results {
		if r.State == conformance.Skipped {
			skipped[r.Scenario] = r.Reason
		}
	}
	prefix := "platform " + platforms[0].Name + ": "
	for s, want := range map[string]string{
		"login: MFA asked for":  prefix + "its capabilities do not declare mfa_supported",
		"login: wrong MFA code": prefix + "its capabilities do not declare mfa_supported",
		"login: right MFA code": prefix + "its capabilities do not declare mfa_supported",
		"jobs: pending outcome": prefix + "its capabilities do not declare pending_supported",
		"login: locked account": prefix + "no locked user given (--users)",
	} {
		if skipped[s] != want {
			t.Errorf("%s: skipped %q, want %q", s, skipped[s], want)
		}
	}
}

// TestWrongDataFails: a connector whose identity lacks full_name, and
// whose paystubs lack their currency, fails those products, each problem
// said once with the platform, product, item and field.
func TestWrongDataFails(t *testing.T) {
	wrong := rewriting(protocol.PathFetch, func(req, answer []byte) []byte {
		var fetch protocol.FetchRequest
		var page protocol.FetchResponse
		if json.Unmarshal(req, &fetch) != nil || json.Unmarshal(answer, &page) != nil {
			t.Fatalf("not a fetch: %s", req)
		}
		switch fetch.Product {
		case domain.ProductIdentity:
			page.Data = json.RawMessage(`{"name": "Ada Lovelace", "date_of_birth": "1990-01-02"}`)
		case domain.ProductPaystubs:
			var stubs []map[string]any
			if err := json.Unmarshal(page.Data, &stubs); err != nil {
				t.Fatal(err)
			}
			for _, s := range stubs {
				delete(s, "currency")
			}
			page.Data, _ = json.Marshal(stubs)
		}
		out, _ := json.Marshal(page)
		return out
	})
	platforms, _ := sandbox.Directory(10)
	p := platforms[0]
	results := conformance.Check(context.Background(), serve(t, good, wrong), secret, conformance.DefaultUsers, nil, p.ID)
	if conformance.AllPassed(results) {
		t.Fatal("wrong data passed")
	}
	byScenario := map[string]conformance.Result{}
	for _, r := range results {
		byScenario[r.Scenario] = r
	}
	identity, paystubs := byScenario["products: identity"], byScenario["products: paystubs"]
	if !identity.Failed() || !slices.Contains(identity.Problems, p.Name+" · identity · full_name: is missing") {
		t.Errorf("identity: %s %q", identity.State, identity.Problems)
	}
	if !strings.HasPrefix(identity.Reason, "platform "+p.Name+" · user user_good: ") {
		t.Errorf("identity's reason %q names no platform and user", identity.Reason)
	}
	if !paystubs.Failed() || len(paystubs.Problems) != 1 ||
		!regexp.MustCompile(`^`+p.Name+` · paystubs · item 0 · currency: is missing; the same in \d+ more items$`).MatchString(paystubs.Problems[0]) {
		t.Errorf("paystubs: %s %q", paystubs.State, paystubs.Problems)
	}
	if r := byScenario["products: employment"]; r.State != conformance.Passed {
		t.Errorf("employment, untouched: %s %s", r.State, r.Reason)
	}
}

// TestProblemWording: a problem names its place as the format
// says: no item for an object product, no "got" for a missing value.
func TestProblemWording(t *testing.T) {
	for _, c := range []struct {
		name string
		p    domain.FieldProblem
		want string
	}{
		{"object, missing", domain.FieldProblem{Item: -1, Field: "full_name", Problem: "is missing"}, "Acme · identity · full_name: is missing"},
		{"list, malformed", domain.FieldProblem{Item: 3, Field: "earnings[0].amount", Problem: "is not whole cents", Got: "12.5"},
			"Acme · identity · item 3 · earnings[0].amount: is not whole cents (got 12.5)"},
		{"the whole page", domain.FieldProblem{Item: -1, Problem: "is not an object", Got: "[]"}, "Acme · identity · data: is not an object (got [])"},
	} {
		if got := conformance.Problem("Acme · identity", c.p); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// lockedLetsIn is a connector that lets a locked user in.
type lockedLetsIn struct{ sandbox.Connector }

func (c lockedLetsIn) Login(ctx context.Context, p domain.Platform, cr domain.Credentials) (string, error) {
	if cr.Username == sandbox.UserLocked {
		return "good", nil
	}
	return c.Connector.Login(ctx, p, cr)
}

// codelessErrors fails jobs without saying why.
type codelessErrors struct{ sandbox.Connector }

func (c codelessErrors) Run(ctx context.Context, j domain.Job, a domain.Account, started, now time.Time) (domain.JobResult, error) {
	res, err := c.Connector.Run(ctx, j, a, started, now)
	res.ErrorCode = ""
	return res, err
}

// TestBrokenConnectorsFail: a connector with one behaviour broken fails
// the scenario that checks it, with a reason.
func TestBrokenConnectorsFail(t *testing.T) {
	resign := func(next http.Handler) http.Handler { // accepts any signature by re-signing every request
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			ts := time.Now().Unix()
			r.Header.Set(protocol.HeaderTimestamp, strconv.FormatInt(ts, 10))
			r.Header.Set(protocol.HeaderSignature, protocol.Sign(secret, r.Method, r.URL.Path, ts, body))
			r.Body = io.NopCloser(strings.NewReader(string(body)))
			next.ServeHTTP(w, r)
		})
	}
	noDeadline := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r.Header.Del(protocol.HeaderDeadline)
			next.ServeHTTP(w, r)
		})
	}
	for _, c := range []struct {
		name      string
		connector domain.Connector
		wrap      func(http.Handler) http.Handler
		scenario  string
	}{
		{"accepts any signature", good, resign, "signature: wrong secret"},
		{"accepts a replay", good, resign, "signature: replayed (10 minutes old)"},
		{"lets a locked user in", lockedLetsIn{good}, nil, "login: locked account"},
		{"fails jobs without a code", codelessErrors{good}, nil, "jobs: error outcome"},
		{"ignores deadlines", good, noDeadline, "deadline already passed"},
	} {
		results := conformance.Check(context.Background(), serve(t, c.connector, c.wrap), secret, conformance.DefaultUsers, nil)
		f := failed(results)
		if why, ok := f[c.scenario]; !ok || why == "" {
			t.Errorf("%s: scenario %q passed; failures were %v", c.name, c.scenario, f)
		}
	}
}

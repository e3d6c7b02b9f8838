package conformance_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
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
		if !r.Passed {
			out[r.Scenario] = r.Reason
		}
	}
	return out
}

var good = sandbox.Connector{PendingDelay: time.Hour, PendingPoll: time.Minute}

// TestSandboxConforms: the sandbox served over the protocol passes every
// scenario.
func TestSandboxConforms(t *testing.T) {
	results := conformance.Check(context.Background(), serve(t, good, nil), secret, conformance.DefaultUsers, nil)
	if len(results) < 20 {
		t.Errorf("only %d scenarios ran", len(results))
	}
	for s, why := range failed(results) {
		t.Errorf("%s: %s", s, why)
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

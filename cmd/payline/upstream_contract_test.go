package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"payline/domain"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// exchange is one request the relay sent the upstream and its answer.
type exchange struct {
	method, path, query string
	header              http.Header
	body                []byte
	status              int
	respHeader          http.Header
	respBody            []byte
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// recorder is a reverse proxy between the relay and the upstream that
// keeps every exchange.
type recorder struct {
	mu        sync.Mutex
	exchanges []exchange
}

func (rec *recorder) proxy(t *testing.T, target string) *httptest.Server {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.Transport = roundTripFunc(func(r *http.Request) (*http.Response, error) {
		ex := exchange{method: r.Method, path: r.URL.Path, query: r.URL.RawQuery, header: r.Header.Clone()}
		if r.Body != nil {
			ex.body, _ = io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(ex.body))
		}
		resp, err := http.DefaultTransport.RoundTrip(r)
		if err != nil {
			return nil, err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		ex.status, ex.respHeader, ex.respBody = resp.StatusCode, resp.Header.Clone(), body
		rec.mu.Lock()
		rec.exchanges = append(rec.exchanges, ex)
		rec.mu.Unlock()
		return resp, nil
	})
	srv := httptest.NewServer(rp)
	t.Cleanup(srv.Close)
	return srv
}

var booleanBounds = regexp.MustCompile(`(?m)^\s+(maximum|minimum|exclusiveMinimum|exclusiveMaximum): (true|false)\n`)

// vendorRouters loads every vendor OpenAPI document, each served at base.
func vendorRouters(t *testing.T, base string) []routers.Router {
	t.Helper()
	// The copy in testdata (testdata/vendor/SOURCE.md), which
	// rest.TestVendorCopyIsCurrent keeps equal to the team's reference.
	dir := filepath.Join("..", "..", "testdata", "vendor", "openapi")
	files, err := filepath.Glob(filepath.Join(dir, "*.yml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("the vendor's OpenAPI documents are missing from %s", dir)
	}
	var out []routers.Router
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// The employers-and-platforms document writes bounds as booleans
		// (maximum: true), which no OpenAPI 3.0 reader takes; they bound
		// nothing, so they are dropped before loading.
		raw = booleanBounds.ReplaceAll(raw, nil)
		doc, err := openapi3.NewLoader().LoadFromData(raw)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		doc.Servers = openapi3.Servers{{URL: base + "/v1"}}
		// The vendor's own examples do not all match its schemas; the
		// schemas are what is checked.
		r, err := legacy.NewRouter(doc, openapi3.DisableExamplesValidation())
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, r)
	}
	return out
}

// TestRelayContract: every request the relay sends the upstream, and
// every answer it reads, during a relayed Link session (start, the token,
// ingest, every job's outcome and data) matches the vendor's OpenAPI
// documents: the relay speaks the vendor's API, not only Payline's.
func TestRelayContract(t *testing.T) {
	// A relay pair mostly waits (the upstream's rate limit, deliveries):
	// it runs beside the other relay tests once the sequential ones are done.
	t.Parallel()
	var logs bytes.Buffer
	rec := &recorder{}
	// The relay reaches the upstream through the recorder; the upstream's
	// own address is where the test completes the session.
	p := startRelayPairVia(t, "sqlite:"+filepath.Join(t.TempDir(), "relay.db"), &logs, func(upstreamBase string) string {
		return rec.proxy(t, upstreamBase).URL
	})
	defer func() {
		if t.Failed() {
			t.Log(logs.String())
		}
	}()
	platform := p.platformID(t)
	account := p.completeUpstream(t, p.relayToken(t, "dana", "paystubs", "identity", "employment", "income", "tax_forms"), platform)
	p.waitJobs(t, account, 5, 30*time.Second)
	// A delivery whose payload names only its account (as a vendor's may)
	// makes the relay read the account and list its jobs: GET /jobs, which
	// a session whose deliveries carry their jobs' outcomes never needs.
	minimal, _ := json.Marshal(map[string]any{"event": "account.added", "event_id": domain.NewID(), "payload": map[string]any{"account_id": account}})
	if status := p.deliver(t, minimal); status != 200 {
		t.Fatalf("a minimal delivery answered %d", status)
	}

	rec.mu.Lock()
	exchanges := append([]exchange(nil), rec.exchanges...)
	rec.mu.Unlock()
	base := "http://vendor.test"
	routes := vendorRouters(t, base)
	seen := map[string]bool{}
	for _, ex := range exchanges {
		req, err := http.NewRequest(ex.method, base+ex.path+"?"+ex.query, bytes.NewReader(ex.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header = ex.header
		var route *routers.Route
		var params map[string]string
		for _, r := range routes {
			if route, params, err = r.FindRoute(req); err == nil {
				break
			}
		}
		if route == nil {
			t.Errorf("%s %s: no such operation in the vendor's API", ex.method, ex.path)
			continue
		}
		seen[ex.method+" "+route.Path] = true
		opts := &openapi3filter.Options{MultiError: true, AuthenticationFunc: func(context.Context, *openapi3filter.AuthenticationInput) error { return nil }}
		in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}
		if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
			t.Errorf("%s %s?%s: the request does not match the vendor's API: %v\n%s", ex.method, ex.path, ex.query, err, ex.body)
		}
		resp := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: ex.status, Header: ex.respHeader,
			Body: io.NopCloser(bytes.NewReader(ex.respBody)), Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}}
		if err := openapi3filter.ValidateResponse(context.Background(), resp); err != nil {
			for _, d := range deviations(err) {
				t.Errorf("%s %s?%s: the answer does not match the vendor's API: %s", ex.method, ex.path, ex.query, d)
			}
		}
	}
	var ops []string
	for op := range seen {
		ops = append(ops, op)
	}
	t.Logf("%d exchanges over %d operations: %s", len(exchanges), len(ops), strings.Join(ops, ", "))
	for _, want := range []string{"POST /link_tokens", "GET /accounts/{account_id}", "GET /jobs", "GET /accounts/{account_id}/paystubs",
		"GET /accounts/{account_id}/identity", "GET /accounts/{account_id}/tax_forms", "GET /end_users/{end_user_id}/documents/{document_id}",
		"GET /platforms", "GET /employers", "POST /webhooks"} {
		if !seen[want] && !seen[strings.Replace(want, "POST /webhooks", "PUT /webhooks/{webhook_id}", 1)] {
			t.Errorf("the relay never called %s", want)
		}
	}
}

// deviations are the schema errors of a response other than the known
// places where Payline's REST API (the upstream here) knowingly differs
// from the vendor's documents, each recorded in docs/upstreams.md:
//   - an absent optional value is written null where the vendor's schema
//     says the field is not nullable (next_cursor, error_code, error_type,
//     an earning's hours and rate, address.line2, termination_date);
//   - paystub deductions carry name, category and amount, not the
//     vendor's required type;
//   - the sandbox directory's merchant categories are its own.
//
// Anything else fails the test.
func deviations(err error) []string {
	var out []string
	var walk func(err error)
	walk = func(err error) {
		var multi openapi3.MultiError
		var resp *openapi3filter.ResponseError
		var schema *openapi3.SchemaError
		switch {
		case errors.As(err, &multi):
			for _, e := range multi {
				walk(e)
			}
		case errors.As(err, &resp) && resp.Err != nil && !errors.Is(resp.Err, err):
			walk(resp.Err)
		case errors.As(err, &schema):
			if schema.Origin != nil {
				walk(schema.Origin)
				return
			}
			path := "/" + strings.Join(schema.JSONPointer(), "/")
			switch {
			case strings.Contains(schema.Reason, "Value is not nullable"):
			case strings.Contains(path, "/deductions/") && strings.Contains(schema.Reason, `property "type" is missing`):
			case strings.HasSuffix(path, "/merchant_category") && strings.Contains(schema.Reason, "not one of the allowed values"):
			default:
				out = append(out, path+": "+schema.Reason)
			}
		default:
			out = append(out, err.Error())
		}
	}
	walk(err)
	return out
}

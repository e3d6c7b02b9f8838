package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"payline.dev/client"
	"payline.dev/client/api"
)

// fakeServer answers with the handlers in order, one per request, and
// records what it was sent.
type fakeServer struct {
	mu       sync.Mutex
	answers  []http.HandlerFunc
	requests []*http.Request
	bodies   []string
}

func newFake(t *testing.T, answers ...http.HandlerFunc) (*fakeServer, *client.Client) {
	t.Helper()
	f := &fakeServer{answers: answers}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		n := len(f.requests)
		f.requests, f.bodies = append(f.requests, r), append(f.bodies, string(body))
		f.mu.Unlock()
		if n >= len(f.answers) {
			t.Errorf("request %d (%s %s) beyond the %d expected", n+1, r.Method, r.URL, len(f.answers))
			http.Error(w, "unexpected", 500)
			return
		}
		f.answers[n](w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, "sk_test", client.WithRetries(3, 2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return f, c
}

func apiError(status int, typ, code string, header ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.Header().Set("x-service-request-id", "req-1")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"type":%q,"code":%q,"message":"told","status_code":%d}}`, typ, code, status)
	}
}

func jsonAnswer(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}
}

const oneWebhook = `{"data":{"id":"6f1d5a86-6d2b-4c35-9d36-0f1f0f4a2b11","url":"https://example.com/h","enabled_events":["account.added"],"status":"active","version":"2025-07-08","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}}`

func TestHeaders(t *testing.T) {
	f, c := newFake(t, jsonAnswer(oneWebhook))
	if _, err := c.GetWebhookWithResponse(context.Background(), "6f1d5a86-6d2b-4c35-9d36-0f1f0f4a2b11"); err != nil {
		t.Fatal(err)
	}
	r := f.requests[0]
	if r.URL.Path != "/v1/webhooks/6f1d5a86-6d2b-4c35-9d36-0f1f0f4a2b11" || r.Header.Get("x-api-secret") != "sk_test" ||
		r.Header.Get("Service-Version") != client.Version || !strings.HasPrefix(r.Header.Get("User-Agent"), "payline-go/") {
		t.Errorf("sent %s %v", r.URL.Path, r.Header)
	}
}

// A 429 is retried after its Retry-After whatever the method (the server
// refused it before doing anything), with the same body.
func TestRetries429(t *testing.T) {
	f, c := newFake(t, apiError(429, "RATE_LIMIT_EXCEEDED", "", "Retry-After", "0"), jsonAnswer(oneWebhook))
	_, err := c.CreateWebhookWithResponse(context.Background(), api.CreateWebhookJSONRequestBody{
		Url: "https://example.com/h", EnabledEvents: []string{"account.added"}, Version: api.N20250708})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.bodies) != 2 || f.bodies[0] != f.bodies[1] || f.bodies[0] == "" {
		t.Errorf("sent %q", f.bodies)
	}
}

// A POST that met a 503 may have been done: it is not retried. A GET is.
func TestRetriesOnlyIdempotentAfter503(t *testing.T) {
	f, c := newFake(t, apiError(503, "SERVICE_UNAVAILABLE", "UPSTREAM_UNAVAILABLE"))
	_, err := c.CreateWebhookWithResponse(context.Background(), api.CreateWebhookJSONRequestBody{
		Url: "https://example.com/h", EnabledEvents: []string{"account.added"}, Version: api.N20250708})
	if !client.IsCode(err, "UPSTREAM_UNAVAILABLE") || len(f.requests) != 1 {
		t.Errorf("POST after 503: %v, %d requests", err, len(f.requests))
	}

	f, c = newFake(t, apiError(503, "SERVICE_UNAVAILABLE", ""), apiError(502, "SERVICE_UNAVAILABLE", ""), jsonAnswer(oneWebhook))
	if _, err := c.GetWebhookWithResponse(context.Background(), "x"); err != nil || len(f.requests) != 3 {
		t.Errorf("GET after 503, 502: %v, %d requests", err, len(f.requests))
	}
}

// A Retry-After longer than the client waits is the caller's to handle.
func TestRetryAfterBeyondMaxWait(t *testing.T) {
	f, c := newFake(t, apiError(429, "RATE_LIMIT_EXCEEDED", "", "Retry-After", "120"))
	_, err := c.GetWebhookWithResponse(context.Background(), "x")
	var e *client.Error
	if !errors.As(err, &e) || e.RetryAfter != 2*time.Minute || len(f.requests) != 1 {
		t.Errorf("%#v after %d requests", err, len(f.requests))
	}
}

// The retries stop at the limit and return the last error, typed.
func TestRetriesGiveUp(t *testing.T) {
	limited := apiError(429, "RATE_LIMIT_EXCEEDED", "", "Retry-After", "0")
	f, c := newFake(t, limited, limited, limited, limited)
	_, err := c.GetWebhookWithResponse(context.Background(), "x")
	var e *client.Error
	if !errors.As(err, &e) || e.StatusCode != 429 || e.Type != "RATE_LIMIT_EXCEEDED" || e.RequestID != "req-1" || e.Message != "told" {
		t.Errorf("%#v", err)
	}
	if len(f.requests) != 4 {
		t.Errorf("%d requests, want 1 and 3 retries", len(f.requests))
	}
	if !strings.Contains(err.Error(), "req-1") {
		t.Errorf("the message %q does not name the request", err)
	}
}

// An error answer that is not the API's JSON still comes back typed.
func TestNonJSONError(t *testing.T) {
	_, c := newFake(t, func(w http.ResponseWriter, r *http.Request) { http.Error(w, "bad gateway from a proxy", 400) })
	_, err := c.GetWebhookWithResponse(context.Background(), "x")
	var e *client.Error
	if !errors.As(err, &e) || e.StatusCode != 400 || !strings.Contains(e.Message, "proxy") {
		t.Errorf("%#v", err)
	}
}

// The iterators follow next_cursor and fetch no page the loop does not
// reach.
func TestIteratorPages(t *testing.T) {
	page := func(cursor, next string, ids ...string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if got := r.URL.Query().Get("cursor"); got != cursor {
				t.Errorf("cursor %q, want %q", got, cursor)
			}
			var data []string
			for _, id := range ids {
				data = append(data, fmt.Sprintf(`{"id":%q,"name":"E %s","last_updated":"2026-01-01T00:00:00Z"}`, id, id))
			}
			n := "null"
			if next != "" {
				n = fmt.Sprintf("%q", next)
			}
			jsonAnswer(fmt.Sprintf(`{"data":[%s],"meta":{"count":%d,"next_cursor":%s}}`, strings.Join(data, ","), len(ids), n))(w, r)
		}
	}
	ids := []string{"6f1d5a86-6d2b-4c35-9d36-0f1f0f4a2b11", "6f1d5a86-6d2b-4c35-9d36-0f1f0f4a2b12", "6f1d5a86-6d2b-4c35-9d36-0f1f0f4a2b13"}
	f, c := newFake(t, page("", "c1", ids[0], ids[1]), page("c1", "", ids[2]))
	var got []string
	params := &api.ListEmployersParams{Limit: ptr(2)}
	for e, err := range c.Employers(context.Background(), params) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e.Id.String())
	}
	if strings.Join(got, ",") != strings.Join(ids, ",") || params.Cursor != nil {
		t.Errorf("got %v; the caller's params now %+v", got, params)
	}
	if f.requests[0].URL.Query().Get("limit") != "2" {
		t.Errorf("limit not sent: %s", f.requests[0].URL)
	}

	f, c = newFake(t, page("", "c1", ids[0], ids[1]))
	for range c.Employers(context.Background(), nil) {
		break
	}
	if len(f.requests) != 1 {
		t.Errorf("%d pages fetched for a loop that stopped on the first item", len(f.requests))
	}
}

func TestMoney(t *testing.T) {
	for cents, text := range map[int64]string{0: "0.00", 5: "0.05", 1999: "19.99", 100000000: "1000000.00", -250: "-2.50"} {
		if got := client.Dollars(cents); string(got) != text {
			t.Errorf("Dollars(%d) = %s, want %s", cents, got, text)
		}
		if got, err := client.Cents(json.Number(text)); err != nil || got != cents {
			t.Errorf("Cents(%s) = %d, %v", text, got, err)
		}
	}
	for text, cents := range map[string]int64{"25": 2500, "0.5": 50, "999999.99": 99999999} {
		if got, err := client.Cents(json.Number(text)); err != nil || got != cents {
			t.Errorf("Cents(%s) = %d, %v, want %d", text, got, err, cents)
		}
	}
	for _, bad := range []string{"", "1.999", "1e3", "abc", ".5", "1.-5", "--1"} {
		if _, err := client.Cents(json.Number(bad)); err == nil {
			t.Errorf("Cents(%q) accepted", bad)
		}
	}
}

func ptr[T any](v T) *T { return &v }

package upstream

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"payline/domain"
	"payline/internal/trust"
)

// TestSecretOnlyToTrustedURLs: the upstream URL follows the connector's
// rule, https or http on this machine only; any other plain-http URL is
// refused in one line before a request is made.
func TestSecretOnlyToTrustedURLs(t *testing.T) {
	for url, want := range map[string]string{
		"https://api.upstream.example/": "",
		"http://127.0.0.1:9000":         "",
		"http://[::1]:9000":             "",
		"http://localhost:9000":         "",
		"http://api.upstream.example":   "must be https unless it is on this machine",
		"http://10.0.0.5:9000":          "must be https unless it is on this machine",
		"ftp://api.upstream.example":    "must be an https URL",
	} {
		_, err := New(Config{URL: url, Secret: "s3cret"})
		if (err == nil) != (want == "") || err != nil && (!strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "--upstream-url")) {
			t.Errorf("%s: %v; want %q", url, err, want)
		}
	}
}

// TestSecretNeverRedirected: an https upstream that answers with a
// redirect to plain http, whatever the status, gets nothing sent there:
// the request fails as the upstream being unavailable, saying redirects
// are not followed.
func TestSecretNeverRedirected(t *testing.T) {
	var reached atomic.Int32
	var leaked atomic.Value
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		leaked.Store(r.Header.Get("x-api-secret"))
		_, _ = w.Write([]byte(`{"data": []}`))
	}))
	defer other.Close()
	for _, status := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			reached.Store(0)
			up := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, other.URL+r.URL.RequestURI(), status)
			}))
			defer up.Close()
			c, err := New(Config{URL: up.URL, Secret: "s3cret", HTTP: up.Client()})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			for what, err := range map[string]error{
				"verify":     c.Verify(ctx),
				"a creation": c.do(ctx, "POST", "/v1/link_tokens", map[string]string{"end_user_id": "e"}, nil),
			} {
				var e *domain.Error
				if !errors.As(err, &e) || e.Code != domain.CodeUpstreamUnavailable || !errors.Is(err, trust.ErrRedirect) ||
					!strings.Contains(err.Error(), "redirect to "+other.URL) {
					t.Errorf("%s redirected: %v; want UPSTREAM_UNAVAILABLE naming the redirect", what, err)
				}
			}
			if n := reached.Load(); n != 0 {
				t.Errorf("the redirect's address received %d requests (secret %q)", n, leaked.Load())
			}
		})
	}
}

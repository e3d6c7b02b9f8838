package rest

import (
	"bytes"
	"crypto/tls"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"payline/docs"
	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// serve runs one request through the server as it arrived, over TLS when
// tlsOn, with the fixture's secret unless headers say otherwise.
func (f *fixture) serve(method, path, body string, tlsOn bool, headers ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("x-api-secret", f.secret)
	req.Header.Set("Service-Version", domain.LatestVersion)
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	if tlsOn {
		req.TLS = &tls.ConnectionState{}
	}
	rec := httptest.NewRecorder()
	f.server.ServeHTTP(rec, req)
	return rec
}

// TestSecurityHeaders: every answer says not to sniff and sends no
// referrer; answers with people's data are never stored; HSTS comes with
// every answer over HTTPS, and behind a trusted proxy that says https;
// the dashboard's cookie is __Host- and Secure over HTTPS.
func TestSecurityHeaders(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		f.addMember("acme", "ada@acme.test", domain.RoleAdministrator)
		personal := []struct{ method, path, body string }{
			{"GET", "/v1/accounts", ""},
			{"GET", "/v1/end_users/someone/accounts", ""},
			{"GET", "/v1/accounts/" + domain.NewID(), ""},
			{"POST", "/graphql", `{"query": "{ endUsers(first: 1) { edges { cursor } } }"}`},
			{"GET", "/link/v1/api/session", ""},
			{"GET", "/files/" + domain.NewID() + "?expires=1&signature=x", ""},
			{"GET", "/dashboard/", ""},
			{"GET", "/v1/no-such-route", ""},
		}
		for _, tlsOn := range []bool{false, true} {
			for _, c := range personal {
				rec := f.serve(c.method, c.path, c.body, tlsOn)
				h := rec.Header()
				name := fmt.Sprintf("%s %s (TLS %v): %d", c.method, c.path, tlsOn, rec.Code)
				if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" {
					t.Errorf("%s: nosniff %q, referrer policy %q", name, h.Get("X-Content-Type-Options"), h.Get("Referrer-Policy"))
				}
				if cc := h.Get("Cache-Control"); !strings.Contains(cc, "no-store") {
					t.Errorf("%s: Cache-Control %q, want no-store", name, cc)
				}
				if hsts := h.Get("Strict-Transport-Security"); (hsts != "") != tlsOn || (tlsOn && !strings.Contains(hsts, "max-age=63072000")) {
					t.Errorf("%s: Strict-Transport-Security %q", name, hsts)
				}
			}
		}
		// Public documents keep their own caching.
		if cc := f.serve("GET", "/v1/openapi.yaml", "", true).Header().Get("Cache-Control"); cc != "public, max-age=300" {
			t.Errorf("openapi.yaml: Cache-Control %q", cc)
		}
		if rec := f.serve("GET", "/v1/connector-protocol.yaml", "", true); rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), docs.ConnectorProtocol) ||
			rec.Header().Get("Content-Type") != "application/yaml; charset=utf-8" {
			t.Errorf("connector-protocol.yaml: %d %s, %d bytes", rec.Code, rec.Header().Get("Content-Type"), rec.Body.Len())
		}
		// The cookie: __Host- and Secure over TLS, accepted back.
		signIn := fmt.Sprintf(`{"email": "ada@acme.test", "password": %q}`, memberPassword)
		rec := f.serve("POST", "/dashboard/session", signIn, true, "x-api-secret", "", "Origin", "https://example.com", "Sec-Fetch-Site", "same-origin")
		cookies := rec.Result().Cookies()
		if rec.Code != 200 || len(cookies) != 1 || cookies[0].Name != "__Host-payline_session" || !cookies[0].Secure ||
			cookies[0].Path != "/" || cookies[0].Domain != "" || !cookies[0].HttpOnly || cookies[0].SameSite != http.SameSiteStrictMode {
			t.Fatalf("sign-in over TLS: %d %v", rec.Code, rec.Result().Cookies())
		}
		who := f.serve("GET", "/dashboard/session", "", true, "x-api-secret", "", "Cookie", cookies[0].Name+"="+cookies[0].Value)
		if who.Code != 200 {
			t.Errorf("the __Host- cookie back over TLS: %d %s", who.Code, who.Body)
		}
		plain := f.serve("POST", "/dashboard/session", signIn, false, "x-api-secret", "", "Sec-Fetch-Site", "same-origin")
		if c := plain.Result().Cookies(); plain.Code != 200 || len(c) != 1 || c[0].Name != SessionCookie || c[0].Secure {
			t.Errorf("sign-in over plain HTTP: %d %v", plain.Code, c)
		}
	})
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db, func(s *fixtureSetup) { s.rest.TrustProxy = true })
		if hsts := f.serve("GET", "/v1/accounts", "", false, "X-Forwarded-Proto", "https").Header().Get("Strict-Transport-Security"); hsts == "" {
			t.Error("no HSTS behind a trusted proxy that says https")
		}
		if hsts := f.serve("GET", "/healthz", "", false, "X-Forwarded-Proto", "http").Header().Get("Strict-Transport-Security"); hsts != "" {
			t.Errorf("HSTS %q over plain HTTP", hsts)
		}
	})
}

// TestScopeOfRequiresIdentity: a handler asking for the tenant of a
// request no key authenticated fails, instead of reading an empty tenant.
func TestScopeOfRequiresIdentity(t *testing.T) {
	defer func() {
		if p := recover(); p != errNoIdentity {
			t.Fatalf("scopeOf without a key: recovered %v", p)
		}
	}()
	scopeOf(httptest.NewRequest("GET", "/v1/accounts", nil))
}

// TestServedOpenAPINamesThisServer: /v1/openapi.yaml's servers entry is
// the server's own public URL, whatever address it listens on.
func TestServedOpenAPINamesThisServer(t *testing.T) {
	s := &Server{publicURL: "https://payline.example.com/", mode: domain.ModeProduction}
	got := string(s.openAPI())
	if !strings.Contains(got, "  - url: https://payline.example.com/v1\n    description: this server (production mode)\n") ||
		strings.Contains(got, "127.0.0.1:8080") {
		t.Errorf("servers of the served document:\n%s", got[:min(len(got), 900)])
	}
}

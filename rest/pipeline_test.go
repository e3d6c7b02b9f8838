package rest

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/rest/wire"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestPipelineErrors covers every refusal of the request pipeline: each
// answers with the spec's error body, the right status, type and code, and
// a request id.
func TestPipelineErrors(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		revoked, err := f.keys.CreateKey(ctx, "acme", domain.ModeSandbox)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.keys.RevokeKey(ctx, revoked.Key.ID); err != nil {
			t.Fatal(err)
		}
		production, err := f.keys.CreateKey(ctx, "acme", domain.ModeProduction)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name    string
			method  string
			path    string
			headers []string
			status  int
			typ     string
			code    string
		}{
			{"missing secret", "GET", "/v1/employers", []string{"x-api-secret", ""}, 401, typeUnauthorized, domain.CodeMissingAPISecret},
			{"wrong secret", "GET", "/v1/employers", []string{"x-api-secret", strings.Repeat("ab", 32)}, 401, typeUnauthorized, domain.CodeInvalidAPISecret},
			{"revoked secret", "GET", "/v1/employers", []string{"x-api-secret", revoked.Secret}, 401, typeUnauthorized, domain.CodeRevokedAPISecret},
			{"other mode's secret", "GET", "/v1/employers", []string{"x-api-secret", production.Secret}, 401, typeUnauthorized, domain.CodeWrongModeAPISecret},
			{"auth before version", "GET", "/v1/employers", []string{"x-api-secret", "", "Service-Version", ""}, 401, typeUnauthorized, domain.CodeMissingAPISecret},
			{"missing version", "GET", "/v1/employers", []string{"Service-Version", ""}, 400, typeInvalid, domain.CodeMissingServiceVersion},
			{"unknown version", "GET", "/v1/employers", []string{"Service-Version", "2024-01-01"}, 400, typeInvalid, domain.CodeInvalidServiceVersion},
			{"unknown route", "GET", "/v1/payroll_magic", nil, 404, typeNotFound, domain.CodeRouteNotFound},
			{"unknown route needs auth", "GET", "/v1/payroll_magic", []string{"x-api-secret", ""}, 401, typeUnauthorized, domain.CodeMissingAPISecret},
			{"outside /v1", "GET", "/favicon.ico", []string{"x-api-secret", ""}, 404, typeNotFound, domain.CodeRouteNotFound},
			{"wrong method", "DELETE", "/v1/employers", nil, 400, typeInvalid, domain.CodeMethodNotAllowed},
			{"limit zero", "GET", "/v1/employers?limit=0", nil, 400, typeInvalid, domain.CodeInvalidFields},
			{"limit 101", "GET", "/v1/employers?limit=101", nil, 400, typeInvalid, domain.CodeInvalidFields},
			{"limit negative", "GET", "/v1/platforms?limit=-5", nil, 400, typeInvalid, domain.CodeInvalidFields},
			{"limit not a number", "GET", "/v1/employers?limit=ten", nil, 400, typeInvalid, domain.CodeInvalidFields},
			{"search limit", "GET", "/v1/search?q=a&limit=500", nil, 400, typeInvalid, domain.CodeInvalidFields},
			{"garbage cursor", "GET", "/v1/employers?cursor=not-a-cursor", nil, 400, typeInvalid, domain.CodeInvalidFields},
			{"cursor of another list", "GET", "/v1/employers?cursor=" + (domain.Cursor{List: domain.ListPlatforms, Key: "a", ID: "b"}).Encode(), nil, 400, typeInvalid, domain.CodeInvalidFields},
			{"bad last_updated", "GET", "/v1/employers?last_updated=yesterday", nil, 400, typeInvalid, domain.CodeInvalidFields},
		} {
			t.Run(tc.name, func(t *testing.T) {
				res := f.request(tc.method, tc.path, nil, tc.headers...)
				res.wantError(t, tc.status, tc.typ, tc.code)
			})
		}
	})
}

func TestServiceVersionIsEchoed(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		for _, v := range domain.Versions {
			res := f.get("/v1/platforms?limit=1", "Service-Version", v)
			if res.status != 200 || res.header.Get("Service-Version") != v {
				t.Errorf("version %s: status %d, echoed %q", v, res.status, res.header.Get("Service-Version"))
			}
		}
		// Errors before the version is known still name the one used.
		res := f.get("/v1/platforms", "Service-Version", "")
		if got := res.header.Get("Service-Version"); got != domain.LatestVersion {
			t.Errorf("missing version echoed as %q, want %s", got, domain.LatestVersion)
		}
	})
}

func TestSecretHeaderIsCaseInsensitive(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		for _, name := range []string{"X-API-SECRET", "X-Api-Secret", "x-api-secret"} {
			req, _ := http.NewRequest("GET", f.http.URL+"/v1/platforms?limit=1", nil)
			req.Header[name] = []string{f.secret} // bypass canonicalisation
			req.Header.Set("service-version", domain.LatestVersion)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Errorf("header %s: status %d", name, resp.StatusCode)
			}
		}
	})
}

// stillClock is a clock that never moves.
type stillClock struct{ t time.Time }

func (c stillClock) Now() time.Time { return c.t }

func TestRateLimitPerCustomer(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		// The sandbox's 10 per second, on a clock that stands still, so
		// no token comes back however slowly this machine runs.
		f := newFixture(t, db, func(s *fixtureSetup) { s.rest.RateLimit, s.rest.RateLimitClock = 0, stillClock{time.Now()} })
		other, err := f.keys.CreateKey(context.Background(), "globex", domain.ModeSandbox)
		if err != nil {
			t.Fatal(err)
		}
		var limited result
		for i := 0; i < 30; i++ {
			res := f.get("/v1/platforms?limit=1")
			if res.status == http.StatusTooManyRequests {
				limited = res
				break
			}
			if res.status != 200 {
				t.Fatalf("request %d: status %d", i, res.status)
			}
		}
		if limited.status == 0 {
			t.Fatal("30 back-to-back requests were never limited at 10 per second")
		}
		limited.wantError(t, http.StatusTooManyRequests, typeRateLimited, domain.CodeRateLimitExceeded)
		if s, err := strconv.Atoi(limited.header.Get("Retry-After")); err != nil || s < 1 {
			t.Errorf("Retry-After %q, want whole seconds >= 1", limited.header.Get("Retry-After"))
		}
		// Another customer has its own bucket; another key of the same
		// customer shares this one.
		if res := f.get("/v1/platforms?limit=1", "x-api-secret", other.Secret); res.status != 200 {
			t.Errorf("another customer was limited too: %d", res.status)
		}
		second, err := f.keys.CreateKey(context.Background(), "acme", domain.ModeSandbox)
		if err != nil {
			t.Fatal(err)
		}
		f.get("/v1/platforms?limit=1", "x-api-secret", second.Secret).wantError(t, http.StatusTooManyRequests, typeRateLimited, domain.CodeRateLimitExceeded)
	})
}

// TestRequestBodies exercises the JSON body rules on a probe route; every
// endpoint with a body (and Link's API) uses the same wire.Decode.
func TestRequestBodies(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Empty)
	f := newFixture(t, db)
	f.server.handle("POST /v1/probe", func(r *http.Request) (response, error) {
		var body struct {
			Name  string `json:"name"`
			Count int    `json:"count"`
		}
		if err := wire.Decode(r, &body); err != nil {
			return response{}, err
		}
		return object("probe", body), nil
	})
	f.server.handle("GET /v1/panic", func(*http.Request) (response, error) { panic("boom") })
	post := func(body, contentType string) result {
		return f.request("POST", "/v1/probe", strings.NewReader(body), "Content-Type", contentType)
	}
	for _, tc := range []struct {
		name, body, contentType, code string
	}{
		{"wrong content type", `{"name":"x"}`, "text/plain", domain.CodeUnsupportedMediaType},
		{"no content type", `{"name":"x"}`, "", domain.CodeUnsupportedMediaType},
		{"malformed", `{"name":`, "application/json", domain.CodeInvalidJSON},
		{"empty", ``, "application/json", domain.CodeInvalidJSON},
		{"two objects", `{"name":"a"} {"name":"b"}`, "application/json", domain.CodeInvalidJSON},
		{"unknown field", `{"nme":"x"}`, "application/json", domain.CodeInvalidFields},
		{"differently cased field", `{"NAME":"x"}`, "application/json", domain.CodeInvalidFields},
		{"cased twin beside the field", `{"name":"x","Name":"shadow"}`, "application/json", domain.CodeInvalidFields},
		{"repeated field", `{"name":"x","name":"y"}`, "application/json", domain.CodeInvalidFields},
		{"NUL escape in a string", `{"name":"a\u0000b"}`, "application/json", domain.CodeInvalidFields},
		{"invalid UTF-8 in a string", "{\"name\":\"\xff\xfe\"}", "application/json", domain.CodeInvalidFields},
		{"overlong UTF-8 in a string", "{\"name\":\"\xc0\xae\"}", "application/json", domain.CodeInvalidFields},
		{"null body", `null`, "application/json", domain.CodeInvalidJSON},
		{"array body", `[{"name":"x"}]`, "application/json", domain.CodeInvalidJSON},
		{"wrong type", `{"count":"three"}`, "application/json", domain.CodeInvalidFields},
		{"float for an integer", `{"count":1.5}`, "application/json", domain.CodeInvalidFields},
		{"too large", `{"name":"` + strings.Repeat("x", MaxBodyBytes) + `"}`, "application/json", domain.CodeRequestTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			post(tc.body, tc.contentType).wantError(t, 400, typeInvalid, tc.code)
		})
	}
	if res := post(`{"name":"ok","count":2}`, "application/json; charset=utf-8"); res.status != 200 || res.data(t)["name"] != "ok" {
		t.Errorf("good body: %d %s", res.status, res.raw)
	}
	t.Run("panic", func(t *testing.T) {
		f.get("/v1/panic").wantError(t, 500, typeUnknown, domain.CodeUnknown)
	})
}

// TestGraphQLNeedsTheAPISecret: /graphql sits behind the same check as /v1
// and reports refusals in GraphQL's error shape with the REST code.
func TestGraphQLNeedsTheAPISecret(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	var reached bool
	f := newFixture(t, db, func(s *fixtureSetup) {
		s.rest.GraphQL = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			k, ok := domain.APIKeyFrom(r.Context())
			reached = ok && k.ID != ""
			wire.Write(w, 200, map[string]any{"data": map[string]any{}})
		})
	})
	res := f.request("POST", "/graphql", strings.NewReader(`{"query":"{__typename}"}`), "x-api-secret", "", "Content-Type", "application/json")
	if res.status != 401 || reached {
		t.Fatalf("no secret: %d, reached handler %v", res.status, reached)
	}
	errs, _ := res.body["errors"].([]any)
	if len(errs) != 1 || errs[0].(map[string]any)["extensions"].(map[string]any)["code"] != domain.CodeMissingAPISecret {
		t.Errorf("error body %s", res.raw)
	}
	res = f.request("POST", "/graphql", strings.NewReader(`{"query":"{__typename}"}`), "Content-Type", "application/json")
	if res.status != 200 || !reached {
		t.Errorf("with secret: %d, reached handler %v", res.status, reached)
	}
}

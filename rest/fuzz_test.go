package rest

import (
	"errors"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// FuzzQuery: whatever the query string, parsing it never panics, refuses
// it with a 400 domain error or yields values a database can hold.
func FuzzQuery(f *testing.F) {
	for _, seed := range []string{"limit=5&cursor=abc", "link_token_id=%zz", "limit=%zz", "q=%00", "q=%ff%fe", "q=%c0%ae",
		"connected=maybe", "job_types=paystubs,income&job_types[]=identity", "from_timestamp=2025-01-01T00:00:00Z", "%", "a=b;c=d", ""} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q := newQuery(&url.URL{RawQuery: raw})
		q.page(domain.ListJobs)
		q.boolean("connected")
		q.timestamp("from_timestamp")
		q.jobTypes("job_types")
		q.platformType("type")
		if err := q.err(); err != nil {
			var de *domain.Error
			if !errors.As(err, &de) || de.Kind != domain.KindInvalid {
				t.Fatalf("%q: %v is not a 400 domain error", raw, err)
			}
			return
		}
		for name, vs := range q.values {
			for _, v := range append(vs, name) {
				if !utf8.ValidString(v) || strings.ContainsRune(v, 0) {
					t.Fatalf("%q: accepted %q", raw, v)
				}
			}
		}
	})
}

// bodyFuzzer sends fuzzed bodies to endpoints of a real server (on
// SQLite) and fails on anything but success or the spec's 4XX error body.
// route gives the method and path of each request for a body.
func bodyFuzzer(f *testing.F, route func(fx *fixture) [][2]string, seeds ...string) {
	fx := newFixture(f, storagetest.Open(f, storage.SQLite, storagetest.Seeded))
	fx.skipSpec = true // arbitrary input meets undocumented shapes of no interest here
	routes := route(fx)
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		fx.t = t
		for _, r := range routes {
			res := fx.request(r[0], r[1], strings.NewReader(string(body)), "Content-Type", "application/json")
			checkNotServerError(t, res)
		}
	})
}

func checkNotServerError(t *testing.T, res result) {
	t.Helper()
	if res.status >= 500 {
		t.Fatalf("status %d: %s", res.status, res.raw)
	}
	if res.status >= 400 {
		e, ok := res.body["error"].(map[string]any)
		if !ok || e["code"] == nil || e["type"] == nil || e["status_code"] != float64(res.status) {
			t.Fatalf("status %d without the spec's error body: %s", res.status, res.raw)
		}
	}
}

// FuzzLinkTokenBody fuzzes POST /v1/link_tokens end to end.
func FuzzLinkTokenBody(f *testing.F) {
	bodyFuzzer(f, func(*fixture) [][2]string { return [][2]string{{"POST", "/v1/link_tokens"}} },
		switchTokenBody(""), switchTokenBody(`, "amount": 19.99`), switchTokenBody(`, "amount": 19.999`),
		`{"org_name": "Acme", "end_user_id": "u", "job": "direct_deposit_payment", "amount": 4.35, "account_number": "123456789", "routing_number": "011000015", "account_type": "checking"}`,
		`{"org_name": "Acme", "end_user_id": "u", "required_jobs": ["direct_deposit_switch"], "allocation": {"type": "percentage", "value": 50.5, "targets": []}}`,
		`{"org_name": "Ac\u0000me", "end_user_id": "u"}`, `{"ORG_NAME": "x"}`, `null`,
		`{"org_name": "Acme", "end_user_id": "u", "end_user": {"platform_matching": {"social_security_last_four": "1234"}}}`)
}

// FuzzWebhookBody fuzzes POST /v1/webhooks and PUT /v1/webhooks/{id}.
func FuzzWebhookBody(f *testing.F) {
	bodyFuzzer(f, func(fx *fixture) [][2]string {
		hook := fx.createWebhook("https://example.com/hook", `"account.added"`)
		return [][2]string{{"POST", "/v1/webhooks"}, {"PUT", "/v1/webhooks/" + hook}}
	},
		`{"url": "https://example.com/a", "version": "2025-07-08", "enabled_events": ["account.added"]}`,
		`{"url": "https://example.com/\u0000", "version": "2025-07-08", "enabled_events": ["account.added"]}`,
		`{"enabled_events": ["income.added"], "status": "paused"}`, `null`, `{"version": "2023-07-18"}`, `{"url": 5}`)
}

// FuzzStringFields puts one fuzzed string into string fields of JSON
// bodies, path ids, query values and cursors, on SQLite and PostgreSQL:
// NUL, invalid UTF-8 and the rest must never reach a driver as a 5XX.
func FuzzStringFields(f *testing.F) {
	p := switchPlatform(f)
	var fixtures []*fixture
	for _, d := range storagetest.DialectList() {
		fx := newFixture(f, storagetest.Open(f, d, storagetest.Seeded))
		fx.skipSpec = true
		fixtures = append(fixtures, fx)
	}
	for _, s := range []string{"\x00", "a\x00b", "\xff\xfe", "\xc0\xae", "\xed\xa0\x80", "x", "", "'; DROP TABLE accounts; --", "%00", "\\u0000", strings.Repeat("é", 300)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		j := jsonString(s)
		for _, fx := range fixtures {
			fx.t = t
			_, token := fx.createToken(switchTokenBody(""))
			for _, req := range []struct{ method, path, body string }{
				{"POST", "/v1/link_tokens", `{"org_name": ` + j + `, "end_user_id": ` + j + `}`},
				{"POST", "/v1/link_tokens", switchTokenBody(`, "employer_id": ` + j)},
				{"POST", "/v1/webhooks", `{"url": ` + j + `, "version": "2025-07-08", "enabled_events": [` + j + `]}`},
				{"POST", "/v1/sandbox/link_sessions", `{"token": "` + token + `", "platform_id": "` + p.ID + `", "username": ` + j + `, "password": ` + j + `}`},
				{"GET", "/v1/end_users/" + url.PathEscape(s) + "/accounts", ""},
				{"GET", "/v1/end_users/" + url.PathEscape(s) + "/documents?type=" + url.QueryEscape(s), ""},
				{"GET", "/v1/accounts/" + url.PathEscape(s), ""},
				{"GET", "/v1/search?q=" + url.QueryEscape(s), ""},
				{"GET", "/v1/jobs?link_token_id=" + url.QueryEscape(s), ""},
				{"GET", "/v1/accounts?cursor=" + url.QueryEscape(s), ""},
				{"GET", "/v1/accounts?cursor=" + forgedCursorWith(domain.ListAccounts, s), ""},
				{"GET", "/v1/employers?cursor=" + forgedCursorWith(domain.ListEmployers, s), ""},
				{"GET", "/v1/employers/lookup?ein=" + url.QueryEscape(s), ""},
			} {
				var res result
				if req.body == "" {
					res = fx.request(req.method, req.path, nil)
				} else {
					res = fx.request(req.method, req.path, strings.NewReader(req.body), "Content-Type", "application/json")
				}
				checkNotServerError(t, res)
			}
		}
	})
}

// jsonString writes s as a JSON string with its bytes as they are: only
// quotes, backslashes and control characters are escaped, so invalid
// UTF-8 reaches the decoder raw.
func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[c>>4])
			b.WriteByte("0123456789abcdef"[c&15])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// forgedCursorWith is a cursor of list whose key and id are s.
func forgedCursorWith(list, s string) string {
	return url.QueryEscape(encodeCursor(list, s))
}

func encodeCursor(list, s string) string {
	return domain.Cursor{List: list, Key: s, ID: s}.Encode()
}

// FuzzAdminBodies fuzzes the admin API's bodies: sign-in and key creation.
func FuzzAdminBodies(f *testing.F) {
	bodyFuzzer(f, func(fx *fixture) [][2]string { return [][2]string{{"POST", "/v1/admin/token"}} },
		`{"username": "ada@acme.test", "password": "correct horse battery staple"}`, `{"username": "", "password": null}`,
		`{"username": "\u0000", "password": "x"}`, `{"expires_at": "2030-01-01 00:00:00"}`, `null`)
}

// FuzzSandboxBillBody fuzzes the sandbox helper's bill change.
func FuzzSandboxBillBody(f *testing.F) {
	bodyFuzzer(f, func(fx *fixture) [][2]string { return [][2]string{{"POST", "/v1/sandbox/link_sessions"}} },
		`{"token": "lt_x", "platform_id": "x", "username": "user_good", "password": "pass_good", "bill": {"job": "bill_switch", "card": {"number": "4242424242424242", "name": "a", "exp_month": 1, "exp_year": 2030}}}`,
		`{"token": "lt_x", "bill": {"job": "bill_cancellation", "target": "\u0000"}}`,
		`{"token": "lt_x", "bill": {"job": 5, "card": {"exp_month": 1e400}}}`)
}

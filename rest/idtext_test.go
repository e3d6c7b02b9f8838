package rest

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestIDsRefuseControlAndBidiCharacters: an id or tracking id holding a
// control character (CR/LF, DEL, C1) or a bidirectional formatting
// character (U+202E and the rest) is refused with 400 INVALID_FIELDS
// naming the field, in path values, query parameters, JSON bodies and
// GraphQL arguments and variables, before any statement runs; ids of
// other non-ASCII text still work.
func TestIDsRefuseControlAndBidiCharacters(t *testing.T) {
	bad := []string{"user\r\nX-Injected: 1", "invoice\u202Efdp.exe", "a\x7fb", "a\u0085b", "\u2066isolate\u2069", "\u061Cx"}
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		f.keys.RememberFor(time.Hour) // a run slower than AuthCacheTTL would count a key lookup
		f.get("/v1/accounts?limit=1") // authentication is cached after this
		for _, v := range bad {
			p, q, j := url.PathEscape(v), url.QueryEscape(v), jsonString(v)
			for _, c := range []struct{ method, path, body, field string }{
				{"GET", "/v1/end_users/" + p + "/accounts", "", "end_user_id"},
				{"GET", "/v1/end_users/" + p + "/verification_reports/voie", "", "end_user_id"},
				{"PUT", "/v1/end_users/" + p + "/bill_navigator/status", `{"action": "deactivate", "reason": "x"}`, "end_user_id"},
				{"GET", "/v1/end_users/user-1/verification_reports/voe?tracking_id=" + q, "", "tracking_id"},
				{"GET", "/v1/accounts?end_user_id=" + q, "", "end_user_id"},
				{"GET", "/v1/jobs?link_token_id=" + q, "", "link_token_id"},
				{"GET", "/v1/accounts/" + p, "", "account_id"},
				{"GET", "/v1/webhooks/" + p + "/deliveries", "", "webhook_id"},
				{"POST", "/v1/link_tokens", `{"org_name": "Acme", "end_user_id": ` + j + `, "required_jobs": ["income"]}`, "end_user_id"},
				{"POST", "/v1/link_tokens", `{"org_name": "Acme", "end_user_id": "u", "required_jobs": ["income"], "platform_id": ` + j + `}`, "platform_id"},
			} {
				var headers []string
				if c.body != "" {
					headers = []string{"Content-Type", "application/json"}
				}
				before := f.requestStatements.Load()
				res := f.request(c.method, c.path, strings.NewReader(c.body), headers...)
				if ran := f.requestStatements.Load() - before; ran != 0 {
					t.Errorf("%s %q: %d statements ran before the id was refused", c.method, c.path, ran)
				}
				if res.status != 400 || res.errorCode() != domain.CodeInvalidFields || !strings.HasPrefix(res.errorMessage(), c.field+":") {
					t.Errorf("%s %q: %d %s, want 400 INVALID_FIELDS naming %s", c.method, c.path, res.status, res.raw, c.field)
				}
				if strings.ContainsAny(strings.TrimSpace(string(res.raw)), "\r\n\u202E\u2066") {
					t.Errorf("%s %q: the answer echoes the character: %s", c.method, c.path, res.raw)
				}
			}
			for _, c := range []struct {
				query string
				vars  map[string]any
				field string
			}{
				{`query ($id: ID!) { endUser(id: $id) { id } }`, map[string]any{"id": v}, "id"},
				{`{ account(id: ` + j + `) { id } }`, nil, "id"},
				{`query ($ids: [ID!]!) { nodes(ids: $ids) { id } }`, map[string]any{"ids": []string{"EndUser:ok", v}}, "ids[1]"},
				{`query ($e: ID) { accounts(filter: {endUserId: $e}) { totalCount } }`, map[string]any{"e": v}, "filter.endUserId"},
				{`query ($f: AccountFilter) { accounts(filter: $f) { totalCount } }`, map[string]any{"f": map[string]any{"endUserId": v}}, "filter.endUserId"},
				{`mutation ($t: String) { refreshVerificationReport(endUserId: "user-1", type: "voie", trackingId: $t) { id } }`,
					map[string]any{"t": v}, "trackingId"},
				{`mutation ($in: CreateLinkTokenInput!) { createLinkToken(input: $in) { token } }`,
					map[string]any{"in": map[string]any{"orgName": "Acme", "endUserId": v, "requiredJobs": []string{"income"}}}, "input.endUserId"},
			} {
				body, _ := json.Marshal(map[string]any{"query": c.query, "variables": c.vars})
				before := f.requestStatements.Load()
				status, res := f.gqlRaw(t, string(body))
				if ran := f.requestStatements.Load() - before; ran != 0 {
					t.Errorf("%s: %d statements ran before the id was refused", c.query, ran)
				}
				ext := map[string]any{}
				if len(res.Errors) > 0 {
					ext, _ = res.Errors[0]["extensions"].(map[string]any)
				}
				fields, _ := ext["fields"].([]any)
				if status != 400 || ext["code"] != domain.CodeInvalidFields || !slices.Contains(fields, any(c.field)) || res.Data != nil {
					t.Errorf("%s with %q: %d %s, want 400 INVALID_FIELDS naming %s", c.query, v, status, res.raw, c.field)
				}
			}
		}

		// Ids in other scripts, with accents, e-mail addresses and
		// emoji are text like any other.
		for _, v := range []string{"José Müller", "user@example.com", "مستخدم-١", "用户 7", "crew 🚀 1", "a\u200Db"} {
			token := f.post("/v1/link_tokens", `{"org_name": "Acme", "end_user_id": `+jsonString(v)+`, "required_jobs": ["income"]}`)
			if token.status != 200 {
				t.Errorf("end_user_id %q refused: %d %s", v, token.status, token.raw)
			}
			if res := f.get("/v1/end_users/" + url.PathEscape(v) + "/accounts"); res.status != 200 {
				t.Errorf("GET /v1/end_users/%q/accounts: %d %s", v, res.status, res.raw)
			}
			if res := f.get("/v1/end_users/user-1/verification_reports/voie?tracking_id=" + url.QueryEscape(v)); res.status == 400 {
				t.Errorf("tracking_id %q refused: %s", v, res.raw)
			}
			body, _ := json.Marshal(map[string]any{"query": `query ($id: ID!) { endUser(id: $id) { id } }`, "variables": map[string]any{"id": v}})
			if status, res := f.gqlRaw(t, string(body)); status != 200 || len(res.Errors) > 0 {
				t.Errorf("endUser(id: %q): %d %s", v, status, res.raw)
			}
		}
	})
}

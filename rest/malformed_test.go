package rest

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// forgedCursor is a cursor of list whose key holds a NUL, as a caller
// could craft it from a real one.
func forgedCursor(list string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(`{"l":"` + list + `","k":"2026-01-01T00:00:00Z\u0000","i":"x\u0000"}`))
}

// TestMalformedInputsAreRefused: input no database column can hold, that
// encoding/json v1 would have read loosely, or that net/http would have
// redirected, answers 400 (or 404 for unclean paths) with the spec's body
// on both databases, never 5XX and never a silently widened answer.
func TestMalformedInputsAreRefused(t *testing.T) {
	p := fractionalPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		hook := f.createWebhook("https://example.com/hook", `"account.added"`)
		_, token := f.createToken(switchTokenBody(""))
		token2 := func() string { _, v := f.createToken(switchTokenBody("")); return v }
		json := "application/json"
		for _, tc := range []struct {
			name, method, path, body string
			status                   int
			code                     string
		}{
			// NUL and invalid UTF-8 in JSON strings.
			{"NUL in org_name", "POST", "/v1/link_tokens", `{"org_name": "Ac\u0000me", "end_user_id": "u"}`, 400, domain.CodeInvalidFields},
			{"NUL in end_user_id", "POST", "/v1/link_tokens", `{"org_name": "Acme", "end_user_id": "\u0000"}`, 400, domain.CodeInvalidFields},
			{"invalid UTF-8 in end_user_id", "POST", "/v1/link_tokens", "{\"org_name\": \"Acme\", \"end_user_id\": \"\xff\xfe\"}", 400, domain.CodeInvalidFields},
			{"overlong UTF-8 in end_user_id", "POST", "/v1/link_tokens", "{\"org_name\": \"Acme\", \"end_user_id\": \"\xc0\xae\"}", 400, domain.CodeInvalidFields},
			{"NUL in a webhook url", "POST", "/v1/webhooks", `{"url": "https://example.com/\u0000", "version": "2025-07-08", "enabled_events": ["account.added"]}`, 400, domain.CodeInvalidFields},
			{"NUL in an event name", "PUT", "/v1/webhooks/" + hook, `{"enabled_events": ["account.added\u0000"]}`, 400, domain.CodeInvalidFields},
			{"NUL in a sandbox username", "POST", "/v1/sandbox/link_sessions", `{"token": "` + token + `", "platform_id": "` + p.ID + `", "username": "user_good\u0000", "password": "pass_good"}`, 400, domain.CodeInvalidFields},
			// NUL and invalid UTF-8 in path ids.
			{"NUL end user", "GET", "/v1/end_users/%00/accounts", "", 400, domain.CodeInvalidFields},
			{"invalid UTF-8 end user", "GET", "/v1/end_users/%ff%fe/accounts", "", 400, domain.CodeInvalidFields},
			{"overlong UTF-8 end user", "GET", "/v1/end_users/%c0%ae/documents", "", 400, domain.CodeInvalidFields},
			{"NUL end user payouts", "GET", "/v1/end_users/a%00b/earnings_stream/payouts", "", 400, domain.CodeInvalidFields},
			{"NUL account id", "GET", "/v1/accounts/%00", "", 400, domain.CodeInvalidFields},
			{"NUL webhook id", "GET", "/v1/webhooks/%00/deliveries", "", 400, domain.CodeInvalidFields},
			// Forged cursors.
			{"forged accounts cursor", "GET", "/v1/accounts?cursor=" + forgedCursor(domain.ListAccounts), "", 400, domain.CodeInvalidFields},
			{"forged employers cursor", "GET", "/v1/employers?cursor=" + forgedCursor(domain.ListEmployers), "", 400, domain.CodeInvalidFields},
			{"forged jobs cursor", "GET", "/v1/jobs?cursor=" + forgedCursor(domain.ListJobs), "", 400, domain.CodeInvalidFields},
			// NUL and invalid UTF-8 in query values.
			{"NUL search", "GET", "/v1/search?q=%00", "", 400, domain.CodeInvalidFields},
			{"invalid UTF-8 search", "GET", "/v1/search?q=%ff%fe", "", 400, domain.CodeInvalidFields},
			{"invalid UTF-8 ein", "GET", "/v1/employers/lookup?ein=%c0%ae", "", 400, domain.CodeInvalidFields},
			// Keys matched exactly.
			{"cased twin key", "POST", "/v1/link_tokens", `{"org_name": "Acme", "ORG_NAME": "shadow", "end_user_id": "u"}`, 400, domain.CodeInvalidFields},
			{"cased key alone", "POST", "/v1/link_tokens", `{"Org_Name": "Acme", "end_user_id": "u"}`, 400, domain.CodeInvalidFields},
			{"repeated key", "POST", "/v1/webhooks", `{"url": "https://example.com/a", "url": "https://example.com/b", "version": "2025-07-08", "enabled_events": ["account.added"]}`, 400, domain.CodeInvalidFields},
			// Bodies that are not one object.
			{"null webhook update", "PUT", "/v1/webhooks/" + hook, `null`, 400, domain.CodeInvalidJSON},
			{"array webhook update", "PUT", "/v1/webhooks/" + hook, `[]`, 400, domain.CodeInvalidJSON},
			{"string webhook update", "PUT", "/v1/webhooks/" + hook, `"x"`, 400, domain.CodeInvalidJSON},
			// Query strings that do not parse are refused whole.
			{"bad escape in a filter", "GET", "/v1/jobs?link_token_id=%zz", "", 400, domain.CodeInvalidQuery},
			{"bad escape in limit", "GET", "/v1/employers?limit=%zz", "", 400, domain.CodeInvalidQuery},
			{"bad escape in cursor", "GET", "/v1/accounts?cursor=%zz", "", 400, domain.CodeInvalidQuery},
			{"bad escape in a name", "GET", "/v1/webhooks?%zz=1", "", 400, domain.CodeInvalidQuery},
			// Amounts are literals with at most two decimals.
			{"three-decimal sandbox value", "POST", "/v1/sandbox/link_sessions", sessionBody(token2(), p.ID, sandbox.UserGood,
				`, "allocation": {"action": "partial_switch", "type": "amount", "value": 150.125}`), 400, domain.CodeInvalidFields},
			{"exponent amount", "POST", "/v1/link_tokens", switchTokenBody(`, "amount": 1e2`), 400, domain.CodeInvalidFields},
			{"string amount", "POST", "/v1/link_tokens", switchTokenBody(`, "amount": "19.99"`), 400, domain.CodeInvalidFields},
			{"one-decimal legacy amount", "POST", "/v1/link_tokens", switchTokenBody(`, "amount": 19.9`), 400, domain.CodeInvalidFields},
			{"huge amount", "POST", "/v1/link_tokens", switchTokenBody(`, "amount": 100000000000000000000000.00`), 400, domain.CodeInvalidFields},
			{"negative allocation", "POST", "/v1/link_tokens", strings.Replace(switchTokenBody(""), `"allocation": {`, `"allocation": {"type": "amount", "value": -5, `, 1), 400, domain.CodeInvalidFields},
			// Unclean paths answer in the API's shape, not with a redirect.
			{"empty segment", "GET", "/v1//employers", "", 404, domain.CodeRouteNotFound},
			{"dot segment", "GET", "/v1/./employers", "", 404, domain.CodeRouteNotFound},
			{"dot-dot segment", "GET", "/v1/accounts/../employers", "", 404, domain.CodeRouteNotFound},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var res result
				if tc.body == "" {
					res = f.request(tc.method, tc.path, nil)
				} else {
					res = f.request(tc.method, tc.path, strings.NewReader(tc.body), "Content-Type", json)
				}
				typ := typeInvalid
				if tc.status == http.StatusNotFound {
					typ = typeNotFound
				}
				res.wantError(t, tc.status, typ, tc.code)
			})
		}
		// The refused ones changed nothing.
		if w := f.get("/v1/webhooks/" + hook).data(t); len(w["enabled_events"].([]any)) != 1 {
			t.Errorf("a refused update changed the webhook: %v", w)
		}
		if n := len(f.get("/v1/accounts").list(t)); n != 0 {
			t.Errorf("%d accounts after refused sessions", n)
		}
	})
}

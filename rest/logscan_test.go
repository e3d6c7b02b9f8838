package rest

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestLogsHoldNoSecrets drives every documented endpoint (docs/openapi.yaml)
// with known secrets and people's identifiers placed wherever a caller can
// put them (the secret header, query strings, path ids, bodies), in valid
// and malformed requests, plus a real sandbox Link flow with platform
// matching and a deposit switch, on both databases. The server's log (at
// its production level) must hold none of them: not the API secret, not
// the link token, not the SSN in either form, not the date of birth, not
// the bank or card numbers, not the SSN the sandbox generated for the
// account. Error messages must not echo a secret either.
func TestLogsHoldNoSecrets(t *testing.T) {
	openAPIRouter(t, "http://127.0.0.1")
	const (
		ssn      = "123-45-6789"
		ssnPlain = "123456789"
		dob      = "1990-12-10"
		account  = "998877665544"
		card     = "4111111111111111"
		fake     = "sk_live_0123456789abcdef0123456789abcdef"
	)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		logs := &syncBuffer{}
		f := newFixture(t, db, func(s *fixtureSetup) { s.logs = logs })
		f.skipSpec = true
		known := []string{f.secret, ssn, ssnPlain, dob, account, card, fake}

		// A real flow: a token with platform matching and a switch to the
		// account number, the sandbox session, the data it produces.
		p := switchPlatform(t)
		body := `{"org_name": "Acme Bank", "end_user_id": "logscan", "required_jobs": ["direct_deposit_switch"],
			"allocation": {"targets": [{"type": "checking", "account_number": "` + account + `", "routing_number": "` + goodRouting + `"}]},
			"end_user": {"platform_matching": {"first_name": "Ada", "last_name": "Lovelace", "date_of_birth": "` + dob + `",
			"social_security_number": "` + ssnPlain + `", "mobile_phone_number": "5551234567", "home_address_zip_code": "94107"}}}`
		tokenID, token := f.createToken(body)
		known = append(known, token)
		session := f.linkSession(sessionBody(token, p.ID, sandbox.UserGood, ""))
		accountID, _ := session.data(t)["account_id"].(string)
		f.waitJobs(tokenID, 1)
		for _, product := range []string{"identity", "direct_deposit_allocations", "paystubs", "employment", "income"} {
			res := f.get("/v1/accounts/" + accountID + "/" + product)
			if product == "identity" && res.status == 200 {
				if id, ok := res.data(t)["ssn"].(string); ok && len(id) >= 9 {
					known = append(known, id)
				}
			}
		}

		// Every endpoint, with the values in every place a caller can put them.
		hostile := []string{
			`{"social_security_number": "` + ssn + `", "date_of_birth": "` + dob + `", "account_number": "` + account + `", "card_number": "` + card + `"}`,
			`{"org_name": "` + ssn + `", "end_user_id": "` + account + `", "url": "https://` + card + `.example", "username": "` + fake + `", "password": "` + fake + `"}`,
			`{"end_user": {"platform_matching": {"social_security_number": "` + ssn + `", "date_of_birth": "not ` + dob + `"}}, "allocation": {"targets": [{"account_number": "` + account + `x"}]}}`,
			`{"payment": {"card_number": "` + card + `", "expiry": "13/99"}, "account_number": ` + account + `}`,
			`{"email": "a@b.example", "password": "` + fake + `"}`,
		}
		requests := 0
		for _, path := range specDoc.Paths.InMatchingOrder() {
			if path == "/openapi.yaml" || path == "/connector-protocol.yaml" { // documents, not JSON
				continue
			}
			for method := range specDoc.Paths.Value(path).Operations() {
				filled := pathParam.ReplaceAllString("/v1"+path, url.PathEscape(ssn))
				query := "?q=" + url.QueryEscape(ssn) + "&end_user_id=" + account + "&secret=" + fake
				for _, h := range [][]string{
					{"x-api-secret", f.secret},
					{"x-api-secret", fake},
					{"Authorization", "Bearer " + fake},
					{"Cookie", "payline_session=" + fake},
				} {
					headers := append([]string{"Content-Type", "application/json"}, h...)
					for _, b := range hostile {
						res := f.request(method, filled+query, strings.NewReader(b), headers...)
						requests++
						if strings.Contains(string(res.raw), fake) || strings.Contains(string(res.raw), f.secret) {
							t.Errorf("%s %s answered with a secret: %.300s", method, path, res.raw)
						}
						if method == http.MethodGet {
							break // one body is enough where none is read
						}
					}
				}
			}
		}
		// Link's own API, with the link token in its header and in bodies,
		// with the right method and a wrong one.
		for _, route := range []string{"GET /link/v1/api/session", "GET /link/v1/api/search", "POST /link/v1/api/login",
			"POST /link/v1/api/switch", "POST /link/v1/api/bill", "POST /link/v1/api/uploads", "POST /link/v1/api/uploads/preview", "POST /link/v1/api/matched_switch",
			"GET /link/v1/api/session?q=" + ssn, "DELETE /link/v1/api/login", "POST /link/v1/api/" + ssn} {
			method, path, _ := strings.Cut(route, " ")
			for _, b := range hostile {
				for _, auth := range []string{token, fake} {
					res := f.request(method, path, strings.NewReader(b), "Content-Type", "application/json", "Authorization", "Bearer "+auth)
					requests++
					if res.status >= 500 || strings.Contains(string(res.raw), fake) || strings.Contains(string(res.raw), token) {
						t.Errorf("%s: %d %.300s", route, res.status, res.raw)
					}
				}
			}
		}

		text := logs.String()
		if !strings.Contains(text, "request_id=") {
			t.Fatalf("the server logged no requests (%d bytes); the scan would prove nothing", len(text))
		}
		for _, v := range known {
			if v == "" {
				continue
			}
			if i := strings.Index(text, v); i >= 0 {
				start := max(0, strings.LastIndex(text[:i], "\n")+1)
				end := i + len(v) + strings.IndexByte(text[i+len(v):]+"\n", '\n')
				t.Errorf("the log holds %q: %s", redactForReport(v), text[start:min(end, start+400)])
			}
		}
		t.Logf("%d requests, %d lines of log, none holding any of %d known secrets and identifiers",
			requests, strings.Count(text, "\n"), len(known))
	})
}

// redactForReport shows enough of a leaked value to recognise it.
func redactForReport(v string) string {
	if len(v) <= 6 {
		return v
	}
	return v[:3] + fmt.Sprintf("...(%d chars)", len(v))
}

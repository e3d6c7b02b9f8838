package main

import (
	"bytes"
	"testing"
	"time"

	"payline/domain/sandbox"
)

// TestRelayCustomLinkUI (issue 47, item 6): a custom Link UI calls Link's
// API on the relay as it would on the sandbox: a wrong password is the
// sandbox's INVALID_CREDENTIALS, an MFA user is asked for the code, and a
// good login answers the account's id, which is the id the relay's own
// API then answers for the account the upstream's delivery brings, with
// its jobs.
func TestRelayCustomLinkUI(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, dbURL string) {
		var logs bytes.Buffer
		p := startRelayPair(t, dbURL, &logs)
		defer func() {
			if t.Failed() {
				t.Log(logs.String())
			}
		}()
		platformID := p.platformID(t)
		login := func(token, user, mfa string) (int, map[string]any) {
			body := `{"platform_id": "` + platformID + `", "username": "` + user + `", "password": "` + sandbox.Password + `"`
			if mfa != "" {
				body += `, "mfa_code": "` + mfa + `"`
			}
			return p.call(t, "POST", p.relayBase+"/link/v1/api/login", "", body+"}", "Authorization", "Bearer "+token)
		}
		newToken := func(endUser string) string {
			status, tok := p.call(t, "POST", p.relayBase+"/v1/link_tokens", p.relaySecret,
				`{"org_name": "Acme Lending", "end_user_id": "`+endUser+`", "required_jobs": ["paystubs", "identity"]}`)
			if status != 200 {
				t.Fatalf("link token on the relay: %d %v", status, tok)
			}
			return at(tok, "data", "token").(string)
		}

		token := newToken("carol")
		status, wrong := p.call(t, "POST", p.relayBase+"/link/v1/api/login", "",
			`{"platform_id": "`+platformID+`", "username": "`+sandbox.UserGood+`", "password": "not it"}`, "Authorization", "Bearer "+token)
		if status != 400 || at(wrong, "error", "code") != "INVALID_CREDENTIALS" {
			t.Fatalf("a wrong password through the relay: %d %v; want the sandbox's 400 INVALID_CREDENTIALS", status, wrong)
		}
		if status, mfa := login(token, sandbox.UserMFA, ""); status != 200 || mfa["mfa_required"] != true {
			t.Fatalf("an MFA user through the relay: %d %v; want mfa_required", status, mfa)
		}
		status, ok := login(token, sandbox.UserMFA, sandbox.MFACode)
		accountID, _ := ok["account_id"].(string)
		if status != 200 || accountID == "" || at(ok, "platform", "id") != platformID {
			t.Fatalf("a good login through the relay: %d %v", status, ok)
		}
		// The account the login answered is the relay's, under that id,
		// with the token's jobs.
		p.waitJobs(t, accountID, 2, 30*time.Second)
		if status, acct := p.call(t, "GET", p.relayBase+"/v1/accounts/"+accountID, p.relaySecret, ""); status != 200 || at(acct, "data", "end_user_id") != "carol" {
			t.Errorf("the account on the relay: %d %v", status, acct)
		}
		// The token is used now, on the relay as upstream.
		if status, again := login(token, sandbox.UserGood, ""); status == 200 {
			t.Errorf("a second login with a used token: %d %v", status, again)
		}
	})
}

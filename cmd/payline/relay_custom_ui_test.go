package main

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"
	"time"

	"payline/domain/sandbox"
	"payline/internal/testwait"
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

// TestRelayLearnsEmployerPlatform (issue 47, item 6): the upstream's
// directory says no employer's platform, so GraphQL's Employer.platform
// on the relay was null where the sandbox names it; an account connected
// at the employer (its token naming the employer) teaches the relay, and
// the relay then answers the sandbox upstream's own platform.
func TestRelayLearnsEmployerPlatform(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, dbURL string) {
		var logs bytes.Buffer
		p := startRelayPair(t, dbURL, &logs)
		defer func() {
			if t.Failed() {
				t.Log(logs.String())
			}
		}()
		employers := p.all(t, p.relayBase, p.relaySecret, "/v1/employers?limit=5")
		if len(employers) == 0 {
			t.Fatal("the relay lists no employer")
		}
		employer := at(employers[0], "id").(string)
		platformOf := func(base, secret string) any {
			status, r := p.call(t, "POST", base+"/graphql", secret, `{"query": "{ employer(id: \"`+employer+`\") { platform { id } } }"}`)
			if status != 200 {
				t.Fatalf("GraphQL at %s: %d %v", base, status, r)
			}
			return at(r, "data", "employer", "platform")
		}
		want := platformOf(p.upstreamBase, p.upstreamSecret)
		if want == nil {
			t.Fatalf("the sandbox upstream names no platform for employer %s", employer)
		}
		if got := platformOf(p.relayBase, p.relaySecret); got != nil {
			t.Fatalf("the relay names platform %v before any account at the employer; the upstream's directory does not say it", got)
		}
		status, tok := p.call(t, "POST", p.relayBase+"/v1/link_tokens", p.relaySecret,
			`{"org_name": "Acme Lending", "end_user_id": "dana", "employer_id": "`+employer+`", "required_jobs": ["paystubs"]}`)
		if status != 200 {
			t.Fatalf("link token naming the employer: %d %v", status, tok)
		}
		_, sess := p.call(t, "GET", p.relayBase+"/link/v1/api/session", "", "", "Authorization", "Bearer "+at(tok, "data", "token").(string))
		upstreamToken, _ := at(sess, "upstream", "link_token").(string)
		if upstreamToken == "" {
			t.Fatalf("the relay session opens no upstream Link: %v", sess)
		}
		account := p.completeUpstream(t, upstreamToken, at(want, "id").(string))
		p.waitJobs(t, account, 1, 30*time.Second)
		testwait.Every(100*time.Millisecond).Until(t, 10*time.Second, func() error {
			if got := platformOf(p.relayBase, p.relaySecret); !reflect.DeepEqual(got, want) {
				return fmt.Errorf("the relay names platform %v for employer %s, the upstream %v", got, employer, want)
			}
			return nil
		})
	})
}

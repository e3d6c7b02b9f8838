package rest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/internal/testwait"
	"payline/storage"
	"payline/storage/storagetest"
)

// linkAPI calls the modal's JSON API with a link token.
func (f *fixture) linkAPI(method, path, token, body string) (int, map[string]any) {
	f.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, f.http.URL+"/link/v1/api/"+path, rd)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

func linkErrorCode(out map[string]any) any {
	e, _ := out["error"].(map[string]any)
	return e["code"]
}

func (f *fixture) countEvents(name string) int {
	f.t.Helper()
	events, err := storage.NewTransactor(f.db, nil).ListEvents(context.Background(), f.key.Scope())
	if err != nil {
		f.t.Fatal(err)
	}
	n := 0
	for _, e := range events {
		if e.Name == name {
			n++
		}
	}
	return n
}

func TestOnDemandUpdate(t *testing.T) {
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		firstID, first := f.createToken(`{"org_name": "Acme", "end_user_id": "odu-user", "required_jobs": ["income"]}`)
		acct := f.linkSession(sessionBody(first, p.ID, sandbox.UserGood, "")).data(t)["account_id"].(string)
		f.waitJobs(firstID, 1)
		f.request("PATCH", "/v1/sandbox/accounts/"+acct, strings.NewReader(`{"monitoring_status": "user_action_required"}`), "Content-Type", "application/json")

		// No end_user_id needed: the account brings it, and its platform.
		oduID, odu := f.createToken(`{"org_name": "Acme", "account_id": "` + acct + `", "required_jobs": ["paystubs"]}`)
		status, session := f.linkAPI("GET", "session", odu, "")
		if status != 200 || session["on_demand_update"] != true || session["platform"].(map[string]any)["id"] != p.ID {
			t.Fatalf("session %d %v", status, session)
		}
		got := f.linkSession(`{"token": "` + odu + `", "username": "user_good", "password": "pass_good"}`).data(t)
		if got["account_id"] != acct {
			t.Fatalf("ODU logged in to %v, want the existing %s", got["account_id"], acct)
		}
		jobs := f.waitJobs(oduID, 1)
		if len(jobs) != 1 || jobs[0]["name"] != "paystubs" || jobs[0]["account_id"] != acct {
			t.Errorf("ODU jobs %v", jobs)
		}
		if n := f.countEvents("account.added"); n != 1 {
			t.Errorf("%d account.added events, want 1: an update adds no account", n)
		}
		if a := f.get("/v1/accounts/" + acct).data(t); a["monitoring_status"] != "active" {
			t.Errorf("monitoring_status after a successful update: %v", a["monitoring_status"])
		}
		if n := len(f.get("/v1/end_users/odu-user/accounts").list(t)); n != 1 {
			t.Errorf("%d accounts for the end user, want 1", n)
		}
		// An update does not undo the customer's disable_monitoring.
		f.request("POST", "/v1/accounts/"+acct+"/disable_monitoring", nil)
		_, again := f.createToken(`{"org_name": "Acme", "account_id": "` + acct + `"}`)
		f.linkSession(`{"token": "` + again + `", "username": "user_good", "password": "pass_good"}`)
		if a := f.get("/v1/accounts/" + acct).data(t); a["monitoring_status"] != "customer_disabled" {
			t.Errorf("monitoring_status after an update of a disabled account: %v", a["monitoring_status"])
		}
		// A token for another end user cannot update this account.
		f.post("/v1/link_tokens", `{"org_name": "Acme", "account_id": "`+acct+`", "end_user_id": "someone-else"}`).
			wantError(t, 400, typeInvalid, domain.CodeInvalidFields)
	})
}

func TestPlatformMatching(t *testing.T) {
	const person = `"first_name": "Ada", "last_name": "Lovelace", "date_of_birth": "1990-12-10",
		"mobile_phone_number": "5551234567", "home_address_zip_code": "94107", "email": "ada@example.com"`
	token := func(ssn string) string {
		return `{"org_name": "Acme Bank", "end_user_id": "pm-user", "required_jobs": ["direct_deposit_switch"],
			"allocation": {"targets": [{"type": "checking", "account_number": "12345678", "routing_number": "` + goodRouting + `"}]},
			"end_user": {"platform_matching": {"social_security_number": "` + ssn + `", ` + person + `}}}`
	}
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		sealed := func(tokenID string) bool {
			var n int
			if err := db.Get(&n, db.Rebind(`SELECT COUNT(*) FROM link_tokens WHERE id = ? AND sealed_matching IS NOT NULL`), tokenID); err != nil {
				t.Fatal(err)
			}
			return n == 1
		}
		tokenID, value := f.createToken(token("123456789"))
		if !sealed(tokenID) {
			t.Fatal("the identifiers were not kept for matching")
		}
		var raw []byte
		_ = db.Get(&raw, db.Rebind(`SELECT sealed_matching FROM link_tokens WHERE id = ?`), tokenID)
		if strings.Contains(string(raw), "123456789") || strings.Contains(string(raw), "Lovelace") {
			t.Error("identifiers are stored in plain text")
		}
		status, out := f.linkAPI("GET", "matches", value, "")
		matched, _ := out["platforms"].([]any)
		if status != 200 || len(matched) == 0 {
			t.Fatalf("matches: %d %v", status, out)
		}
		pid := matched[0].(map[string]any)["id"].(string)
		if status, out := f.linkAPI("POST", "matched_switch", value, `{"platform_id": "`+domain.NewID()+`"}`); status != 400 {
			t.Errorf("switch with an unmatched platform: %d %v", status, out)
		}
		status, out = f.linkAPI("POST", "matched_switch", value, `{"platform_id": "`+pid+`"}`)
		if status != 200 {
			t.Fatalf("matched switch: %d %v", status, out)
		}
		jobs := f.waitJobs(tokenID, 1)
		if len(jobs) != 1 || jobs[0]["outcome"] != "success" || !strings.HasSuffix(jobs[0]["platform_name"].(string), "(Partnership)") {
			t.Fatalf("jobs %v", jobs)
		}
		if params := jobs[0]["params"].(map[string]any); len(params) != 0 {
			t.Errorf("platform-matching switch params %v, want no action or allocation", params)
		}
		if sealed(tokenID) {
			t.Error("the identifiers were not deleted after use")
		}

		// No match: the user goes to search, and the identifiers are gone.
		noneID, none := f.createToken(token("12345" + sandbox.NoMatchLastFour))
		status, out = f.linkAPI("GET", "matches", none, "")
		if status != 200 || len(out["platforms"].([]any)) != 0 {
			t.Fatalf("no-match: %d %v", status, out)
		}
		if sealed(noneID) {
			t.Error("identifiers kept after matching found nothing")
		}
	})
}

func TestLinkTokenExpires(t *testing.T) {
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		_, value := f.createToken(`{"org_name": "Acme", "end_user_id": "late"}`)
		f.clock.advance(domain.LinkTokenLifetime + time.Second)
		if status, out := f.linkAPI("GET", "session", value, ""); status != 400 || linkErrorCode(out) != domain.CodeLinkTokenExpired {
			t.Errorf("expired session: %d %v", status, out)
		}
		f.linkSession(sessionBody(value, p.ID, sandbox.UserGood, "")).wantError(t, 400, typeInvalid, domain.CodeLinkTokenExpired)
		if status, out := f.linkAPI("GET", "session", "lt_forged", ""); status != 400 || linkErrorCode(out) != domain.CodeLinkTokenInvalid {
			t.Errorf("forged token: %d %v", status, out)
		}
	})
}

// TestPendingEndsAfter24Hours: a job still pending 24 hours after it was
// created ends in error with PENDING_TIMEOUT, and both outcomes are events.
func TestPendingEndsAfter24Hours(t *testing.T) {
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db, func(s *fixtureSetup) { s.connector.PendingDelay = 48 * time.Hour })
		tokenID, value := f.createToken(`{"org_name": "Acme", "end_user_id": "slow", "required_jobs": ["income"]}`)
		f.linkSession(sessionBody(value, p.ID, sandbox.UserPending, ""))
		testwait.Every(50*time.Millisecond).Eventually(t, 10*time.Second, func() bool {
			return len(f.get("/v1/jobs?outcome=pending&link_token_id="+tokenID).list(t)) > 0
		}, "the job never became pending")
		f.clock.advance(domain.PendingWindow + time.Minute)
		jobs := f.waitJobs(tokenID, 1)
		if jobs[0]["outcome"] != "error" || jobs[0]["error_code"] != "PENDING_TIMEOUT" {
			t.Errorf("after 24h: %v %v", jobs[0]["outcome"], jobs[0]["error_code"])
		}
		if n := f.countEvents("income.added"); n != 2 {
			t.Errorf("%d income.added events, want pending then error", n)
		}
	})
}

package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/internal/testwait"
	"payline/storage"
	"payline/storage/storagetest"
)

// switchPlatform is a sandbox payroll platform that takes amounts and
// percentages, so every allocation can be tried on it.
func switchPlatform(t testing.TB) domain.Platform {
	t.Helper()
	return platformWhere(t, "takes amounts and percentages", func(p domain.Platform) bool {
		return p.AmountSupported && p.PercentageSupported
	})
}

// platformWhere is the first sandbox payroll platform (not an ESP) that
// switches deposits and meets cond.
func platformWhere(t testing.TB, what string, cond func(domain.Platform) bool) domain.Platform {
	t.Helper()
	platforms, _ := sandbox.Directory(sandbox.DefaultEmployerCount)
	for _, p := range platforms {
		if p.Type == domain.PlatformPayroll && !p.ESP && slices.Contains(p.SupportedJobs, domain.JobDirectDepositSwitch) && cond(p) {
			return p
		}
	}
	t.Fatalf("no switch platform in the sandbox directory %s", what)
	return domain.Platform{}
}

const goodRouting = "011000015" // a valid ABA checksum

func switchTokenBody(extra string) string {
	return `{"org_name": "Acme Bank", "end_user_id": "user-123", "required_jobs": ["direct_deposit_switch"],
		"allocation": {"targets": [{"name": "Main", "type": "checking", "account_number": "123456789", "routing_number": "` + goodRouting + `"}]}` + extra + `}`
}

func (f *fixture) post(path, body string, headers ...string) result {
	f.t.Helper()
	return f.request("POST", path, strings.NewReader(body), append([]string{"Content-Type", "application/json"}, headers...)...)
}

func (f *fixture) createToken(body string, headers ...string) (id, token string) {
	f.t.Helper()
	res := f.post("/v1/link_tokens", body, headers...)
	if res.status != 200 {
		f.t.Fatalf("create link token: %d %s", res.status, res.raw)
	}
	d := res.data(f.t)
	return d["id"].(string), d["token"].(string)
}

// waitJobs polls GET /jobs for a token until n jobs have final outcomes.
func (f *fixture) waitJobs(tokenID string, n int, headers ...string) []map[string]any {
	f.t.Helper()
	var jobs []map[string]any
	testwait.Every(100*time.Millisecond).Until(f.t, 20*time.Second, func() error {
		jobs = f.get("/v1/jobs?limit=100&link_token_id="+tokenID, headers...).list(f.t)
		final := 0
		for _, j := range jobs {
			if j["outcome"] == "success" || j["outcome"] == "error" {
				final++
			}
		}
		if final < n {
			return fmt.Errorf("%d of %d jobs are final: %v", final, n, jobs)
		}
		return nil
	})
	return jobs
}

func TestCreateLinkToken(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		res := f.post("/v1/link_tokens", switchTokenBody(""))
		d := res.data(t)
		if !domain.ValidID(d["id"].(string)) || !strings.HasPrefix(d["token"].(string), "lt_") || d["mode"] != "sandbox" {
			t.Errorf("token response %v", d)
		}
		exp, err := time.Parse(time.RFC3339, d["expires"].(string))
		if err != nil || time.Until(exp) < 59*time.Minute || time.Until(exp) > 61*time.Minute {
			t.Errorf("expires %v is not an hour from now", d["expires"])
		}
		var stored int
		if err := db.Get(&stored, db.Rebind(`SELECT COUNT(*) FROM link_tokens WHERE token_hash = ?`), d["token"]); err != nil || stored != 0 {
			t.Errorf("the token value is stored in plain text")
		}

		p := switchPlatform(t)
		pm := func(fields string) string {
			return `{"org_name": "Acme Bank", "end_user_id": "u1", "required_jobs": ["direct_deposit_switch"],
				"allocation": {"targets": [{"type": "checking", "account_number": "12345678", "routing_number": "` + goodRouting + `"}]},
				"end_user": {"platform_matching": {` + fields + `}}}`
		}
		const person = `"first_name": "Ada", "last_name": "Lovelace", "date_of_birth": "1990-12-10", "mobile_phone_number": "5551234567", "home_address_zip_code": "94107"`
		for _, tc := range []struct {
			name, body, code, mention string
			version                   string
		}{
			{"no org_name", `{"end_user_id": "u"}`, domain.CodeMissingFields, "org_name", ""},
			{"no end_user_id", `{"org_name": "Acme"}`, domain.CodeMissingFields, "end_user_id", ""},
			{"short org_name", `{"org_name": "A", "end_user_id": "u"}`, domain.CodeInvalidFields, "org_name", ""},
			{"unknown job", `{"org_name": "Acme", "end_user_id": "u", "required_jobs": ["teleport"]}`, domain.CodeInvalidFields, "teleport", ""},
			{"unknown feature", `{"org_name": "Acme", "end_user_id": "u", "features": ["x"]}`, domain.CodeInvalidFields, "features", ""},
			{"switch without targets", `{"org_name": "Acme", "end_user_id": "u", "required_jobs": ["direct_deposit_switch"]}`, domain.CodeMissingFields, "allocation.targets", ""},
			{"bad allocation type", strings.Replace(switchTokenBody(""), `"allocation": {`, `"allocation": {"type": "half", `, 1), domain.CodeInvalidFields, "allocation.type", ""},
			{"bad routing number", strings.Replace(switchTokenBody(""), goodRouting, "011000016", 1), domain.CodeInvalidFields, "routing_number", ""},
			{"bad account type", strings.Replace(switchTokenBody(""), "checking", "brokerage", 1), domain.CodeInvalidFields, "allocation.targets[0].type", ""},
			{"percentage over 100", `{"org_name": "Acme", "end_user_id": "u", "required_jobs": ["direct_deposit_switch"], "allocation": {"type": "percentage", "value": 120, "targets": [{"type": "savings", "account_number": "1234567", "routing_number": "` + goodRouting + `"}]}}`, domain.CodeInvalidFields, "allocation.value", ""},
			{"unknown employer", `{"org_name": "Acme", "end_user_id": "u", "employer_id": "` + domain.NewID() + `"}`, domain.CodeInvalidFields, "employer_id", ""},
			{"unknown platform", `{"org_name": "Acme", "end_user_id": "u", "platform_id": "` + domain.NewID() + `"}`, domain.CodeInvalidFields, "platform_id", ""},
			{"malformed platform", `{"org_name": "Acme", "end_user_id": "u", "platform_id": "abc"}`, domain.CodeInvalidFields, "platform_id", ""},
			{"unknown account", `{"org_name": "Acme", "account_id": "` + domain.NewID() + `"}`, domain.CodeInvalidFields, "account_id", ""},
			{"platform lacks jobs", `{"org_name": "Acme", "end_user_id": "u", "platform_id": "` + p.ID + `", "required_jobs": ["shifts"]}`, domain.CodeInvalidFields, "does not support", ""},
			{"unknown field", `{"org_name": "Acme", "end_user_id": "u", "colour": "red"}`, domain.CodeInvalidFields, "colour", ""},
			{"legacy without job", `{"org_name": "Acme", "end_user_id": "u", "account_number": "123456"}`, domain.CodeInvalidFields, "legacy", ""},
			{"matching bad email", pm(person + `, "social_security_number": "123456789", "email": "ada@localhost"`), domain.CodeInvalidFields, "email", ""},
			{"matching email syntax", pm(person + `, "social_security_number": "123456789", "email": "not an email"`), domain.CodeInvalidFields, "email", ""},
			{"matching no ssn", pm(person), domain.CodeMissingFields, "social_security", ""},
			{"matching short ssn", pm(person + `, "social_security_number": "12345"`), domain.CodeInvalidFields, "social_security_number", ""},
			{"matching names", pm(`"social_security_last_four": "1234", "date_of_birth": "1990-01-01", "mobile_phone_number": "5551234567", "home_address_zip_code": "94107"`), domain.CodeMissingFields, "first_name", ""},
			{"matching dob", pm(strings.Replace(person, "1990-12-10", "12/10/1990", 1) + `, "social_security_last_four": "1234"`), domain.CodeInvalidFields, "date_of_birth", ""},
			{"matching phone", pm(strings.Replace(person, "5551234567", "+15551234567", 1) + `, "social_security_last_four": "1234"`), domain.CodeInvalidFields, "mobile_phone_number", ""},
			{"matching zip", pm(strings.Replace(person, "94107", "9410", 1) + `, "social_security_last_four": "1234"`), domain.CodeInvalidFields, "zip", ""},
			{"matching skip intro", strings.Replace(pm(person+`, "social_security_last_four": "1234"`), `"org_name"`, `"skip_intro_screen": true, "org_name"`, 1), domain.CodeInvalidFields, "skip_intro_screen", ""},
			{"matching needs switch", strings.Replace(pm(person+`, "social_security_last_four": "1234"`), `"required_jobs": ["direct_deposit_switch"]`, `"required_jobs": ["paystubs"]`, 1), domain.CodeInvalidFields, "required_jobs", ""},
			{"matching old version", pm(person + `, "social_security_last_four": "1234"`), domain.CodeInvalidFields, "2023-11-22", "2023-07-18"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var headers []string
				if tc.version != "" {
					headers = []string{"Service-Version", tc.version}
				}
				res := f.post("/v1/link_tokens", tc.body, headers...)
				res.wantError(t, 400, typeInvalid, tc.code)
				if msg := res.body["error"].(map[string]any)["message"].(string); !strings.Contains(msg, tc.mention) {
					t.Errorf("message %q does not mention %q", msg, tc.mention)
				}
			})
		}
		// A valid platform-matching token and the legacy form are accepted.
		if res := f.post("/v1/link_tokens", pm(person+`, "social_security_number": "123456789", "email": "ada@example.com"`)); res.status != 200 {
			t.Errorf("platform matching token: %d %s", res.status, res.raw)
		}
		legacy := `{"org_name": "Acme", "end_user_id": "u", "job": "direct_deposit_payment", "amount": 25.50,
			"account_number": "99887766", "routing_number": "` + goodRouting + `", "account_type": "savings"}`
		if res := f.post("/v1/link_tokens", legacy); res.status != 200 {
			t.Errorf("legacy form: %d %s", res.status, res.raw)
		}
	})
}

func (f *fixture) linkSession(body string) result {
	f.t.Helper()
	return f.post("/v1/sandbox/link_sessions", body)
}

func sessionBody(token, platformID, user, extra string) string {
	return fmt.Sprintf(`{"token": %q, "platform_id": %q, "username": %q, "password": "pass_good"%s}`, token, platformID, user, extra)
}

// TestLinkScenarios completes Link through the sandbox helper with every
// credential scenario and checks the accounts, jobs and events.
func TestLinkScenarios(t *testing.T) {
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)

		t.Run("user_good partial switch", func(t *testing.T) {
			tokenID, token := f.createToken(switchTokenBody(""))
			amount := float64(*p.MinAmount)/100 + 10
			res := f.linkSession(sessionBody(token, p.ID, sandbox.UserGood,
				fmt.Sprintf(`, "allocation": {"action": "partial_switch", "type": "amount", "value": %v}`, amount)))
			d := res.data(t)
			if d["link_token_id"] != tokenID || !domain.ValidID(d["account_id"].(string)) {
				t.Fatalf("session: %s", res.raw)
			}
			acct := f.get("/v1/accounts/" + d["account_id"].(string)).data(t)
			if acct["end_user_id"] != "user-123" || acct["platform_id"] != p.ID || acct["connected"] != true || acct["monitoring_status"] != "active" {
				t.Errorf("account %v", acct)
			}
			jobs := f.waitJobs(tokenID, 1)
			var sw map[string]any
			for _, j := range jobs {
				if j["outcome"] != "success" {
					t.Errorf("job %s: %v", j["name"], j["outcome"])
				}
				if j["name"] == "direct_deposit_switch" {
					sw = j
				}
			}
			if sw == nil {
				t.Fatalf("no switch job in %v", jobs)
			}
			params := sw["params"].(map[string]any)
			alloc := params["allocation"].(map[string]any)
			if params["action"] != "partial_switch" || alloc["type"] != "amount" || alloc["value"] != amount ||
				alloc["target"].(map[string]any)["account_type"] != "checking" ||
				alloc["target"].(map[string]any)["last_four_account_number"] != "6789" {
				t.Errorf("switch params %v", params)
			}
			if strings.Contains(string(res.raw)+fmt.Sprint(sw), "123456789") {
				t.Error("the full account number leaks")
			}
			// Older versions see params.amount in cents.
			old := f.get("/v1/jobs?job_types=direct_deposit_switch&link_token_id="+tokenID, "Service-Version", "2023-07-18").list(t)
			if got := old[0]["params"].(map[string]any)["amount"]; got != amount*100 {
				t.Errorf("legacy params.amount %v, want %v", got, amount*100)
			}
			events, err := storage.NewTransactor(db, nil).ListEvents(context.Background(), f.key.Scope())
			if err != nil {
				t.Fatal(err)
			}
			names := map[string]int{}
			for _, e := range events {
				names[e.Name]++
				var payload map[string]any
				if err := json.Unmarshal(e.Payload, &payload); err != nil {
					t.Fatal(err)
				}
				if e.Name == "account.added" && (payload["account_id"] != d["account_id"] || payload["link_token_id"] != tokenID || payload["connected"] != true) {
					t.Errorf("account.added payload %v", payload)
				}
			}
			if names["account.added"] != 1 || names["direct_deposit_switch.added"] != 1 {
				t.Errorf("events %v", names)
			}
			// The token is single-purpose.
			f.linkSession(sessionBody(token, p.ID, sandbox.UserGood, "")).wantError(t, 400, typeInvalid, domain.CodeLinkTokenUsed)
		})

		t.Run("user_mfa", func(t *testing.T) {
			_, token := f.createToken(`{"org_name": "Acme", "end_user_id": "mfa-user", "required_jobs": ["paystubs"]}`)
			f.linkSession(sessionBody(token, p.ID, sandbox.UserMFA, "")).wantError(t, 400, typeInvalid, "MFA_REQUIRED")
			f.linkSession(sessionBody(token, p.ID, sandbox.UserMFA, `, "mfa_code": "000000"`)).wantError(t, 400, typeInvalid, domain.CodeInvalidMFACode)
			if res := f.linkSession(sessionBody(token, p.ID, sandbox.UserMFA, `, "mfa_code": "`+sandbox.MFACode+`"`)); res.status != 200 {
				t.Fatalf("with the code: %d %s", res.status, res.raw)
			}
		})

		t.Run("user_error", func(t *testing.T) {
			tokenID, token := f.createToken(`{"org_name": "Acme", "end_user_id": "err-user", "required_jobs": ["paystubs", "income"]}`)
			f.linkSession(sessionBody(token, p.ID, sandbox.UserError, ""))
			for _, j := range f.waitJobs(tokenID, 2) {
				if j["outcome"] != "error" || j["error_code"] == nil || j["error_type"] != "PLATFORM_ERROR" {
					t.Errorf("job %s: %v %v %v", j["name"], j["outcome"], j["error_code"], j["error_type"])
				}
			}
		})

		t.Run("user_pending turns into error", func(t *testing.T) {
			tokenID, token := f.createToken(`{"org_name": "Acme", "end_user_id": "pending-user", "required_jobs": ["income"]}`)
			f.linkSession(sessionBody(token, p.ID, sandbox.UserPending, ""))
			testwait.Every(50*time.Millisecond).Eventually(t, 10*time.Second, func() bool {
				return len(f.get("/v1/jobs?outcome=pending&link_token_id="+tokenID).list(t)) == 1
			}, "the job never showed as pending")
			jobs := f.waitJobs(tokenID, 1)
			if jobs[0]["outcome"] != "error" {
				t.Fatalf("final outcome %v", jobs[0]["outcome"])
			}
			events, _ := storage.NewTransactor(db, nil).ListEvents(context.Background(), f.key.Scope())
			var outcomes []string
			for _, e := range events {
				var payload map[string]any
				_ = json.Unmarshal(e.Payload, &payload)
				if e.Name == "income.added" && payload["link_token_id"] == tokenID {
					outcomes = append(outcomes, payload["outcome"].(string))
				}
			}
			if !slices.Equal(outcomes, []string{"pending", "error"}) {
				t.Errorf("income.added outcomes %v, want pending then error", outcomes)
			}
		})

		for _, tc := range []struct{ name, user, password, code string }{
			{"wrong password", sandbox.UserGood, "nope", domain.CodeInvalidCredentials},
			{"unknown user", "someone", "pass_good", domain.CodeInvalidCredentials},
			{"locked", sandbox.UserLocked, "pass_good", domain.CodeAccountLocked},
		} {
			t.Run(tc.name, func(t *testing.T) {
				_, token := f.createToken(`{"org_name": "Acme", "end_user_id": "x"}`)
				body := fmt.Sprintf(`{"token": %q, "platform_id": %q, "username": %q, "password": %q}`, token, p.ID, tc.user, tc.password)
				f.linkSession(body).wantError(t, 400, typeInvalid, tc.code)
			})
		}

		t.Run("other tenant's token", func(t *testing.T) {
			other, err := f.keys.CreateKey(context.Background(), "globex", domain.ModeSandbox)
			if err != nil {
				t.Fatal(err)
			}
			_, token := f.createToken(`{"org_name": "Acme", "end_user_id": "x"}`)
			f.post("/v1/sandbox/link_sessions", sessionBody(token, p.ID, sandbox.UserGood, ""), "x-api-secret", other.Secret).
				wantError(t, 400, typeInvalid, domain.CodeLinkTokenInvalid)
			if jobs := f.get("/v1/jobs", "x-api-secret", other.Secret).list(t); len(jobs) != 0 {
				t.Errorf("globex sees %d of acme's jobs", len(jobs))
			}
			if accts := f.get("/v1/accounts", "x-api-secret", other.Secret).list(t); len(accts) != 0 {
				t.Errorf("globex sees %d of acme's accounts", len(accts))
			}
		})

		t.Run("restricted token", func(t *testing.T) {
			_, token := f.createToken(`{"org_name": "Acme", "end_user_id": "x", "platform_id": "` + p.ID + `"}`)
			platforms, _ := sandbox.Directory(10)
			f.linkSession(sessionBody(token, platforms[len(platforms)-1].ID, sandbox.UserGood, "")).wantError(t, 400, typeInvalid, domain.CodeInvalidFields)
		})
	})
}

func TestAccountsAndJobsLists(t *testing.T) {
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		var accounts []string
		var tokens []string
		for i := 0; i < 3; i++ {
			tokenID, token := f.createToken(fmt.Sprintf(`{"org_name": "Acme", "end_user_id": "eu-%d", "required_jobs": ["paystubs", "income"]}`, i%2))
			d := f.linkSession(sessionBody(token, p.ID, sandbox.UserGood, "")).data(t)
			accounts = append(accounts, d["account_id"].(string))
			tokens = append(tokens, tokenID)
			f.waitJobs(tokenID, 2)
		}
		if got := f.get("/v1/end_users/eu-0/accounts").list(t); len(got) != 2 {
			t.Errorf("eu-0 has %d accounts, want 2", len(got))
		}
		all := f.get("/v1/accounts?limit=2")
		if len(all.list(t)) != 2 || all.meta(t)["next_cursor"] == nil {
			t.Fatalf("first page %s", all.raw)
		}
		rest := f.get("/v1/accounts?limit=2&cursor=" + url.QueryEscape(all.meta(t)["next_cursor"].(string))).list(t)
		if len(rest) != 1 {
			t.Errorf("second page has %d", len(rest))
		}
		f.request("PATCH", "/v1/sandbox/accounts/"+accounts[0], strings.NewReader(`{"monitoring_status": "user_action_required"}`), "Content-Type", "application/json")
		broken := f.get("/v1/accounts?monitoring_status=user_action_required").list(t)
		if len(broken) != 1 || broken[0]["id"] != accounts[0] {
			t.Errorf("monitoring filter: %v", broken)
		}
		if got := f.get("/v1/accounts?connected=false").list(t); len(got) != 0 {
			t.Errorf("connected=false: %d", len(got))
		}
		f.request("PATCH", "/v1/sandbox/accounts/"+accounts[0], strings.NewReader(`{"monitoring_status": "customer_disabled"}`), "Content-Type", "application/json").
			wantError(t, 400, typeInvalid, domain.CodeInvalidFields)

		if got := f.get("/v1/jobs?limit=100").list(t); len(got) != 6 {
			t.Errorf("%d jobs, want 6", len(got))
		}
		if got := f.get("/v1/jobs?job_types=income&job_types=paystubs&account_id=" + accounts[1]).list(t); len(got) != 2 {
			t.Errorf("account filter: %d", len(got))
		}
		if got := f.get("/v1/jobs?job_types=income").list(t); len(got) != 3 {
			t.Errorf("job_types=income: %d", len(got))
		}
		future := url.QueryEscape(time.Now().Add(time.Hour).Format(time.RFC3339))
		if got := f.get("/v1/jobs?from_timestamp=" + future).list(t); len(got) != 0 {
			t.Errorf("from the future: %d", len(got))
		}
		if got := f.get("/v1/jobs?to_timestamp=" + future + "&outcome=success&link_token_id=" + tokens[2]).list(t); len(got) != 2 {
			t.Errorf("to_timestamp: %d", len(got))
		}
		if paged := f.allPages("/v1/jobs?limit=4"); len(paged) != 6 {
			t.Errorf("paged through %d jobs", len(paged))
		}
		for _, tc := range []struct{ path, code string }{
			{"/v1/jobs?outcome=maybe", domain.CodeInvalidFields},
			{"/v1/jobs?job_types=teleport", domain.CodeInvalidFields},
			{"/v1/jobs?account_id=nope", domain.CodeInvalidFields},
			{"/v1/jobs?from_timestamp=today", domain.CodeInvalidFields},
			{"/v1/accounts?monitoring_status=sleepy", domain.CodeInvalidFields},
			{"/v1/accounts?connected=perhaps", domain.CodeInvalidFields},
		} {
			f.get(tc.path).wantError(t, 400, typeInvalid, tc.code)
		}
		f.get("/v1/accounts/"+domain.NewID()).wantError(t, 404, typeNotFound, domain.CodeAccountNotFound)
		f.get("/v1/accounts/nope").wantError(t, 400, typeInvalid, domain.CodeInvalidFields)
	})
}

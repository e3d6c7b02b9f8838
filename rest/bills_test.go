package rest

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// merchant finds a sandbox merchant that supports exactly the given bill
// jobs.
func merchant(t testing.TB, jobs ...domain.JobType) domain.Platform {
	t.Helper()
	platforms, _ := sandbox.Directory(sandbox.DefaultEmployerCount)
	for _, p := range platforms {
		if p.Type == domain.PlatformMerchant && slices.Equal(p.SupportedJobs, jobs) {
			return p
		}
	}
	t.Fatalf("no merchant with %v in the sandbox directory", jobs)
	return domain.Platform{}
}

const testCard = "4242 4242 4242 4242" // passes the Luhn check

// TestBillJobs runs bill switches and cancellations through the sandbox
// helper on both databases: each outcome, the card kept only sealed and
// shown by its last four digits, the jobs in GET /jobs and their webhooks,
// and refusals that leave nothing behind.
func TestBillJobs(t *testing.T) {
	both := merchant(t, domain.JobBillSwitch, domain.JobBillCancellation)
	cancelOnly := merchant(t, domain.JobBillCancellation)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		rcv := newReceiver(t, always(200))
		f := newFixture(t, db, func(s *fixtureSetup) { s.caFile = rcv.caFile })
		f.createWebhook(rcv.srv.URL+"/bills", `"bill_switch.added", "bill_cancellation.added"`)
		token := func(job domain.JobType) (string, string) {
			return f.createToken(`{"org_name": "Acme Bank", "end_user_id": "biller", "required_jobs": ["` + string(job) + `"],
				"allocation": {"targets": [{"name": "Everyday", "type": "checking", "account_number": "123456789", "routing_number": "` + goodRouting + `"}]}}`)
		}
		session := func(tok, platformID, user, bill string) result {
			return f.linkSession(sessionBody(tok, platformID, user, `, "bill": `+bill))
		}
		jobOf := func(tokenID string) map[string]any {
			jobs := f.waitJobs(tokenID, 1)
			return jobs[0]
		}

		// Without the bill the modal would ask the user for, the helper
		// refuses, and no account is made that lacks the job asked for.
		_, silent := token(domain.JobBillSwitch)
		f.linkSession(sessionBody(silent, both.ID, sandbox.UserGood, "")).wantError(t, 400, typeInvalid, domain.CodeMissingFields)

		// A card switch that succeeds.
		cardTok, tok := token(domain.JobBillSwitch)
		session(tok, both.ID, sandbox.UserGood, `{"job": "bill_switch", "card": {"number": "`+testCard+`", "name": "Travel card", "exp_month": 12, "exp_year": 2031}}`).data(t)
		j := jobOf(cardTok)
		params, _ := json.Marshal(j["params"])
		if j["name"] != "bill_switch" || j["outcome"] != "success" ||
			string(params) != `{"payment":{"card_name":"Travel card","last_four_card_number":"4242"},"type":"card"}` {
			t.Errorf("card switch job %v params %s", j, params)
		}
		// The card number is nowhere in plain text: not in the API, not in
		// the database.
		var stored struct {
			Params string `db:"params"`
			Sealed []byte `db:"sealed_payment"`
		}
		if err := db.GetContext(context.Background(), &stored, db.Rebind(`SELECT params, sealed_payment FROM jobs WHERE id = ?`), j["id"]); err != nil {
			t.Fatal(err)
		}
		plain := strings.ReplaceAll(testCard, " ", "")
		if len(stored.Sealed) == 0 || strings.Contains(string(stored.Sealed), plain) || strings.Contains(stored.Params, plain) {
			t.Errorf("the card is stored in plain text or not at all: params %s, sealed %d bytes", stored.Params, len(stored.Sealed))
		}

		// A bank-account switch whose merchant errors.
		achTok, tok := token(domain.JobBillSwitch)
		session(tok, both.ID, sandbox.UserError, `{"job": "bill_switch", "target": "Everyday"}`).data(t)
		j = jobOf(achTok)
		params, _ = json.Marshal(j["params"])
		if j["outcome"] != "error" || j["error_code"] == nil || j["error_type"] == nil ||
			string(params) != `{"payment":{"account_name":"Everyday","account_type":"checking","last_four_account_number":"6789"},"type":"ach"}` {
			t.Errorf("ach switch job %v params %s", j, params)
		}

		// A cancellation at the merchant that only cancels, pending first.
		cancelTok, tok := token(domain.JobBillCancellation)
		session(tok, cancelOnly.ID, sandbox.UserPending, `{"job": "bill_cancellation"}`).data(t)
		waitFor(t, "the pending cancellation to end", func() bool {
			jobs := f.get("/v1/jobs?job_types=bill_cancellation&link_token_id=" + cancelTok).list(t)
			return len(jobs) == 1 && jobs[0]["outcome"] == "error"
		})
		okTok, tok := token(domain.JobBillCancellation)
		session(tok, cancelOnly.ID, sandbox.UserGood, `{"job": "bill_cancellation"}`).data(t)
		if j := jobOf(okTok); j["outcome"] != "success" || len(j["params"].(map[string]any)) != 0 {
			t.Errorf("cancellation job %v", j)
		}
		// The two outcomes left: a cancellation that errors, a switch that
		// stays pending and then errors (its pending event is counted below).
		errTok, tok := token(domain.JobBillCancellation)
		session(tok, both.ID, sandbox.UserError, `{"job": "bill_cancellation"}`).data(t)
		if j := jobOf(errTok); j["outcome"] != "error" || j["error_code"] != domain.CodeSandboxJobError {
			t.Errorf("erroring cancellation job %v", j)
		}
		pendTok, tok := token(domain.JobBillSwitch)
		session(tok, both.ID, sandbox.UserPending, `{"job": "bill_switch", "target": "Everyday"}`).data(t)
		waitFor(t, "the pending switch to end", func() bool {
			jobs := f.get("/v1/jobs?job_types=bill_switch&link_token_id=" + pendTok).list(t)
			return len(jobs) == 1 && jobs[0]["outcome"] == "error"
		})

		// Refusals, each before anything is stored.
		accounts := len(f.allPages("/v1/accounts?limit=100"))
		_, tok = token(domain.JobBillSwitch)
		for _, c := range []struct{ platform, bill, code, mention string }{
			{cancelOnly.ID, `{"job": "bill_switch", "card": {"number": "` + testCard + `", "name": "x", "exp_month": 1, "exp_year": 2030}}`, domain.CodeUnsupportedJobs, "does not support every job this link token requires"},
			{both.ID, `{"job": "bill_switch", "card": {"number": "4242 4242 4242 4241", "name": "x", "exp_month": 1, "exp_year": 2030}}`, domain.CodeInvalidFields, "card.number"},
			{both.ID, `{"job": "bill_switch", "card": {"number": "` + testCard + `", "name": "x", "exp_month": 1, "exp_year": 2020}}`, domain.CodeInvalidFields, "expired"},
			{both.ID, `{"job": "bill_switch", "target": "Savings"}`, domain.CodeInvalidFields, "no bank account named"},
			{both.ID, `{"job": "bill_cancellation"}`, domain.CodeUnsupportedJobs, "does not ask for bill_cancellation"},
		} {
			res := session(tok, c.platform, sandbox.UserGood, c.bill)
			if res.status != 400 || res.errorCode() != c.code || !strings.Contains(res.errorMessage(), c.mention) {
				t.Errorf("%s: %d %s, want %s mentioning %q", c.bill, res.status, res.raw, c.code, c.mention)
			}
		}
		if n := len(f.allPages("/v1/accounts?limit=100")); n != accounts {
			t.Errorf("refused bill requests left %d accounts behind", n-accounts)
		}

		// GET /jobs lists them, and each became a webhook.
		if got := len(f.get("/v1/jobs?job_types=bill_switch,bill_cancellation&limit=100").list(t)); got != 6 {
			t.Errorf("GET /jobs lists %d bill jobs, want 6", got)
		}
		// Eight events: each pending job has one for pending and one for
		// its error.
		waitFor(t, "the eight bill events", func() bool { return len(rcv.deliveries()) == 8 })
		names := map[string]int{}
		for _, d := range rcv.deliveries() {
			var body struct {
				Event   string         `json:"event"`
				Payload map[string]any `json:"payload"`
			}
			_ = json.Unmarshal(d.body, &body)
			names[body.Event]++
			if body.Payload["link_token_id"] == nil || body.Payload["params"] == nil {
				t.Errorf("%s payload %v", body.Event, body.Payload)
			}
		}
		if names["bill_switch.added"] != 4 || names["bill_cancellation.added"] != 4 {
			t.Errorf("events %v", names)
		}

		// An end user who deactivated the bill navigator is offered no bill
		// change; their other tokens are unaffected.
		if res := f.request("PUT", "/v1/end_users/biller/bill_navigator/status", strings.NewReader(`{"action": "deactivate", "reason": "asked us to stop"}`),
			"Content-Type", "application/json"); res.status != 204 {
			t.Fatalf("deactivate: %d %s", res.status, res.raw)
		}
		res := f.post("/v1/link_tokens", `{"org_name": "Acme Bank", "end_user_id": "biller", "required_jobs": ["bill_cancellation"]}`)
		if res.status != 400 || !strings.Contains(res.errorMessage(), "deactivated the bill navigator") {
			t.Errorf("bill token after deactivation: %d %s", res.status, res.raw)
		}
		f.createToken(`{"org_name": "Acme Bank", "end_user_id": "biller", "required_jobs": ["paystubs"]}`)
		f.createToken(`{"org_name": "Acme Bank", "end_user_id": "someone-else", "required_jobs": ["bill_cancellation"]}`)
	})
}

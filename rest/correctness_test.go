package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// fractionalPlatform is a sandbox payroll platform that takes amounts
// with cents.
func fractionalPlatform(t testing.TB) domain.Platform {
	t.Helper()
	return platformWhere(t, "takes amounts with cents", func(p domain.Platform) bool {
		return !p.Partnership && p.FractionalAmountSupported
	})
}

// floatRefused lists the two-decimal literals in [from, to] cents that
// the old float64 check (v*100 != float64(int64(v*100))) refused.
func floatRefused(from, to int64) []string {
	var out []string
	for c := from; c <= to; c++ {
		lit := fmt.Sprintf("%d.%02d", c/100, c%100)
		var v float64
		_ = json.Unmarshal([]byte(lit), &v)
		if v*100 != float64(int64(v*100)) {
			out = append(out, lit)
		}
	}
	return out
}

// TestDollarLiteralsStoredExactly: every literal the old float check
// refused from $0.01 to $99.99 is taken as a link token's legacy amount and
// stored as its exact cents, on both databases.
func TestDollarLiteralsStoredExactly(t *testing.T) {
	lits := floatRefused(1, 9999)
	if len(lits) < 500 {
		t.Fatalf("only %d literals the float check refused; the check under test changed", len(lits))
	}
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		tokens := storage.NewTransactor(f.db, nil)
		for _, lit := range lits {
			id, _ := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "u", "job": "direct_deposit_payment", "amount": ` + lit + `,
				"account_number": "123456789", "routing_number": "` + goodRouting + `", "account_type": "checking"}`)
			tok, err := tokens.LinkToken(context.Background(), f.key.Scope(), id)
			if err != nil {
				t.Fatal(err)
			}
			whole, frac, _ := strings.Cut(lit, ".")
			want := fmt.Sprintf("%s%s", whole, frac)
			if tok.Amount == nil || fmt.Sprint(tok.Amount.Amount) != strings.TrimLeft(want, "0") || tok.Amount.Currency != "USD" {
				t.Fatalf("amount %s stored as %+v", lit, tok.Amount)
			}
		}
	})
}

// TestDollarAmountsThroughSwitches: amounts the float code got wrong go
// through a switch exactly, by the sandbox helper and by the Link modal's
// API alike: GET /jobs shows the literal, older versions its cents, and
// the allocations product the cents.
func TestDollarAmountsThroughSwitches(t *testing.T) {
	p := fractionalPlatform(t)
	candidates := floatRefused(*p.MinAmount+1, 9999)
	lits := []string{candidates[0], candidates[len(candidates)/3], candidates[2*len(candidates)/3], candidates[len(candidates)-1]}
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		for i, lit := range lits {
			viaModal := i%2 == 1
			tokenID, token := f.createToken(switchTokenBody(""))
			if viaModal {
				if status, out := f.linkAPI("POST", "login", token, `{"platform_id": "`+p.ID+`", "username": "user_good", "password": "pass_good"}`); status != 200 {
					t.Fatalf("login: %d %v", status, out)
				}
				if status, out := f.linkAPI("POST", "switch", token, `{"action": "partial_switch", "type": "amount", "value": `+lit+`}`); status != 200 {
					t.Fatalf("switch %s: %d %v", lit, status, out)
				}
			} else {
				f.linkSession(sessionBody(token, p.ID, sandbox.UserGood, `, "allocation": {"action": "partial_switch", "type": "amount", "value": `+lit+`}`)).data(t)
			}
			f.waitJobs(tokenID, 1)
			res := f.get("/v1/jobs?job_types=direct_deposit_switch&link_token_id=" + tokenID)
			if !strings.Contains(string(res.raw), `"value":`+lit+`,`) && !strings.Contains(string(res.raw), `"value":`+lit+`}`) {
				t.Errorf("%s (modal %v): GET /jobs does not show the literal: %s", lit, viaModal, res.raw)
			}
			cents := strings.TrimLeft(strings.Replace(lit, ".", "", 1), "0")
			old := f.get("/v1/jobs?job_types=direct_deposit_switch&link_token_id="+tokenID, "Service-Version", "2023-07-18")
			if got := fmt.Sprint(old.list(t)[0]["params"].(map[string]any)["amount"]); got != cents {
				t.Errorf("%s: params.amount at 2023-07-18 is %s, want %s", lit, got, cents)
			}
			acct := f.get("/v1/accounts?limit=1").list(t)[0]["id"].(string)
			allocs := f.get("/v1/accounts/" + acct + "/direct_deposit_allocations").data(t)["allocations"].([]any)
			if got := fmt.Sprint(allocs[0].(map[string]any)["amount"]); got != cents {
				t.Errorf("%s: the allocation line's amount is %s, want %s", lit, got, cents)
			}
		}
	})
}

// TestBadAllocationLeavesNothing: the sandbox helper checks the switch
// before it logs in, so valid credentials with an allocation the platform
// cannot take leave no account, no job, no event and an unspent token.
func TestBadAllocationLeavesNothing(t *testing.T) {
	p := fractionalPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		tokenID, token := f.createToken(switchTokenBody(""))
		tooMuch := domain.USD(*p.MaxAmount + 1).Decimal()
		for _, alloc := range []string{
			`{"action": "partial_switch", "type": "amount", "value": ` + tooMuch + `}`,
			`{"action": "partial_switch", "type": "amount", "value": 150.125}`,
			`{"action": "partial_switch", "type": "amount", "value": "19.99"}`,
			`{"action": "partial_switch", "type": "percentage", "value": 50.5}`,
			`{"action": "sideways"}`,
		} {
			res := f.linkSession(sessionBody(token, p.ID, sandbox.UserGood, `, "allocation": `+alloc))
			res.wantError(t, 400, typeInvalid, domain.CodeInvalidFields)
			if msg := res.body["error"].(map[string]any)["message"].(string); !strings.Contains(msg, "allocation.value") && !strings.Contains(msg, "action") {
				t.Errorf("%s: message %q names no field", alloc, msg)
			}
		}
		if n := len(f.get("/v1/accounts").list(t)); n != 0 {
			t.Fatalf("%d accounts after refused sessions", n)
		}
		if n := f.countEvents("account.added"); n != 0 {
			t.Fatalf("%d account.added events after refused sessions", n)
		}
		jobs, err := storage.NewTransactor(f.db, nil).FindJobs(context.Background(), f.key.Scope(),
			domain.JobFilter{LinkTokenID: tokenID, IncludeUnrun: true}, domain.PageRequest{Limit: 10})
		if err != nil || len(jobs.Items) != 0 {
			t.Fatalf("jobs after refused sessions: %v %v", jobs.Items, err)
		}
		// The token is unspent: a good allocation still goes through.
		f.linkSession(sessionBody(token, p.ID, sandbox.UserGood, `, "allocation": {"action": "partial_switch", "type": "amount", "value": 19.99}`)).data(t)
		f.waitJobs(tokenID, 1)
	})
}

// TestConcurrentSwitchesMakeOneJob: twenty switch requests at once after
// one login create one switch job and one direct_deposit_switch.added
// event, queued once to each webhook.
func TestConcurrentSwitchesMakeOneJob(t *testing.T) {
	p := fractionalPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		rcv := newReceiver(t, always(200))
		f := newFixture(t, db, func(s *fixtureSetup) { s.caFile = rcv.caFile })
		f.createWebhook(rcv.srv.URL+"/a", `"direct_deposit_switch.added"`)
		f.createWebhook(rcv.srv.URL+"/b", `"direct_deposit_switch.added"`)
		tokenID, token := f.createToken(switchTokenBody(""))
		if status, out := f.linkAPI("POST", "login", token, `{"platform_id": "`+p.ID+`", "username": "user_good", "password": "pass_good"}`); status != 200 {
			t.Fatalf("login: %d %v", status, out)
		}
		const n = 20
		statuses := make([]int, n)
		codes := make([]any, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				var out map[string]any
				statuses[i], out = f.linkAPI("POST", "switch", token, `{"action": "full_switch"}`)
				codes[i] = linkErrorCode(out)
			})
		}
		wg.Wait()
		ok := 0
		for i := range n {
			switch {
			case statuses[i] == http.StatusOK:
				ok++
			case statuses[i] != http.StatusBadRequest || codes[i] != domain.CodeLinkTokenUsed:
				t.Errorf("request %d: %d %v, want 200 or 400 LINK_TOKEN_USED", i, statuses[i], codes[i])
			}
		}
		if ok != 1 {
			t.Fatalf("%d of %d concurrent switches succeeded, want exactly 1", ok, n)
		}
		f.waitJobs(tokenID, 1)
		jobs, err := storage.NewTransactor(f.db, nil).FindJobs(context.Background(), f.key.Scope(),
			domain.JobFilter{LinkTokenID: tokenID, JobTypes: []domain.JobType{domain.JobDirectDepositSwitch}, IncludeUnrun: true}, domain.PageRequest{Limit: 100})
		if err != nil || len(jobs.Items) != 1 {
			t.Fatalf("switch jobs %d (%v), want 1", len(jobs.Items), err)
		}
		waitFor(t, "both webhooks' deliveries", func() bool { return len(rcv.deliveries()) >= 2 })
		if got := f.countEvents("direct_deposit_switch.added"); got != 1 {
			t.Errorf("%d direct_deposit_switch.added events, want 1", got)
		}
		var queued int
		if err := f.db.Get(&queued, `SELECT COUNT(*) FROM river_job WHERE kind = 'webhook_delivery'`); err != nil {
			t.Fatal(err)
		}
		if queued != 2 {
			t.Errorf("%d deliveries queued, want one per webhook (2)", queued)
		}
	})
}

// TestJobOutcomeWrittenOnce: several runs of one job at once (a rescued
// job run again, say) publish its event once.
func TestJobOutcomeWrittenOnce(t *testing.T) {
	p := fractionalPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		tokenID, token := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "u", "required_jobs": ["identity"]}`)
		f.linkSession(sessionBody(token, p.ID, sandbox.UserGood, "")).data(t)
		jobs, err := storage.NewTransactor(f.db, nil).FindJobs(context.Background(), f.key.Scope(),
			domain.JobFilter{LinkTokenID: tokenID, IncludeUnrun: true}, domain.PageRequest{Limit: 10})
		if err != nil || len(jobs.Items) != 1 {
			t.Fatalf("jobs %v %v", jobs.Items, err)
		}
		run := domain.JobRun{Scope: f.key.Scope(), JobID: jobs.Items[0].ID}
		var wg sync.WaitGroup
		for range 5 {
			wg.Go(func() {
				if _, err := f.jobs.Run(context.Background(), run); err != nil {
					t.Errorf("run: %v", err)
				}
			})
		}
		wg.Wait()
		f.waitJobs(tokenID, 1)
		if got := f.countEvents("identity.added"); got != 1 {
			t.Errorf("%d identity.added events from concurrent runs, want 1", got)
		}
	})
}

// TestConcurrentWebhookCreatesKeepTheQuota: with six webhooks registered,
// ten creates at once leave exactly ten.
func TestConcurrentWebhookCreatesKeepTheQuota(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		for i := range 6 {
			f.createWebhook(fmt.Sprintf("https://example.com/%d", i), `"account.added"`)
		}
		statuses := make([]int, 10)
		var wg sync.WaitGroup
		for i := range 10 {
			wg.Go(func() {
				statuses[i] = f.post("/v1/webhooks", fmt.Sprintf(`{"url": "https://example.com/c%d", "version": "2025-07-08", "enabled_events": ["account.added"]}`, i)).status
			})
		}
		wg.Wait()
		created := 0
		for _, s := range statuses {
			if s == 200 {
				created++
			}
		}
		total := len(f.allPages("/v1/webhooks?limit=100"))
		if created != 4 || total != domain.MaxWebhooksPerKey {
			t.Errorf("%d concurrent creates succeeded and %d webhooks exist, want 4 and %d (statuses %v)", created, total, domain.MaxWebhooksPerKey, statuses)
		}
	})
}

// TestWebhookPayloadsFollowTheWebhookVersion: a webhook of version
// 2023-07-18 receives params.amount on job events exactly as GET /jobs
// shows it at that version; a 2025-07-08 webhook receives today's shape.
func TestWebhookPayloadsFollowTheWebhookVersion(t *testing.T) {
	p := fractionalPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		rcv := newReceiver(t, always(200))
		f := newFixture(t, db, func(s *fixtureSetup) { s.caFile = rcv.caFile })
		f.post("/v1/webhooks", `{"url": "`+rcv.srv.URL+`/old", "version": "2023-07-18", "enabled_events": ["direct_deposit_switch.added"]}`).data(t)
		f.createWebhook(rcv.srv.URL+"/new", `"direct_deposit_switch.added"`)
		tokenID, token := f.createToken(switchTokenBody(""))
		f.linkSession(sessionBody(token, p.ID, sandbox.UserGood, `, "allocation": {"action": "partial_switch", "type": "amount", "value": 19.99}`)).data(t)
		f.waitJobs(tokenID, 1)
		waitFor(t, "both deliveries", func() bool { return len(rcv.deliveries()) == 2 })
		payloads := map[string]map[string]any{}
		for _, d := range rcv.deliveries() {
			var body struct {
				Payload map[string]any `json:"payload"`
			}
			if err := json.Unmarshal(d.body, &body); err != nil {
				t.Fatal(err)
			}
			payloads[d.header.Get("service-version")] = body.Payload["params"].(map[string]any)
		}
		oldJob := f.get("/v1/jobs?job_types=direct_deposit_switch&link_token_id="+tokenID, "Service-Version", "2023-07-18").list(t)[0]
		want := oldJob["params"].(map[string]any)
		if got := payloads["2023-07-18"]; fmt.Sprint(got) != fmt.Sprint(want) || got["amount"] != float64(1999) {
			t.Errorf("2023-07-18 webhook params %v, want GET /jobs at 2023-07-18: %v (amount 1999)", got, want)
		}
		if got := payloads["2025-07-08"]; got["amount"] != nil || got["allocation"].(map[string]any)["value"] != 19.99 {
			t.Errorf("2025-07-08 webhook params %v, want no amount and value 19.99", got)
		}
	})
}

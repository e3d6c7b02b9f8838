package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"payline/domain"
	"payline/internal/testwait"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestRelayEndToEnd: a token created on the relay opens the upstream's
// Link (session.upstream), the upstream's sandbox helper completes it,
// and within 30 s the relay holds the account with the upstream's
// platform id, every job with the upstream's id and outcome, every
// paystub to the cent, identity and employment, a VOIE report, the
// account through GraphQL, and its own account.added and paystubs.added
// events. Replaying an upstream delivery, or a forged one, changes
// nothing.
func TestRelayEndToEnd(t *testing.T) {
	// A relay pair mostly waits (the upstream's rate limit, deliveries):
	// it runs beside the other relay tests once the sequential ones are done.
	t.Parallel()
	eachDatabase(t, func(t *testing.T, dbURL string) {
		var logs bytes.Buffer
		p := startRelayPair(t, dbURL, &logs)
		defer func() {
			if t.Failed() {
				t.Log(logs.String())
			}
		}()
		// The platform, as the relay's synced directory has it.
		status, search := p.call(t, "GET", p.relayBase+"/v1/search?q=summit+payroll&response_types=platform", p.relaySecret, "")
		if status != 200 || len(search["data"].([]any)) == 0 {
			t.Fatalf("search on the relay: %d %v", status, search)
		}
		platformID := search["data"].([]any)[0].(map[string]any)["id"].(string)
		p.checkDirectory(t)
		jobs := []string{"direct_deposit_switch", "paystubs", "identity", "employment", "income", "tax_forms"}
		status, tok := p.call(t, "POST", p.relayBase+"/v1/link_tokens", p.relaySecret,
			`{"org_name": "Acme Lending", "end_user_id": "alice", "required_jobs": ["`+strings.Join(jobs, `", "`)+`"],
			  "allocation": {"targets": [{"name": "Main", "type": "checking", "account_number": "123456789", "routing_number": "011000015"}]}}`)
		if status != 200 {
			t.Fatalf("link token on the relay: %d %v", status, tok)
		}
		relayToken := tok["data"].(map[string]any)["token"].(string)
		deliveries := p.listen(t, "account.added,paystubs.added")
		status, sess := p.call(t, "GET", p.relayBase+"/link/v1/api/session", "", "", "Authorization", "Bearer "+relayToken)
		if status != 200 {
			t.Fatalf("session on the relay: %d %v", status, sess)
		}
		upstreamSession, _ := sess["upstream"].(map[string]any)
		if upstreamSession == nil || upstreamSession["sdk_url"] != p.upstreamBase+"/link/v1/link.js" {
			t.Fatalf("the relay's session does not open the upstream's Link: %v", sess)
		}
		status, done := p.call(t, "POST", p.upstreamBase+"/v1/sandbox/link_sessions", p.upstreamSecret,
			fmt.Sprintf(`{"token": %q, "platform_id": %q, "username": "user_good", "password": "pass_good"}`, upstreamSession["link_token"], platformID))
		if status != 200 {
			t.Fatalf("the upstream's sandbox session: %d %v", status, done)
		}
		accountID := done["data"].(map[string]any)["account_id"].(string)

		// Within 30 s the relay has every job the upstream ran, final.
		started := time.Now()
		var relayJobs []any
		testwait.Every(100*time.Millisecond).Until(t, 30*time.Second, func() error {
			relayJobs = p.all(t, p.relayBase, p.relaySecret, "/v1/jobs?account_id="+accountID)
			if len(relayJobs) != len(jobs) {
				return fmt.Errorf("the relay has %d of %d jobs: %v", len(relayJobs), len(jobs), relayJobs)
			}
			return nil
		})
		t.Logf("the relay held every job %s after the upstream's session", time.Since(started).Round(time.Millisecond))
		upstreamJobs := p.all(t, p.upstreamBase, p.upstreamSecret, "/v1/jobs?account_id="+accountID)
		// Each job reads as the upstream's (outcome, time, params), but for
		// its link token: the relay's own, which the customer created.
		byID := func(list []any) map[string]any {
			out := map[string]any{}
			for _, j := range list {
				m := j.(map[string]any)
				delete(m, "link_token_id")
				out[m["id"].(string)] = m
			}
			return out
		}
		for _, j := range relayJobs {
			if id := at(j, "link_token_id"); id != tok["data"].(map[string]any)["id"] {
				t.Errorf("job %s on the relay names link token %v; want the relay's %v", at(j, "id"), id, tok["data"].(map[string]any)["id"])
			}
		}
		if got, want := byID(relayJobs), byID(upstreamJobs); !reflect.DeepEqual(got, want) {
			t.Errorf("jobs differ:\nrelay    %v\nupstream %v", got, want)
		}

		// The account, with the upstream's platform id and the customer's
		// own end user.
		status, acct := p.call(t, "GET", p.relayBase+"/v1/accounts/"+accountID, p.relaySecret, "")
		if status != 200 || acct["data"].(map[string]any)["platform_id"] != platformID || acct["data"].(map[string]any)["end_user_id"] != "alice" {
			t.Fatalf("account on the relay: %d %v", status, acct)
		}
		// Every paystub, to the cent, its id and times the upstream's.
		relayStubs := p.all(t, p.relayBase, p.relaySecret, "/v1/accounts/"+accountID+"/paystubs")
		upstreamStubs := p.all(t, p.upstreamBase, p.upstreamSecret, "/v1/accounts/"+accountID+"/paystubs")
		if len(relayStubs) == 0 || len(relayStubs) != len(upstreamStubs) {
			t.Fatalf("%d paystubs on the relay, %d upstream", len(relayStubs), len(upstreamStubs))
		}
		for i := range relayStubs {
			if got, want := relayStubs[i], upstreamStubs[i]; !reflect.DeepEqual(got, want) {
				t.Fatalf("paystub %d differs:\nrelay    %v\nupstream %v", i, got, want)
			}
		}
		// Identity, employment, income and allocations, equal to the
		// upstream's, their ids and times (and when the data was last
		// read) included: the relay answers as its upstream does (issue 47).
		for _, product := range []string{"identity", "employment", "income", "direct_deposit_allocations"} {
			rs, r := p.call(t, "GET", p.relayBase+"/v1/accounts/"+accountID+"/"+product, p.relaySecret, "")
			us, u := p.call(t, "GET", p.upstreamBase+"/v1/accounts/"+accountID+"/"+product, p.upstreamSecret, "")
			if rs != 200 || us != 200 {
				t.Errorf("%s: %d on the relay, %d upstream", product, rs, us)
				continue
			}
			if rd, ud := r["data"], u["data"]; !reflect.DeepEqual(rd, ud) {
				t.Errorf("%s differs:\nrelay    %v\nupstream %v", product, rd, ud)
			}
			if rm, um := at(r, "meta", "refreshed_at"), at(u, "meta", "refreshed_at"); rm != um {
				t.Errorf("%s refreshed at %v on the relay, %v upstream", product, rm, um)
			}
		}
		// A VOIE report of the relayed data.
		status, voie := p.call(t, "GET", p.relayBase+"/v1/end_users/alice/verification_reports/voie", p.relaySecret, "")
		if status != 200 {
			t.Errorf("VOIE on the relay: %d %v", status, voie)
		}
		// The W-2s, each document the upstream's own file.
		_, upAcct := p.call(t, "GET", p.upstreamBase+"/v1/accounts/"+accountID, p.upstreamSecret, "")
		p.checkDocuments(t, dbURL, "alice", at(upAcct, "data", "end_user_id").(string))
		// The account through GraphQL.
		status, gql := p.call(t, "POST", p.relayBase+"/graphql", p.relaySecret,
			`{"query": "{ endUser(id: \"alice\") { accounts { edges { node { id platform { id } } } } } }"}`)
		edges, _ := at(gql, "data", "endUser", "accounts", "edges").([]any)
		if status != 200 || len(edges) != 1 || at(edges[0], "node", "id") != accountID {
			t.Errorf("GraphQL on the relay: %d %v", status, gql)
		}
		// The relay's own events.
		db, err := storage.Open(context.Background(), dbURL)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var names []string
		if err := db.SelectContext(context.Background(), &names, `SELECT name FROM events ORDER BY name`); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"account.added", "paystubs.added"} {
			if n := strings.Count(strings.Join(names, " ")+" ", want+" "); n != 1 {
				t.Errorf("the relay emitted %s %d times: %v", want, n, names)
			}
		}
		// And delivered them to its customer's webhook (a listener here),
		// signed with the customer's own secret.
		got := map[string]bool{}
		for len(got) < 2 {
			select {
			case d := <-deliveries:
				ts, _ := strconv.ParseInt(d.Headers["x-timestamp"], 10, 64)
				if d.Headers["x-service-signature"] != domain.SignWebhook(p.relaySecret, ts, []byte(d.Body)) ||
					!strings.Contains(d.Body, accountID) {
					t.Errorf("delivery of %s: headers %v, body %s", d.Event, d.Headers, d.Body)
				}
				got[d.Event] = true
			case <-time.After(30 * time.Second):
				t.Fatalf("the relay delivered only %v", got)
			}
		}

		// A forged delivery is refused; a replay of a real one changes
		// nothing.
		body := []byte(`{"event": "account.added", "event_id": "` + domain.NewID() + `", "payload": {"account_id": "` + accountID + `"}}`)
		ts := time.Now().Unix()
		forged := domain.SignWebhook("not the upstream secret", ts, body)
		status, refused := p.call(t, "POST", p.relayBase+"/v1/upstream/webhooks", "", string(body),
			"x-service-signature", forged, "x-timestamp", fmt.Sprint(ts), "Content-Type", "application/json")
		if status != 401 {
			t.Errorf("a forged delivery: %d %v", status, refused)
		}
		genuine := domain.SignWebhook(p.upstreamSecret, ts, body)
		for range 2 {
			status, ok := p.call(t, "POST", p.relayBase+"/v1/upstream/webhooks", "", string(body),
				"x-service-signature", genuine, "x-timestamp", fmt.Sprint(ts), "Content-Type", "application/json")
			if status != 200 {
				t.Fatalf("a genuine delivery: %d %v", status, ok)
			}
		}
		var after []string
		if err := db.SelectContext(context.Background(), &after, `SELECT name FROM events ORDER BY name`); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(after, names) {
			t.Errorf("replayed deliveries changed the relay's events: %v, then %v", names, after)
		}
		if accounts := p.all(t, p.relayBase, p.relaySecret, "/v1/accounts"); len(accounts) != 1 {
			t.Errorf("the relay has %d accounts after replays", len(accounts))
		}

		// Actions on the relay take effect at the upstream.
		if status, body := p.call(t, "PUT", p.relayBase+"/v1/end_users/alice/bill_navigator/status", p.relaySecret,
			`{"action": "deactivate"}`); status != 200 && status != 204 {
			t.Errorf("bill navigator through the relay: %d %v", status, body)
		}
		for _, step := range []struct{ action, field, want string }{
			{"disable_monitoring", "monitoring_status", "customer_disabled"},
			{"disconnect", "connected", "false"},
		} {
			if status, body := p.call(t, "POST", p.relayBase+"/v1/accounts/"+accountID+"/"+step.action, p.relaySecret, ""); status != 200 && status != 204 {
				t.Fatalf("%s on the relay: %d %v", step.action, status, body)
			}
			_, up := p.call(t, "GET", p.upstreamBase+"/v1/accounts/"+accountID, p.upstreamSecret, "")
			_, here := p.call(t, "GET", p.relayBase+"/v1/accounts/"+accountID, p.relaySecret, "")
			if got := fmt.Sprint(at(up, "data", step.field)); got != step.want {
				t.Errorf("after %s on the relay the upstream's %s is %s", step.action, step.field, got)
			}
			if got := fmt.Sprint(at(here, "data", step.field)); got != step.want {
				t.Errorf("after %s the relay's %s is %s", step.action, step.field, got)
			}
		}
	})
}

// TestRelayFaults: with the upstream down, new tokens answer 503
// UPSTREAM_UNAVAILABLE (never a hang) while reads of relayed data still
// answer, and tokens work again once it is back; a session completed
// upstream while the relay is down appears on the relay within 60 s of
// its restart (its reconciliation at start, or the upstream's retried
// delivery, whichever comes first).
func TestRelayFaults(t *testing.T) {
	// Mostly waiting (the upstream away for 30 s): run beside the other
	// waiting relay test once the package's sequential tests are done.
	t.Parallel()
	eachDatabase(t, func(t *testing.T, dbURL string) {
		logs := &lockedBuffer{}
		p := startRelayPair(t, dbURL, logs)
		defer func() {
			if t.Failed() {
				t.Log(logs.String())
			}
		}()
		platform := p.platformID(t)
		first := p.completeUpstream(t, p.relayToken(t, "bob", "paystubs", "identity"), platform)
		p.waitJobs(t, first, 2, 30*time.Second)

		// Ten concurrent copies of one signed delivery, racing the
		// upstream's own: no 5XX, one account, one account.added.
		racing := p.completeUpstream(t, p.relayToken(t, "dora", "paystubs"), platform)
		_, acct := p.call(t, "GET", p.upstreamBase+"/v1/accounts/"+racing, p.upstreamSecret, "")
		body, _ := json.Marshal(map[string]any{"event": "account.added", "event_id": domain.NewID(), "payload": map[string]any{
			"account_id": racing, "link_token_id": at(acct, "data", "link_token_id"), "platform_id": at(acct, "data", "platform_id"),
			"end_user_id": at(acct, "data", "end_user_id"), "created_at": at(acct, "data", "created_at"), "connected": true}})
		statuses := make(chan int, 10)
		var wg sync.WaitGroup
		for range 10 {
			wg.Go(func() { statuses <- p.deliver(t, body) })
		}
		wg.Wait()
		close(statuses)
		for status := range statuses {
			if status != 200 {
				t.Errorf("a concurrent copy of a signed delivery answered %d", status)
			}
		}
		p.waitJobs(t, racing, 1, 30*time.Second)
		if accounts := p.all(t, p.relayBase, p.relaySecret, "/v1/end_users/dora/accounts"); len(accounts) != 1 {
			t.Errorf("the relay holds %d accounts for one upstream account", len(accounts))
		}

		// A signed delivery for an account the upstream does not have.
		unknown, _ := json.Marshal(map[string]any{"event": "account.added", "event_id": domain.NewID(),
			"payload": map[string]any{"account_id": domain.NewID()}})
		if status := p.deliver(t, unknown); status != 200 {
			t.Errorf("a delivery for an account the upstream does not have answered %d; want 200", status)
		}

		// The upstream away for 30 s: new tokens fail at once, reads answer,
		// and tokens work again within seconds of its return.
		p.stopUpstream()
		away := time.Now()
		asked := time.Now()
		status, refused := p.call(t, "POST", p.relayBase+"/v1/link_tokens", p.relaySecret,
			`{"org_name": "Acme Lending", "end_user_id": "bob", "required_jobs": ["paystubs"]}`)
		if status != 503 || at(refused, "error", "code") != domain.CodeUpstreamUnavailable {
			t.Errorf("a token while the upstream is away: %d %v", status, refused)
		}
		if took := time.Since(asked); took > 2*time.Second {
			t.Errorf("a token while the upstream is away took %s to be refused; want at once", took)
		}
		for time.Since(away) < 30*time.Second {
			for _, path := range []string{"/v1/accounts/" + first, "/v1/accounts/" + first + "/paystubs", "/v1/accounts/" + first + "/identity",
				"/v1/end_users/bob/verification_reports/voie"} {
				if status, body := p.call(t, "GET", p.relayBase+path, p.relaySecret, ""); status != 200 {
					t.Fatalf("GET %s while the upstream is away: %d %v", path, status, body)
				}
			}
			time.Sleep(time.Second) // pacing, not waiting: the upstream stays away for 30 s and reads are checked each second
		}
		p.startUpstream(t)
		back := time.Now()
		testwait.Every(100*time.Millisecond).Until(t, 5*time.Second, func() error {
			status, _ := p.call(t, "POST", p.relayBase+"/v1/link_tokens", p.relaySecret,
				`{"org_name": "Acme Lending", "end_user_id": "carol", "required_jobs": ["paystubs"]}`)
			if status != 200 {
				return fmt.Errorf("tokens still refused (%d) after the upstream came back", status)
			}
			return nil
		})
		t.Logf("tokens worked again %s after the upstream came back", time.Since(back).Round(time.Millisecond))

		// The relay stopped while three sessions complete upstream: all
		// three within 30 s of its restart.
		tokens := []string{p.relayToken(t, "carol", "paystubs", "identity"), p.relayToken(t, "erin", "paystubs", "identity"),
			p.relayToken(t, "frank", "paystubs", "identity")}
		p.stopRelay()
		var missed []string
		for _, tok := range tokens {
			missed = append(missed, p.completeUpstream(t, tok, platform))
		}
		p.startRelay(t)
		restarted := time.Now()
		for _, account := range missed {
			p.waitJobs(t, account, 2, 30*time.Second-time.Since(restarted))
		}
		t.Logf("the three accounts completed while the relay was down arrived %s after its restart", time.Since(restarted).Round(time.Millisecond))
		if errs := errorLines(logs.String(), "relay"); len(errs) > 0 {
			t.Errorf("the relay logged errors:\n%s", strings.Join(errs, "\n"))
		}
	})
}

// TestFailedStartLeavesNoConnection: a start that fails after the job
// queue made its PostgreSQL pool (here: the upstream does not answer)
// closes it, and every connection it opened; the pool once leaked, with
// its health-check goroutine.
func TestFailedStartLeavesNoConnection(t *testing.T) {
	pools := func() int {
		buf := make([]byte, 1<<22)
		return strings.Count(string(buf[:runtime.Stack(buf, true)]), "pgxpool.(*Pool).backgroundHealthCheck")
	}
	before := pools()
	url := storagetest.NewURL(t, storage.Postgres, storagetest.Empty)
	m := &Main{Config: ServeConfig{Addr: "127.0.0.1:0", DatabaseURL: url, Mode: domain.ModeDevelopment, PublicURL: "https://relay.test",
		UpstreamURL: "http://" + freeAddr(t), TrustProxy: true}, Stdout: io.Discard, Logger: slog.New(slog.DiscardHandler),
		Getenv: env("PAYLINE_MASTER_KEY", testMasterKey, "PAYLINE_UPSTREAM_SECRET", "s")}
	err := m.Start(context.Background())
	if err == nil {
		m.Close(context.Background())
		t.Fatal("a relay whose upstream does not answer started")
	}
	if !strings.Contains(err.Error(), "the upstream at") {
		t.Fatalf("the start failed before the queue, not at the upstream: %v", err)
	}
	admin, err := storage.Open(context.Background(), storagetest.PostgresServer(t))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	name := url[strings.LastIndex(url, "/")+1:]
	if i := strings.Index(name, "?"); i >= 0 {
		name = name[:i]
	}
	testwait.Until(t, 10*time.Second, func() error {
		var n int
		if err := admin.GetContext(context.Background(), &n, `SELECT count(*) FROM pg_stat_activity WHERE datname = $1`, name); err != nil {
			t.Fatal(err)
		}
		if n != 0 || pools() > before {
			return fmt.Errorf("after the failed start %d connections to %s are open and %d pools run (%d before)", n, name, pools(), before)
		}
		return nil
	})
}

// TestRelayBills: a bill switch and a bill cancellation completed in the
// upstream's Link reach the relay as the customer's own jobs, with the
// upstream's outcome and the params it reports (the payment type and the
// card's last four digits, never the card), and the bill navigator status
// set on the relay takes effect at the upstream for the namespaced end user.
func TestRelayBills(t *testing.T) {
	// A relay pair mostly waits (the upstream's rate limit, deliveries):
	// it runs beside the other relay tests once the sequential ones are done.
	t.Parallel()
	eachDatabase(t, func(t *testing.T, dbURL string) {
		var logs bytes.Buffer
		p := startRelayPair(t, dbURL, &logs)
		defer func() {
			if t.Failed() {
				t.Log(logs.String())
			}
		}()
		status, search := p.call(t, "GET", p.relayBase+"/v1/search?q=a&response_types=platform&platform_type=merchant&supported_jobs=bill_switch,bill_cancellation&limit=1", p.relaySecret, "")
		if status != 200 || len(search["data"].([]any)) == 0 {
			t.Fatalf("a merchant on the relay: %d %v", status, search)
		}
		merchant := at(search["data"].([]any)[0], "id").(string)
		bills := map[string]string{
			"bill_switch":       `{"job": "bill_switch", "card": {"number": "4242424242424242", "name": "Erin Diaz", "exp_month": 4, "exp_year": 2031}}`,
			"bill_cancellation": `{"job": "bill_cancellation"}`,
		}
		for job, bill := range bills {
			upToken := p.relayToken(t, "erin", job)
			status, done := p.call(t, "POST", p.upstreamBase+"/v1/sandbox/link_sessions", p.upstreamSecret,
				fmt.Sprintf(`{"token": %q, "platform_id": %q, "username": "user_good", "password": "pass_good", "bill": %s}`, upToken, merchant, bill))
			if status != 200 {
				t.Fatalf("%s at the upstream: %d %v", job, status, done)
			}
			account := at(done, "data", "account_id").(string)
			deadline := time.Now().Add(30 * time.Second)
			var want []any
			testwait.Every(100*time.Millisecond).Until(t, 30*time.Second, func() error {
				want = p.all(t, p.upstreamBase, p.upstreamSecret, "/v1/jobs?account_id="+account)
				if len(want) != 1 || at(want[0], "outcome") == "pending" {
					return fmt.Errorf("%s: the upstream's jobs are %v", job, want)
				}
				return nil
			})
			if at(want[0], "name") != job || at(want[0], "outcome") != "success" {
				t.Fatalf("%s: the upstream's jobs: %v", job, want)
			}
			var got []any
			testwait.Every(100*time.Millisecond).Until(t, time.Until(deadline), func() error { // the same 30 s as the upstream's jobs
				got = p.all(t, p.relayBase, p.relaySecret, "/v1/jobs?account_id="+account)
				if len(got) != 1 || at(got[0], "outcome") != "success" {
					return fmt.Errorf("%s: the relay holds %v", job, got)
				}
				return nil
			})
			// The job's link token is the relay's own (the customer's).
			got[0].(map[string]any)["link_token_id"] = at(want[0], "link_token_id")
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s differs:\nrelay    %v\nupstream %v", job, got, want)
			}
			if strings.Contains(fmt.Sprint(got), "4242424242424242") {
				t.Errorf("%s: the relay shows the card number: %v", job, got)
			}
		}
		if job := at(p.all(t, p.relayBase, p.relaySecret, "/v1/jobs?job_types=bill_switch")[0], "params"); at(job, "type") != "card" {
			t.Errorf("the relayed bill switch's params: %v; want its card type", job)
		}
	})
}

// TestServeRefusesPlainUpstream: an http upstream off loopback (here this
// machine's own non-loopback address, so a request would arrive) stops
// serve at start in one line saying what to fix, before any request
// carries the secret there in the clear.
func TestServeRefusesPlainUpstream(t *testing.T) {
	ip := nonLoopbackIP(t)
	var reached atomic.Int32
	up := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { reached.Add(1) }))
	ln, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		t.Skipf("cannot listen on %s: %v", ip, err)
	}
	up.Listener.Close()
	up.Listener = ln
	up.Start()
	defer up.Close()
	m := &Main{Config: ServeConfig{Addr: "127.0.0.1:0", DatabaseURL: "sqlite:" + t.TempDir() + "/p.db", Mode: domain.ModeProduction,
		PublicURL: "https://relay.test", UpstreamURL: up.URL, TrustProxy: true}, Stdout: io.Discard, Logger: slog.New(slog.DiscardHandler),
		Getenv: env("PAYLINE_MASTER_KEY", testMasterKey, "PAYLINE_UPSTREAM_SECRET", "s3cret")}
	err = m.Start(context.Background())
	if err == nil {
		m.Close(context.Background())
	}
	if err == nil || !strings.Contains(err.Error(), "--upstream-url") || !strings.Contains(err.Error(), "must be https") ||
		strings.Contains(err.Error(), "\n") {
		t.Errorf("serve with --upstream-url %s: %v; want one line saying it must be https", up.URL, err)
	}
	if n := reached.Load(); n != 0 {
		t.Errorf("the plain-http upstream received %d requests", n)
	}
}

// nonLoopbackIP is an IPv4 address of this machine that is not loopback.
func nonLoopbackIP(t *testing.T) string {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Skip(err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			return n.IP.String()
		}
	}
	t.Skip("this machine has no non-loopback IPv4 address")
	return ""
}

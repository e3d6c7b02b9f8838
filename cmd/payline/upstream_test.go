package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/internal/testwait"
	"payline/rest"
	"payline/storage"
	"payline/storage/storagetest"
)

// relayPair is an upstream Payline in sandbox mode and a relaying Payline
// in development mode in front of it, serving TLS with a certificate the
// upstream trusts for its webhook deliveries. Either can be stopped and
// started again on the same address and database.
type relayPair struct {
	upstream, relay             *Main
	upstreamBase, relayBase     string
	upstreamSecret, relaySecret string
	relayDB                     string
	client                      *http.Client
	upCfg, relayCfg             ServeConfig
	logs                        io.Writer
	// relayStart is how long the relay's last start took.
	relayStart time.Duration
	// lastUpstreamToken is the upstream token of the last session a test
	// opened.
	lastUpstreamToken string
}

func (p *relayPair) startUpstream(t *testing.T) {
	t.Helper()
	up := &Main{Config: p.upCfg, Stdout: io.Discard, Logger: slog.New(slog.NewTextHandler(p.logs, nil)).With("instance", "upstream"),
		Getenv: env("PAYLINE_MASTER_KEY", testMasterKey)}
	if err := up.Start(context.Background()); err != nil {
		t.Fatalf("start the upstream: %v", err)
	}
	p.upstream = up
	t.Cleanup(func() { p.stopUpstream() })
}

func (p *relayPair) stopUpstream() {
	if p.upstream != nil {
		p.upstream.Close(context.Background())
		p.upstream = nil
	}
}

func (p *relayPair) startRelay(t *testing.T) {
	t.Helper()
	relay := &Main{Config: p.relayCfg, Stdout: io.Discard, Logger: slog.New(slog.NewTextHandler(p.logs, nil)).With("instance", "relay"),
		Getenv: env("PAYLINE_MASTER_KEY", testMasterKey, "PAYLINE_UPSTREAM_SECRET", p.upstreamSecret)}
	start := time.Now()
	if err := relay.Start(context.Background()); err != nil {
		t.Fatalf("start the relay: %v", err)
	}
	p.relayStart = time.Since(start)
	p.relay = relay
	t.Cleanup(func() { p.stopRelay() })
}

func (p *relayPair) stopRelay() {
	if p.relay != nil {
		p.relay.Close(context.Background())
		p.relay = nil
	}
}

// createKey makes a customer and its key in a database through the CLI.
func createKey(t *testing.T, url, customer string, mode domain.Mode) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"keys", "create", "--customer", customer, "--mode", string(mode), "--json", "--database-url", url},
		&out, &errOut, env("PAYLINE_MASTER_KEY", testMasterKey)); err != nil {
		t.Fatalf("keys create: %v %s", err, errOut.String())
	}
	var k map[string]string
	if err := json.Unmarshal(out.Bytes(), &k); err != nil {
		t.Fatal(err)
	}
	return k["secret"]
}

func startRelayPair(t *testing.T, relayDB string, logs io.Writer) *relayPair {
	return startRelayPairTLS(t, relayDB, logs, false)
}

// startRelayPairTLS starts the pair; with upstreamTLS the upstream serves
// HTTPS too (a browser on the relay's HTTPS page loads its Link SDK),
// with the same certificate, which the relay trusts by --upstream-ca-file.
func startRelayPairTLS(t *testing.T, relayDB string, logs io.Writer, upstreamTLS bool) *relayPair {
	t.Helper()
	return startRelayPairWith(t, relayDB, logs, upstreamTLS, nil)
}

// startRelayPairVia starts the pair with the relay reaching the upstream
// through the URL via returns for the upstream's own.
func startRelayPairVia(t *testing.T, relayDB string, logs io.Writer, via func(upstreamBase string) string) *relayPair {
	t.Helper()
	return startRelayPairWith(t, relayDB, logs, false, via)
}

func startRelayPairWith(t *testing.T, relayDB string, logs io.Writer, upstreamTLS bool, via func(string) string) *relayPair {
	t.Helper()
	return startRelayPairOpts(t, relayDB, logs, pairOptions{upstreamTLS: upstreamTLS, via: via})
}

// pairOptions vary a relay pair: the upstream serving TLS, the relay
// reaching it through via, an upstream directory of employers (the
// sandbox's default when zero), an upstream /metrics, and a relay that
// starts without waiting for its directory sync.
type pairOptions struct {
	upstreamTLS     bool
	via             func(string) string
	employers       int
	upstreamMetrics bool
	noWait          bool
}

func startRelayPairOpts(t *testing.T, relayDB string, logs io.Writer, o pairOptions) *relayPair {
	t.Helper()
	upstreamTLS, via := o.upstreamTLS, o.via
	certFile, keyFile, pool := selfSigned(t)
	caFile := caFileOf(t, certFile)
	upURL := "sqlite:" + filepath.Join(t.TempDir(), "upstream.db")
	upAddr := freeAddr(t)
	p := &relayPair{relayDB: relayDB, logs: logs,
		// The upstream at its defaults: 10 requests a second per key, as
		// every vendor enforces a limit of its own.
		upCfg:  ServeConfig{Addr: upAddr, DatabaseURL: upURL, Mode: domain.ModeSandbox, WebhookCAFile: caFile},
		client: &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}}
	p.upstreamBase = "http://" + upAddr
	if o.employers > 0 {
		if err := run(context.Background(), []string{"directory", "seed", "--employers", strconv.Itoa(o.employers), "--database-url", upURL},
			io.Discard, io.Discard, env()); err != nil {
			t.Fatalf("seed the upstream's directory: %v", err)
		}
	}
	if o.upstreamMetrics {
		p.upCfg.MetricsAddr = freeAddr(t)
	}
	if upstreamTLS {
		p.upCfg.TLSCert, p.upCfg.TLSKey, p.upstreamBase = certFile, keyFile, "https://"+upAddr
	}
	p.startUpstream(t)
	p.upstreamSecret = createKey(t, upURL, "relay operator", domain.ModeSandbox)
	p.relaySecret = createKey(t, relayDB, "acme lending", domain.ModeDevelopment)
	addr := freeAddr(t)
	upstreamURL := p.upstreamBase
	if via != nil {
		upstreamURL = via(p.upstreamBase)
	}
	// The relay at its own defaults too: 10 requests a second for the
	// integrator (the test's client waits out a 429 as a client should).
	p.relayCfg = ServeConfig{Addr: addr, DatabaseURL: relayDB, Mode: domain.ModeDevelopment, PublicURL: "https://" + addr,
		TLSCert: certFile, TLSKey: keyFile, UpstreamURL: upstreamURL, UpstreamCAFile: caFile, ReconcileInterval: time.Hour}
	p.relayBase = "https://" + addr
	p.startRelay(t)
	if !o.noWait {
		p.waitDirectory(t)
	}
	return p
}

// caFileOf writes a self-signed certificate as the CA bundle the other
// side trusts it by (--upstream-ca-file, --webhook-ca-file).
func caFileOf(t *testing.T, certFile string) string {
	t.Helper()
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	pemBytes, err := os.ReadFile(certFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(caFile, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	return caFile
}

// waitDirectory waits for the relay's first directory sync, which runs in
// the background once it serves, to complete (its /readyz says so).
func (p *relayPair) waitDirectory(t *testing.T) {
	t.Helper()
	testwait.Every(100*time.Millisecond).Until(t, 2*time.Minute, func() error {
		status, ready := p.call(t, "GET", p.relayBase+"/readyz", "", "")
		checks, _ := ready["checks"].(map[string]any)
		if st, _ := checks["upstream_directory"].(string); status != 200 || !strings.HasPrefix(st, "synced") {
			return fmt.Errorf("the relay's directory did not sync: %d %v", status, ready)
		}
		return nil
	})
}

// call sends a request to one of the pair and decodes the answer.
func (p *relayPair) call(t *testing.T, method, url, secret, body string, header ...string) (int, map[string]any) {
	t.Helper()
	h := http.Header{}
	for i := 0; i+1 < len(header); i += 2 {
		h.Set(header[i], header[i+1])
	}
	// The upstream's limit is shared with the relay (one key): a 429 is
	// waited out as a well-behaved client does.
	for attempt := 0; ; attempt++ {
		status, out, header, err := apiDo(p.client, method, url, secret, body, h)
		if err != nil {
			t.Fatalf("%s %s: %v", method, url, err)
		}
		if status != http.StatusTooManyRequests || attempt == 10 {
			return status, out
		}
		wait, _ := strconv.Atoi(header.Get("Retry-After"))
		time.Sleep(time.Duration(max(wait, 1)) * time.Second) // the server's Retry-After
	}
}

// all reads every page of a list.
func (p *relayPair) all(t *testing.T, base, secret, path string) []any {
	t.Helper()
	var items []any
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	cursor := ""
	for {
		url := base + path + sep + "limit=100"
		if cursor != "" {
			url += "&cursor=" + cursor
		}
		status, page := p.call(t, "GET", url, secret, "")
		if status != 200 {
			t.Fatalf("GET %s: %d %v", path, status, page)
		}
		items = append(items, page["data"].([]any)...)
		next, _ := page["meta"].(map[string]any)["next_cursor"].(string)
		if next == "" {
			return items
		}
		cursor = next
	}
}

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
		// Every paystub, to the cent.
		strip := func(v any) any {
			m := v.(map[string]any)
			for _, k := range []string{"created_at", "updated_at"} {
				delete(m, k)
			}
			return m
		}
		relayStubs := p.all(t, p.relayBase, p.relaySecret, "/v1/accounts/"+accountID+"/paystubs")
		upstreamStubs := p.all(t, p.upstreamBase, p.upstreamSecret, "/v1/accounts/"+accountID+"/paystubs")
		if len(relayStubs) == 0 || len(relayStubs) != len(upstreamStubs) {
			t.Fatalf("%d paystubs on the relay, %d upstream", len(relayStubs), len(upstreamStubs))
		}
		for i := range relayStubs {
			if got, want := strip(relayStubs[i]), strip(upstreamStubs[i]); !reflect.DeepEqual(got, want) {
				t.Fatalf("paystub %d differs:\nrelay    %v\nupstream %v", i, got, want)
			}
		}
		// Identity and employment, equal.
		for _, product := range []string{"identity", "employment", "income"} {
			_, r := p.call(t, "GET", p.relayBase+"/v1/accounts/"+accountID+"/"+product, p.relaySecret, "")
			_, u := p.call(t, "GET", p.upstreamBase+"/v1/accounts/"+accountID+"/"+product, p.upstreamSecret, "")
			rd, ud := r["data"].(map[string]any), u["data"].(map[string]any)
			for _, k := range []string{"id", "created_at", "updated_at"} {
				delete(rd, k)
				delete(ud, k)
			}
			if !reflect.DeepEqual(rd, ud) {
				t.Errorf("%s differs:\nrelay    %v\nupstream %v", product, rd, ud)
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

// at walks decoded JSON by keys.
// checkDocuments: every W-2 document of the end user on the relay is the
// upstream's, byte for byte, and its parsed data too; the relay stored
// each file when it read the tax forms (it does not render its own).
func (p *relayPair) checkDocuments(t *testing.T, dbURL, endUser, upstreamEndUser string) {
	t.Helper()
	relayed := p.all(t, p.relayBase, p.relaySecret, "/v1/end_users/"+endUser+"/documents")
	upstream := p.all(t, p.upstreamBase, p.upstreamSecret, "/v1/end_users/"+upstreamEndUser+"/documents")
	if len(relayed) == 0 || len(relayed) != len(upstream) {
		t.Fatalf("%d documents on the relay, %d upstream", len(relayed), len(upstream))
	}
	db, err := storage.Open(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, doc := range relayed {
		var n int
		if err := db.GetContext(context.Background(), &n, db.Rebind(`SELECT count(*) FROM files WHERE id = ?`), at(doc, "id")); err != nil || n != 1 {
			t.Errorf("document %v: %d files stored before any download, %v; want the upstream's, stored at ingest", at(doc, "id"), n, err)
		}
	}
	download := func(doc any) []byte {
		link, _ := at(doc, "document", "download_url").(string)
		resp, err := p.client.Get(link)
		if err != nil {
			t.Fatalf("download %s: %v", link, err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/pdf" {
			t.Fatalf("download %s: %d %s %v", link, resp.StatusCode, resp.Header.Get("Content-Type"), err)
		}
		return body
	}
	for i := range relayed {
		if at(relayed[i], "id") != at(upstream[i], "id") || !reflect.DeepEqual(at(relayed[i], "parsed_data"), at(upstream[i], "parsed_data")) {
			t.Errorf("document %d differs:\nrelay    %v\nupstream %v", i, relayed[i], upstream[i])
		}
		if r, u := download(relayed[i]), download(upstream[i]); !bytes.Equal(r, u) {
			t.Errorf("document %v: the relay serves %d bytes, not the upstream's %d", at(relayed[i], "id"), len(r), len(u))
		}
	}
}

// checkDirectory: the relay's directory is the upstream's. Every
// employer and platform reads the same on both (ids included); an EIN
// only the upstream knows is looked up there; search finds an upstream
// employer; GraphQL says null for the platform the upstream's directory
// does not name.
func (p *relayPair) checkDirectory(t *testing.T) {
	t.Helper()
	for _, path := range []string{"/v1/employers", "/v1/platforms", "/v1/platforms?include_esps=true"} {
		relayed, upstream := p.all(t, p.relayBase, p.relaySecret, path), p.all(t, p.upstreamBase, p.upstreamSecret, path)
		if len(relayed) == 0 || !reflect.DeepEqual(relayed, upstream) {
			t.Errorf("GET %s: the relay lists %d, the upstream %d, or they differ", path, len(relayed), len(upstream))
		}
	}
	_, employers := sandbox.Directory(sandbox.DefaultEmployerCount)
	e := employers[7]
	status, found := p.call(t, "GET", p.relayBase+"/v1/employers/lookup?ein="+e.EIN, p.relaySecret, "")
	if status != 200 || at(found, "data", "id") != e.ID || at(found, "data", "name") != e.Name {
		t.Errorf("EIN lookup on the relay: %d %v; want %s (%s) from the upstream", status, found, e.ID, e.Name)
	}
	status, search := p.call(t, "GET", p.relayBase+"/v1/search?response_types=employer&q="+url.QueryEscape(e.Name), p.relaySecret, "")
	if status != 200 || len(search["data"].([]any)) == 0 || at(search["data"].([]any)[0], "id") != e.ID {
		t.Errorf("search for %q on the relay: %d %v", e.Name, status, search)
	}
	status, gql := p.call(t, "POST", p.relayBase+"/graphql", p.relaySecret,
		fmt.Sprintf(`{"query": "{ employer(id: \"%s\") { id name platform { id } } }"}`, e.ID))
	if status != 200 || at(gql, "data", "employer", "name") != e.Name || at(gql, "data", "employer", "platform") != nil || gql["errors"] != nil {
		t.Errorf("employer through GraphQL on the relay: %d %v; want its name and a null platform", status, gql)
	}
}

func at(v any, path ...string) any {
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// relayToken creates a token on the relay and returns the upstream's
// token its modal session opens.
func (p *relayPair) relayToken(t *testing.T, endUser string, jobs ...string) string {
	t.Helper()
	status, tok := p.call(t, "POST", p.relayBase+"/v1/link_tokens", p.relaySecret,
		`{"org_name": "Acme Lending", "end_user_id": "`+endUser+`", "required_jobs": ["`+strings.Join(jobs, `", "`)+`"]}`)
	if status != 200 {
		t.Fatalf("link token on the relay: %d %v", status, tok)
	}
	status, sess := p.call(t, "GET", p.relayBase+"/link/v1/api/session", "", "", "Authorization", "Bearer "+tok["data"].(map[string]any)["token"].(string))
	up, _ := sess["upstream"].(map[string]any)
	if status != 200 || up == nil {
		t.Fatalf("session on the relay: %d %v", status, sess)
	}
	return up["link_token"].(string)
}

// completeUpstream signs in at the upstream with its sandbox helper.
func (p *relayPair) completeUpstream(t *testing.T, upstreamToken, platformID string) string {
	t.Helper()
	status, done := p.call(t, "POST", p.upstreamBase+"/v1/sandbox/link_sessions", p.upstreamSecret,
		fmt.Sprintf(`{"token": %q, "platform_id": %q, "username": "user_good", "password": "pass_good"}`, upstreamToken, platformID))
	if status != 200 {
		t.Fatalf("the upstream's sandbox session: %d %v", status, done)
	}
	return done["data"].(map[string]any)["account_id"].(string)
}

// waitJobs waits until the relay holds n final jobs of the account, and
// says how long that took.
func (p *relayPair) waitJobs(t *testing.T, accountID string, n int, within time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	testwait.Every(100*time.Millisecond).Until(t, within, func() error {
		if jobs := p.all(t, p.relayBase, p.relaySecret, "/v1/jobs?account_id="+accountID); len(jobs) != n {
			return fmt.Errorf("the relay holds %d of %d jobs of %s", len(jobs), n, accountID)
		}
		return nil
	})
	return time.Since(start)
}

func (p *relayPair) platformID(t *testing.T) string {
	t.Helper()
	status, search := p.call(t, "GET", p.relayBase+"/v1/search?q=summit+payroll&response_types=platform", p.relaySecret, "")
	if status != 200 || len(search["data"].([]any)) == 0 {
		t.Fatalf("search on the relay: %d %v", status, search)
	}
	return search["data"].([]any)[0].(map[string]any)["id"].(string)
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

// deliver posts a delivery to the relay's upstream webhook endpoint,
// signed as the upstream signs (with its API secret), and returns the
// status.
func (p *relayPair) deliver(t *testing.T, body []byte) int {
	t.Helper()
	ts := time.Now().Unix()
	req, err := http.NewRequest("POST", p.relayBase+"/v1/upstream/webhooks", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set("x-service-signature", domain.SignWebhook(p.upstreamSecret, ts, body))
	resp, err := p.client.Do(req)
	if err != nil {
		t.Errorf("deliver: %v", err)
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
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

// listen opens a webhook listener on the relay for its customer (the
// websocket `payline webhooks listen` uses) and returns its deliveries,
// each answered 200.
func (p *relayPair) listen(t *testing.T, events string) <-chan rest.ListenerMessage {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	conn, _, err := websocket.Dial(ctx, "wss"+strings.TrimPrefix(p.relayBase, "https")+"/v1/webhook_listeners?enabled_events="+events,
		&websocket.DialOptions{HTTPClient: p.client, Subprotocols: []string{rest.ListenerProtocol},
			HTTPHeader: http.Header{"x-api-secret": {p.relaySecret}, "Service-Version": {domain.LatestVersion}}})
	if err != nil {
		t.Fatalf("listen on the relay: %v", err)
	}
	t.Cleanup(func() { conn.CloseNow() })
	var ready rest.ListenerMessage
	if err := wsjson.Read(ctx, conn, &ready); err != nil || ready.Type != "ready" {
		t.Fatalf("the listener did not get ready: %v %+v", err, ready)
	}
	out := make(chan rest.ListenerMessage, 16)
	go func() {
		for {
			var m rest.ListenerMessage
			if err := wsjson.Read(ctx, conn, &m); err != nil {
				return
			}
			if m.Type != "delivery" {
				continue
			}
			_ = wsjson.Write(ctx, conn, rest.ListenerMessage{Type: "answer", DeliveryID: m.DeliveryID, StatusCode: 200})
			out <- m
		}
	}()
	return out
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

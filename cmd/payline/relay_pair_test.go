package main

// The relay pair the relay tests share: an upstream Payline and a relay
// Payline in this process, each on its own port, database and directory,
// and the calls the tests make of them.

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/internal/testwait"
	"payline/rest"
	"payline/storage"
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
	upstreamURL, documentOrigins := p.upstreamBase, []string(nil)
	if via != nil {
		// Reached through another address, the upstream still signs its
		// documents' links on its own: the relay is told to fetch there.
		upstreamURL, documentOrigins = via(p.upstreamBase), []string{p.upstreamBase}
	}
	// The relay at its own defaults too: 10 requests a second for the
	// integrator (the test's client waits out a 429 as a client should).
	p.relayCfg = ServeConfig{Addr: addr, DatabaseURL: relayDB, Mode: domain.ModeDevelopment, PublicURL: "https://" + addr,
		TLSCert: certFile, TLSKey: keyFile, UpstreamURL: upstreamURL, UpstreamDocumentOrigins: documentOrigins, UpstreamCAFile: caFile,
		ReconcileInterval: time.Hour}
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

package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"payline/connectors/upstream"
	"payline/domain"
	"payline/internal/testwait"
)

// TestRelaySeveralSources: one relay in front of two upstreams and the
// sandbox connector (over the connector protocol), routed by platform as
// its --connectors file says. A token for a platform only one upstream
// covers opens that upstream's Link; a platform both cover goes to the
// first; a platform the connector takes logs in through Payline's own
// modal. With the first upstream away, a token for the shared platform
// fails over to the second, and its account's jobs read their data from
// the upstream that holds it, not the platform's preferred one; a
// platform only the away upstream covers answers UPSTREAM_UNAVAILABLE.
func TestRelaySeveralSources(t *testing.T) {
	// Mostly waiting (the upstream away for 30 s): run beside the other
	// waiting relay test once the package's sequential tests are done.
	t.Parallel()
	eachDatabase(t, func(t *testing.T, dbURL string) {
		logs := &lockedBuffer{}
		defer func() {
			if t.Failed() {
				t.Log(logs.String())
			}
		}()
		certFile, keyFile, pool := selfSigned(t)
		caFile := caFileOf(t, certFile)
		alpha := startTestUpstream(t, "alpha", caFile, logs)
		beta := startTestUpstream(t, "beta", caFile, logs)
		connector := startSandboxConnector(t, "connector secret")

		// Four payroll platforms of the sandbox directory, which both
		// upstreams and the connector share.
		p := &relayPair{client: &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}},
			upstreamBase: alpha.base, upstreamSecret: alpha.secret}
		_, platforms := p.call(t, "GET", alpha.base+"/v1/platforms?type=payroll&limit=4", alpha.secret, "")
		var ids []string
		for _, pl := range platforms["data"].([]any) {
			ids = append(ids, at(pl, "id").(string))
		}
		if len(ids) != 4 {
			t.Fatalf("the sandbox lists %d payroll platforms: %v", len(ids), platforms)
		}
		onlyAlpha, shared, onlyBeta, viaConnector := ids[0], ids[1], ids[2], ids[3]
		file := filepath.Join(t.TempDir(), "sources.json")
		if err := os.WriteFile(file, []byte(`{"connectors": [
			{"name": "alpha", "upstream": "`+alpha.base+`", "secret_env": "ALPHA_SECRET", "platform_ids": ["`+onlyAlpha+`", "`+shared+`"]},
			{"name": "beta", "upstream": "`+beta.base+`", "secret_env": "BETA_SECRET", "platform_ids": ["`+shared+`", "`+onlyBeta+`"]},
			{"name": "sandbox", "url": "`+connector+`", "secret_env": "CONNECTOR_SECRET", "platform_ids": ["`+viaConnector+`"]}]}`), 0o600); err != nil {
			t.Fatal(err)
		}
		p.relaySecret = createKey(t, dbURL, "acme lending", domain.ModeDevelopment)
		addr := freeAddr(t)
		p.relayBase = "https://" + addr
		relay := &Main{Config: ServeConfig{Addr: addr, DatabaseURL: dbURL, Mode: domain.ModeDevelopment, PublicURL: p.relayBase,
			TLSCert: certFile, TLSKey: keyFile, ConnectorsFile: file, ReconcileInterval: time.Hour},
			Stdout: io.Discard, Logger: slog.New(slog.NewTextHandler(logs, nil)).With("instance", "relay"),
			Getenv: env("PAYLINE_MASTER_KEY", testMasterKey, "ALPHA_SECRET", alpha.secret, "BETA_SECRET", beta.secret,
				"CONNECTOR_SECRET", "connector secret")}
		if err := relay.Start(context.Background()); err != nil {
			t.Fatalf("start the relay: %v", err)
		}
		defer relay.Close(context.Background())
		testwait.Every(100*time.Millisecond).Until(t, time.Minute, func() error {
			_, ready := p.call(t, "GET", p.relayBase+"/readyz", "", "")
			if st, _ := at(ready, "checks", "upstream_directory").(string); strings.Count(st, "synced at") != 2 {
				return fmt.Errorf("both upstreams' directories did not sync: %q", st)
			}
			return nil
		})

		// Each platform's token goes where the file routes it.
		for _, c := range []struct {
			platform string
			want     *testUpstream
		}{{onlyAlpha, alpha}, {shared, alpha}, {onlyBeta, beta}, {viaConnector, nil}} {
			sdk, _ := p.platformToken(t, c.platform)
			switch {
			case c.want == nil && sdk != "":
				t.Errorf("platform %s opened an upstream's Link (%s); want the connector, through Payline's own modal", c.platform, sdk)
			case c.want != nil && sdk != c.want.base+"/link/v1/link.js":
				t.Errorf("platform %s opened %q; want %s's Link", c.platform, sdk, c.want.name)
			}
		}

		// The connector's platform logs in through the modal and its jobs
		// run at the connector.
		_, token := p.platformToken(t, viaConnector)
		status, login := p.call(t, "POST", p.relayBase+"/link/v1/api/login", "", `{"platform_id": "`+viaConnector+`", "username": "user_good", "password": "pass_good"}`,
			"Authorization", "Bearer "+token)
		if status != 200 {
			t.Fatalf("login through the connector: %d %v", status, login)
		}
		p.waitJobs(t, at(login, "account_id").(string), 2, 30*time.Second)

		// Alpha away: the shared platform fails over to beta, and its
		// account reads its data from beta.
		alpha.stop()
		sdk, _ := p.platformTokenStatus(t, shared, 200)
		if sdk != beta.base+"/link/v1/link.js" {
			t.Fatalf("with alpha away the shared platform opened %q; want beta's Link", sdk)
		}
		upstreamToken := p.lastUpstreamToken
		p.upstreamBase, p.upstreamSecret = beta.base, beta.secret
		account := p.completeUpstream(t, upstreamToken, shared)
		p.waitJobs(t, account, 2, 30*time.Second)
		if stubs := p.all(t, p.relayBase, p.relaySecret, "/v1/accounts/"+account+"/paystubs"); len(stubs) == 0 {
			t.Errorf("the failed-over account has no paystubs")
		}
		if _, refused := p.platformTokenStatus(t, onlyAlpha, 503); at(refused, "error", "code") != domain.CodeUpstreamUnavailable {
			t.Errorf("a token for a platform only the away upstream covers: %v", refused)
		}
		if errs := errorLines(logs.String(), "relay"); len(errs) > 0 {
			t.Errorf("the relay logged errors:\n%s", strings.Join(errs, "\n"))
		}
	})
}

// testUpstream is a Payline in sandbox mode at its defaults, and the
// secret of the key a relay uses there.
type testUpstream struct {
	name, base, secret string
	main               *Main
}

func (u *testUpstream) stop() {
	if u.main != nil {
		u.main.Close(context.Background())
		u.main = nil
	}
}

func startTestUpstream(t *testing.T, name, webhookCA string, logs io.Writer) *testUpstream {
	t.Helper()
	dbURL := "sqlite:" + filepath.Join(t.TempDir(), name+".db")
	addr := freeAddr(t)
	m := &Main{Config: ServeConfig{Addr: addr, DatabaseURL: dbURL, Mode: domain.ModeSandbox, WebhookCAFile: webhookCA}, Stdout: io.Discard,
		Logger: slog.New(slog.NewTextHandler(logs, nil)).With("instance", name), Getenv: env("PAYLINE_MASTER_KEY", testMasterKey)}
	if err := m.Start(context.Background()); err != nil {
		t.Fatalf("start upstream %s: %v", name, err)
	}
	u := &testUpstream{name: name, base: "http://" + addr, main: m}
	t.Cleanup(u.stop)
	u.secret = createKey(t, dbURL, "relay operator", domain.ModeSandbox)
	return u
}

// platformToken creates a relay token preselecting a platform and
// returns the upstream Link SDK its session opens ("" for none) and the
// token's value.
func (p *relayPair) platformToken(t *testing.T, platform string) (sdk, token string) {
	t.Helper()
	sdk, body := p.platformTokenStatus(t, platform, 200)
	return sdk, at(body, "data", "token").(string)
}

// platformTokenStatus is platformToken expecting the given status; it
// returns the creation's body.
func (p *relayPair) platformTokenStatus(t *testing.T, platform string, want int) (string, map[string]any) {
	t.Helper()
	status, tok := p.call(t, "POST", p.relayBase+"/v1/link_tokens", p.relaySecret,
		`{"org_name": "Acme Lending", "end_user_id": "erin", "platform_id": "`+platform+`", "required_jobs": ["paystubs", "identity"]}`)
	if status != want {
		t.Fatalf("token for platform %s: %d %v; want %d", platform, status, tok, want)
	}
	if status != 200 {
		return "", tok
	}
	status, sess := p.call(t, "GET", p.relayBase+"/link/v1/api/session", "", "", "Authorization", "Bearer "+at(tok, "data", "token").(string))
	if status != 200 {
		t.Fatalf("session: %d %v", status, sess)
	}
	sdk, _ := at(sess, "upstream", "sdk_url").(string)
	p.lastUpstreamToken, _ = at(sess, "upstream", "link_token").(string)
	return sdk, tok
}

// TestRelayStartsWithAnUpstreamDown (issue 47, item 4): a relay in front
// of three upstreams, in this order of preference for every platform:
// alpha, which is stopped (nothing listens at its address), gamma, which
// hangs (it takes connections and never answers), and beta. serve starts
// (gamma's first request is bounded) and serves through beta; a new link
// token is asked of the end user's client with a 6 s timeout, less than
// the 10 s an upstream request may take, so it succeeds only because the
// hung upstream costs at most the router's failover bound (2 s).
func TestRelayStartsWithAnUpstreamDown(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, dbURL string) {
		logs := &lockedBuffer{}
		defer func() {
			if t.Failed() {
				t.Log(logs.String())
			}
		}()
		certFile, keyFile, pool := selfSigned(t)
		beta := startTestUpstream(t, "beta", caFileOf(t, certFile), logs)
		stopped := freeAddr(t)
		hung := startHungServer(t)

		file := filepath.Join(t.TempDir(), "sources.json")
		if err := os.WriteFile(file, []byte(`{"connectors": [
			{"name": "alpha", "upstream": "http://`+stopped+`", "secret_env": "ALPHA_SECRET"},
			{"name": "gamma", "upstream": "http://`+hung+`", "secret_env": "GAMMA_SECRET"},
			{"name": "beta", "upstream": "`+beta.base+`", "secret_env": "BETA_SECRET"}]}`), 0o600); err != nil {
			t.Fatal(err)
		}
		p := &relayPair{client: &http.Client{Timeout: 6 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}},
			upstreamBase: beta.base, upstreamSecret: beta.secret}
		_, platforms := p.call(t, "GET", beta.base+"/v1/platforms?type=payroll&limit=1", beta.secret, "")
		list, _ := platforms["data"].([]any)
		if len(list) == 0 {
			t.Fatalf("beta lists no payroll platform: %v", platforms)
		}
		platform := at(list[0], "id").(string)

		p.relaySecret = createKey(t, dbURL, "acme lending", domain.ModeDevelopment)
		addr := freeAddr(t)
		p.relayBase = "https://" + addr
		relay := &Main{Config: ServeConfig{Addr: addr, DatabaseURL: dbURL, Mode: domain.ModeDevelopment, PublicURL: p.relayBase,
			TLSCert: certFile, TLSKey: keyFile, ConnectorsFile: file, ReconcileInterval: time.Hour, MetricsAddr: "127.0.0.1:0", InstanceID: "relay-1"},
			Stdout: io.Discard, Logger: slog.New(slog.NewTextHandler(logs, nil)).With("instance", "relay"),
			Getenv: env("PAYLINE_MASTER_KEY", testMasterKey, "ALPHA_SECRET", "alpha secret", "GAMMA_SECRET", "gamma secret", "BETA_SECRET", beta.secret)}
		if err := relay.Start(context.Background()); err != nil {
			t.Fatalf("the relay did not start with one upstream stopped and one hung: %v", err)
		}
		defer relay.Close(context.Background())
		if !strings.Contains(logs.String(), `upstream=alpha`) || !strings.Contains(logs.String(), `upstream=gamma`) {
			t.Errorf("the relay did not say which upstreams were away at start:\n%s", logs.String())
		}

		// Every token goes to beta, each within the client's 6 s, and the
		// session it opens is beta's Link.
		for i := range 3 {
			sdk, _ := p.platformTokenStatus(t, platform, 200)
			if sdk != beta.base+"/link/v1/link.js" {
				t.Fatalf("token %d opened %q; want beta's Link", i+1, sdk)
			}
		}
		// And a session through beta completes: the relay serves.
		upstreamToken := p.lastUpstreamToken
		account := p.completeUpstream(t, upstreamToken, platform)
		p.waitJobs(t, account, 2, 30*time.Second)

		// Each upstream's budget is in /metrics: beta's requests counted,
		// every upstream's configured and current rate.
		if v := scrape(t, relay.MetricsAddr(), `payline_upstream_requests_total\{instance_id="relay-1",upstream="beta"\}`); v < 4 {
			t.Errorf("beta's budget let %v requests go; want the tokens' and the session's at least", v)
		}
		for _, name := range []string{"alpha", "gamma", "beta"} {
			if v := scrape(t, relay.MetricsAddr(), `payline_upstream_max_rate\{instance_id="relay-1",upstream="`+name+`"\}`); v != upstream.DefaultRate {
				t.Errorf("%s's configured rate reads %v, want the default %v", name, v, upstream.DefaultRate)
			}
			if v := scrape(t, relay.MetricsAddr(), `payline_upstream_rate\{instance_id="relay-1",upstream="`+name+`"\}`); v <= 0 || v > upstream.DefaultRate {
				t.Errorf("%s's current rate reads %v", name, v)
			}
		}
	})
}

// startHungServer listens on a free address and takes every request
// without ever answering, until the test ends: an upstream that hangs.
func startHungServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}), ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() {
		close(release)
		srv.Close()
	})
	return ln.Addr().String()
}

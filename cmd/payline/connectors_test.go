package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/internal/testwait"
)

// startSandboxConnector runs `payline connectors serve-sandbox` on a free
// port until the test ends, and waits until it answers.
func startSandboxConnector(t *testing.T, secret string) string {
	t.Helper()
	addr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var out bytes.Buffer
	go func() {
		done <- run(ctx, []string{"connectors", "serve-sandbox", "--addr", addr, "--sandbox-pending-delay", "2s"}, &out, io.Discard,
			env("PAYLINE_CONNECTOR_SECRET", secret))
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve-sandbox: %v", err)
		}
	})
	testwait.Until(t, 20*time.Second, func() error {
		res, err := http.Get("http://" + addr + "/connector/v1/capabilities")
		if err != nil {
			return fmt.Errorf("serve-sandbox did not answer on %s: %v", addr, err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusUnauthorized { // up, and refusing the unsigned request
			return fmt.Errorf("serve-sandbox on %s answered %d, want 401", addr, res.StatusCode)
		}
		return nil
	})
	return "http://" + addr
}

// TestConnectorCommands: `connectors check` passes the sandbox served by
// `connectors serve-sandbox` and prints a pass line per scenario, and it
// fails, naming the scenarios, with the wrong secret.
func TestConnectorCommands(t *testing.T) {
	url := startSandboxConnector(t, "the connector secret")
	var out bytes.Buffer
	if err := run(context.Background(), []string{"connectors", "check", url}, &out, io.Discard, env("PAYLINE_CONNECTOR_SECRET", "the connector secret")); err != nil {
		t.Fatalf("check: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "login: locked account") || strings.Contains(out.String(), "FAIL") || !strings.Contains(out.String(), "scenarios passed") {
		t.Errorf("check printed:\n%s", out.String())
	}
	// --json, on one platform: every result names it, none failed.
	platforms, _ := sandbox.Directory(10)
	out.Reset()
	if err := run(context.Background(), []string{"connectors", "check", url, "--json", "--platform", platforms[0].ID}, &out, io.Discard,
		env("PAYLINE_CONNECTOR_SECRET", "the connector secret")); err != nil {
		t.Fatalf("check --json: %v\n%s", err, out.String())
	}
	var report struct {
		Passed bool `json:"passed"`
		Counts struct {
			Passed, Failed, Skipped int
		} `json:"counts"`
		Results []struct {
			Scenario   string `json:"scenario"`
			PlatformID string `json:"platform_id"`
			State      string `json:"state"`
		} `json:"results"`
	}
	if err := json.Unmarshal(out.Bytes(), &report); err != nil || !report.Passed || report.Counts.Failed != 0 ||
		report.Counts.Passed+report.Counts.Skipped != len(report.Results) || len(report.Results) < 20 {
		t.Fatalf("check --json: %v\n%s", err, out.String())
	}
	for _, r := range report.Results {
		if r.PlatformID != "" && r.PlatformID != platforms[0].ID {
			t.Errorf("--platform %s: %s tried %s", platforms[0].ID, r.Scenario, r.PlatformID)
		}
	}
	out.Reset()
	err := run(context.Background(), []string{"connectors", "check", url}, &out, io.Discard, env("PAYLINE_CONNECTOR_SECRET", "another secret"))
	if !errors.Is(err, errChecksFailed) || !strings.Contains(out.String(), "capabilities  FAIL") {
		t.Errorf("check with the wrong secret: %v\n%s", err, out.String())
	}
	var stderr bytes.Buffer
	if err := run(context.Background(), []string{"connectors", "check", url}, io.Discard, &stderr, env()); !errors.Is(err, errUsage) ||
		!strings.Contains(stderr.String(), "PAYLINE_CONNECTOR_SECRET") {
		t.Errorf("check without a secret: %v %s", err, stderr.String())
	}
}

// TestServeThroughConnector: serve --connector-url runs the sandbox out of
// process, on both databases: a Link session through the sandbox helper
// makes an account whose jobs succeed (a pending one ends in error after
// the connector's delay) and whose paystubs are there; a wrong secret or
// an absent connector stops serve with one line.
func TestServeThroughConnector(t *testing.T) {
	t.Parallel() // it mostly waits (processes, deliveries, timeouts): beside the other waiting tests
	const secret = "serve connector secret"
	url := startSandboxConnector(t, secret)
	eachDatabase(t, func(t *testing.T, dbURL string) {
		var out bytes.Buffer
		m := &Main{Config: ServeConfig{Addr: "127.0.0.1:0", DatabaseURL: dbURL, Mode: domain.ModeSandbox, PublicURL: "http://payline.test", ConnectorURL: url},
			Stdout: &out, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
			Getenv: env("PAYLINE_MASTER_KEY", testMasterKey, "PAYLINE_CONNECTOR_SECRET", secret)}
		if err := m.Start(context.Background()); err != nil {
			t.Fatalf("start: %v", err)
		}
		defer m.Close(context.Background())
		key := secretLine.FindStringSubmatch(out.String())[1]
		_, search := apiGet(t, m.Addr(), key, "/v1/search?q=summit+payroll&response_types=platform")
		platformID := search["data"].([]any)[0].(map[string]any)["id"].(string)
		session := func(user string) (string, string) {
			_, tok := apiPost(t, m.Addr(), key, "/v1/link_tokens", `{"org_name": "Acme", "end_user_id": "out-of-process",
				"required_jobs": ["identity", "paystubs", "employment", "income"]}`)
			data := tok["data"].(map[string]any)
			status, sess := apiPost(t, m.Addr(), key, "/v1/sandbox/link_sessions", `{"token": "`+data["token"].(string)+`",
				"platform_id": "`+platformID+`", "username": "`+user+`", "password": "pass_good"}`)
			if status != 200 {
				t.Fatalf("link session as %s: %d %v", user, status, sess)
			}
			return data["id"].(string), sess["data"].(map[string]any)["account_id"].(string)
		}
		waitOutcomes := func(tokenID, outcome string) {
			t.Helper()
			testwait.Every(100*time.Millisecond).Until(t, 30*time.Second, func() error {
				_, jobs := apiGet(t, m.Addr(), key, "/v1/jobs?outcome="+outcome+"&link_token_id="+tokenID)
				if len(jobs["data"].([]any)) != 4 {
					return fmt.Errorf("jobs of %s not all %s: %v", tokenID, outcome, jobs)
				}
				return nil
			})
		}
		tokenID, account := session("user_good")
		waitOutcomes(tokenID, "success")
		if status, stubs := apiGet(t, m.Addr(), key, "/v1/accounts/"+account+"/paystubs?limit=5"); status != 200 || len(stubs["data"].([]any)) != 5 {
			t.Errorf("paystubs read through the connector: %d %v", status, stubs)
		}
		if status, body := apiPost(t, m.Addr(), key, "/v1/sandbox/link_sessions", `{"token": "x", "platform_id": "`+platformID+`"}`); status < 400 {
			t.Errorf("a bad session: %d %v", status, body)
		}
		pendingToken, _ := session("user_pending")
		waitOutcomes(pendingToken, "error")
	})
	for name, c := range map[string]struct{ url, secret, want string }{
		"wrong secret": {url, "not the secret", "PAYLINE_CONNECTOR_SECRET"},
		"no connector": {"http://" + freeAddr(t), secret, "the connector at"},
		"no secret":    {url, "", "PAYLINE_CONNECTOR_SECRET is not set"},
		"plain http":   {"http://connector.example", secret, "must be https"},
	} {
		m := &Main{Config: ServeConfig{Addr: "127.0.0.1:0", DatabaseURL: "sqlite:" + t.TempDir() + "/p.db", Mode: domain.ModeSandbox, ConnectorURL: c.url},
			Stdout: io.Discard, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
			Getenv: env("PAYLINE_MASTER_KEY", testMasterKey, "PAYLINE_CONNECTOR_SECRET", c.secret)}
		err := m.Start(context.Background())
		if err == nil {
			m.Close(context.Background())
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want one line with %q", name, err, c.want)
		}
	}
}

// TestServeWithConnectorsFile: --connectors routes the platforms a
// connector lists to it (a Link session then runs out of process), and a
// file naming an unset secret variable, an unknown field or an
// unreachable connector stops serve with one line.
func TestServeWithConnectorsFile(t *testing.T) {
	url := startSandboxConnector(t, "file secret")
	dir := t.TempDir()
	write := func(name, body string) string {
		p := dir + "/" + name
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.json", `{"connectors": [{"name": "sandbox", "url": "`+url+`", "secret_env": "SANDBOX_CONNECTOR_SECRET", "platform_types": ["merchant"]}]}`)
	start := func(file string) (*Main, *bytes.Buffer, error) {
		var out bytes.Buffer
		m := &Main{Config: ServeConfig{Addr: "127.0.0.1:0", DatabaseURL: "sqlite:" + t.TempDir() + "/p.db", Mode: domain.ModeSandbox, PublicURL: "http://payline.test",
			ConnectorsFile: file}, Stdout: &out, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
			Getenv: env("PAYLINE_MASTER_KEY", testMasterKey, "SANDBOX_CONNECTOR_SECRET", "file secret")}
		return m, &out, m.Start(context.Background())
	}
	m, out, err := start(good)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	defer m.Close(context.Background())
	key := secretLine.FindStringSubmatch(out.String())[1]
	_, search := apiGet(t, m.Addr(), key, "/v1/search?q=summit+payroll&response_types=platform")
	platformID := search["data"].([]any)[0].(map[string]any)["id"].(string)
	_, tok := apiPost(t, m.Addr(), key, "/v1/link_tokens", `{"org_name": "Acme", "end_user_id": "routed", "required_jobs": ["identity"]}`)
	data := tok["data"].(map[string]any)
	if status, sess := apiPost(t, m.Addr(), key, "/v1/sandbox/link_sessions", `{"token": "`+data["token"].(string)+`",
		"platform_id": "`+platformID+`", "username": "user_good", "password": "pass_good"}`); status != 200 {
		t.Fatalf("link session: %d %v", status, sess)
	}
	testwait.Every(100*time.Millisecond).Until(t, 20*time.Second, func() error {
		_, jobs := apiGet(t, m.Addr(), key, "/v1/jobs?outcome=success&link_token_id="+data["id"].(string))
		if len(jobs["data"].([]any)) != 1 {
			return fmt.Errorf("the routed job did not succeed: %v", jobs)
		}
		return nil
	})
	for name, c := range map[string]struct{ body, want string }{
		"unset secret":  {`{"connectors": [{"name": "x", "url": "` + url + `", "secret_env": "NOT_SET_ANYWHERE"}]}`, "NOT_SET_ANYWHERE is not set"},
		"unknown field": {`{"connectors": [{"name": "x", "url": "` + url + `", "secret_env": "SANDBOX_CONNECTOR_SECRET", "secret": "inline"}]}`, `unknown field "secret"`},
		"unreachable":   {`{"connectors": [{"name": "x", "url": "http://` + freeAddr(t) + `", "secret_env": "SANDBOX_CONNECTOR_SECRET"}]}`, `connector "x" at`},
		"bad type":      {`{"connectors": [{"name": "x", "url": "` + url + `", "secret_env": "SANDBOX_CONNECTOR_SECRET", "platform_types": ["bank"]}]}`, `platform type "bank"`},
		"claimed twice": {`{"connectors": [{"name": "x", "url": "` + url + `", "secret_env": "SANDBOX_CONNECTOR_SECRET"}, {"name": "y", "url": "` + url + `", "secret_env": "SANDBOX_CONNECTOR_SECRET"}]}`, "claimed by connectors"},
		"no connectors": {`{"connectors": []}`, "names no connector"},
	} {
		m, _, err := start(write(strings.ReplaceAll(name, " ", "-")+".json", c.body))
		if err == nil {
			m.Close(context.Background())
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want one line with %q", name, err, c.want)
		}
	}
}

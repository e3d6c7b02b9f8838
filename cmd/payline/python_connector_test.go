package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/internal/testwait"
)

// startPythonConnector runs examples/connector-python on a free port until
// the test ends (python3 3.11+ is required in CI, skipped loudly elsewhere).
func startPythonConnector(t *testing.T, secret string) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err == nil {
		err = exec.Command(py, "-c", "import sys; sys.exit(sys.version_info < (3, 11))").Run()
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("python3 3.11+ is needed for the Python connector example: %v", err)
		}
		t.Skipf("*** SKIPPING: no python3 3.11+ for the Python connector example (%v) ***", err)
	}
	addr := freeAddr(t)
	var logs bytes.Buffer
	cmd := exec.Command(py, "connector.py", "--addr", addr, "--pending-seconds", "2")
	cmd.Dir = filepath.Join("..", "..", "examples", "connector-python")
	cmd.Env = append(os.Environ(), "PAYLINE_CONNECTOR_SECRET="+secret, "PYTHONDONTWRITEBYTECODE=1", "PYTHONUNBUFFERED=1")
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("the Python connector's log:\n%s", logs.String())
		}
	})
	testwait.Every(50*time.Millisecond).Eventually(t, 20*time.Second, func() bool {
		res, err := http.Get("http://" + addr + "/connector/v1/capabilities")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusUnauthorized
	}, "the Python connector did not answer on %s", addr) // its log is in the cleanup's output
	return "http://" + addr
}

// TestPythonConnectorThroughPayline: the Python connector passes the
// conformance kit (payline connectors check), and a full sandbox Link
// session through Payline reaches it: serve --connector-url adds its
// platforms to the directory, a token with a partial (amount) switch and
// the read jobs completes on Acme Paydesk with every job succeeding and
// its paystubs and allocations read through the protocol, on both
// databases, while a sandbox platform stays with the compiled-in
// connector.
func TestPythonConnectorThroughPayline(t *testing.T) {
	const secret = "python connector secret"
	url := startPythonConnector(t, secret)
	var out bytes.Buffer
	if err := run(context.Background(), []string{"connectors", "check", url}, &out, io.Discard, env("PAYLINE_CONNECTOR_SECRET", secret)); err != nil {
		t.Fatalf("connectors check: %v\n%s", err, out.String())
	}
	eachDatabase(t, func(t *testing.T, dbURL string) {
		var stdout bytes.Buffer
		m := &Main{Config: ServeConfig{Addr: "127.0.0.1:0", DatabaseURL: dbURL, Mode: domain.ModeSandbox, PublicURL: "http://payline.test", ConnectorURL: url},
			Stdout: &stdout, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
			Getenv: env("PAYLINE_MASTER_KEY", testMasterKey, "PAYLINE_CONNECTOR_SECRET", secret)}
		if err := m.Start(context.Background()); err != nil {
			t.Fatalf("start: %v", err)
		}
		defer m.Close(context.Background())
		key := secretLine.FindStringSubmatch(stdout.String())[1]
		platformOf := func(q string) string {
			_, search := apiGet(t, m.Addr(), key, "/v1/search?response_types=platform&q="+q)
			found := search["data"].([]any)
			if len(found) == 0 {
				t.Fatalf("no platform %q in the directory", q)
			}
			return found[0].(map[string]any)["id"].(string)
		}
		session := func(platformID, endUser, jobs, extra string) (string, string) {
			status, tok := apiPost(t, m.Addr(), key, "/v1/link_tokens", `{"org_name": "Acme", "end_user_id": "`+endUser+`", "required_jobs": [`+jobs+`]`+extra+`}`)
			if status != 200 {
				t.Fatalf("link token: %d %v", status, tok)
			}
			data := tok["data"].(map[string]any)
			status, sess := apiPost(t, m.Addr(), key, "/v1/sandbox/link_sessions", `{"token": "`+data["token"].(string)+`",
				"platform_id": "`+platformID+`", "username": "user_good", "password": "pass_good", "allocation": {"action": "partial_switch", "type": "amount", "value": 125.50}}`)
			if status != 200 {
				t.Fatalf("link session on %s: %d %v", platformID, status, sess)
			}
			return data["id"].(string), sess["data"].(map[string]any)["account_id"].(string)
		}
		waitAll := func(tokenID string, n int) []any {
			var list []any
			testwait.Every(100*time.Millisecond).Until(t, 30*time.Second, func() error {
				_, jobs := apiGet(t, m.Addr(), key, "/v1/jobs?link_token_id="+tokenID)
				list = jobs["data"].([]any)
				final := 0
				for _, j := range list {
					if o := j.(map[string]any)["outcome"]; o == "success" || o == "error" {
						final++
					}
				}
				if final != n {
					return fmt.Errorf("jobs of %s: %v", tokenID, list)
				}
				return nil
			})
			return list
		}
		acme := platformOf("acme+paydesk")
		tokenID, account := session(acme, "py-user", `"direct_deposit_switch", "identity", "employment", "income", "paystubs"`,
			`, "allocation": {"targets": [{"name": "Rainy Day", "type": "savings", "account_number": "5550001234", "routing_number": "011000015"}]}`)
		for _, j := range waitAll(tokenID, 5) {
			if j.(map[string]any)["outcome"] != "success" {
				t.Errorf("a job through the Python connector: %v", j)
			}
		}
		if _, stubs := apiGet(t, m.Addr(), key, "/v1/accounts/"+account+"/paystubs?limit=100"); len(stubs["data"].([]any)) < 50 {
			t.Errorf("paystubs through the Python connector: %d", len(stubs["data"].([]any)))
		}
		_, allocations := apiGet(t, m.Addr(), key, "/v1/accounts/"+account+"/direct_deposit_allocations")
		if !strings.Contains(strings.ToLower(fmtJSON(allocations)), "rainy day") {
			t.Errorf("allocations do not show the switch: %v", allocations)
		}
		// A sandbox platform is not the Python connector's: the compiled-in
		// sandbox still serves it.
		summitToken, _ := session(platformOf("summit+payroll"), "sandbox-user", `"identity"`, "")
		for _, j := range waitAll(summitToken, 1) {
			if j.(map[string]any)["outcome"] != "success" {
				t.Errorf("a sandbox platform's job: %v", j)
			}
		}
	})
}

package webhook

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// tool finds a language runtime, failing under CI and skipping elsewhere.
func tool(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing: CI cross-checks the webhook helpers of every library", name)
		}
		t.Skipf("*** SKIPPING: %s not installed ***", name)
	}
	return path
}

// helper is one language's webhook helper, driven through a small script.
type helper struct {
	name string
	run  func(t *testing.T, op string, args map[string]any) string
}

func helpers(t *testing.T) []helper {
	root, err := filepath.Abs(filepath.Join("..", "..", "sdk"))
	if err != nil {
		t.Fatal(err)
	}
	node, python := tool(t, "node"), tool(t, "python3")
	script := func(t *testing.T, cmd *exec.Cmd, args map[string]any) string {
		t.Helper()
		in, _ := json.Marshal(args)
		cmd.Stdin = strings.NewReader(string(in))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", cmd.Path, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	return []helper{
		{"typescript", func(t *testing.T, op string, args map[string]any) string {
			js := `import * as w from ` + strconv.Quote("file://"+filepath.Join(root, "typescript", "webhook.js")) + `;
import { readFileSync } from 'node:fs';
const a = JSON.parse(readFileSync(0, 'utf8'));
if (a.op === 'sign') { console.log(JSON.stringify(await w.signWebhook(a.secret, a.body, a.at))); }
else { try { await w.verifyWebhook(a.secret, a.headers, a.body, { now: a.now }); console.log('ok'); } catch (e) { console.log(e.reason ?? String(e)); } }`
			args["op"] = op
			return script(t, exec.Command(node, "--input-type=module", "-e", js), args)
		}},
		{"python", func(t *testing.T, op string, args map[string]any) string {
			py := `import json, sys
sys.path.insert(0, ` + strconv.Quote(filepath.Join(root, "python")) + `)
from payline import WebhookError, sign_webhook, verify_webhook
a = json.load(sys.stdin)
if a["op"] == "sign":
    print(json.dumps(sign_webhook(a["secret"], a["body"].encode(), at=a["at"])))
else:
    try:
        verify_webhook(a["secret"], a["headers"], a["body"].encode(), now=a["now"])
        print("ok")
    except WebhookError as e:
        print(e.reason)`
			args["op"] = op
			return script(t, exec.Command(python, "-c", py), args)
		}},
	}
}

// TestLibrariesAgree: a delivery signed by this package, the TypeScript
// package or the Python package verifies in the other two and in this one
// (which the server's own format test ties to the server), and a tampered
// body, a wrong secret and a stale timestamp are refused by all three.
func TestLibrariesAgree(t *testing.T) {
	const secret = "sk_sandbox_0123456789abcdef"
	body := `{"event":"paystubs.added","event_id":"e1","payload":{"account_id":"a"}}`
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	hs := helpers(t)
	signers := map[string]map[string]string{"go": {}}
	for k, v := range Sign(secret, at, []byte(body)) {
		signers["go"][strings.ToLower(k)] = v[0]
	}
	for _, h := range hs {
		var headers map[string]string
		if err := json.Unmarshal([]byte(h.run(t, "sign", map[string]any{"secret": secret, "body": body, "at": at.Unix()})), &headers); err != nil {
			t.Fatalf("%s sign: %v", h.name, err)
		}
		signers[h.name] = headers
	}
	for signer, headers := range signers {
		if headers["x-service-signature"] != signers["go"]["x-service-signature"] {
			t.Errorf("%s signs %s, Go %s", signer, headers["x-service-signature"], signers["go"]["x-service-signature"])
		}
		cases := []struct {
			name, secret, body string
			now                time.Time
			want               string
		}{
			{"good", secret, body, at.Add(time.Minute), "ok"},
			{"tampered body", secret, body + " ", at, "signature"},
			{"wrong secret", secret + "x", body, at, "signature"},
			{"stale", secret, body, at.Add(6 * time.Minute), "stale"},
		}
		for _, c := range cases {
			goHeader := http.Header{}
			for k, v := range headers {
				goHeader.Set(k, v)
			}
			got := "ok"
			if err := verifyAt(c.secret, goHeader, []byte(c.body), DefaultTolerance, c.now); err != nil {
				got = map[bool]string{true: "stale", false: "signature"}[errors.Is(err, ErrStale)]
			}
			if got != c.want {
				t.Errorf("signed by %s, %s, verified by Go: %s, want %s", signer, c.name, got, c.want)
			}
			for _, h := range hs {
				if got := h.run(t, "verify", map[string]any{"secret": c.secret, "headers": headers, "body": c.body, "now": c.now.Unix()}); got != c.want {
					t.Errorf("signed by %s, %s, verified by %s: %s, want %s", signer, c.name, h.name, got, c.want)
				}
			}
		}
	}
}

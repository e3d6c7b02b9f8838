package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"payline/domain"
)

// TestAuditList: customer and key changes made with the CLI, and webhook
// changes made through the API, appear in `payline audit list`, newest
// first, with who made them (the CLI or the key) and from where, in text
// and JSON, and only the named customer's when one is given. A refused
// change leaves no entry.
func TestAuditList(t *testing.T) {
	eachDatabase(t, func(t *testing.T, url string) {
		ctx, getenv := context.Background(), env("PAYLINE_MASTER_KEY", testMasterKey)
		cli := func(args ...string) (string, error) {
			var out bytes.Buffer
			err := run(ctx, append(args, "--database-url", url), &out, io.Discard, getenv)
			return out.String(), err
		}
		created := map[string]string{}
		for _, customer := range []string{"acme", "globex"} {
			out, err := cli("keys", "create", "--customer", customer, "--mode", "sandbox", "--json")
			if err != nil {
				t.Fatal(err)
			}
			var k struct {
				KeyID string `json:"key_id"`
			}
			if err := json.Unmarshal([]byte(out), &k); err != nil {
				t.Fatal(err)
			}
			created[customer] = k.KeyID
		}
		if _, err := cli("keys", "revoke", created["acme"]); err != nil {
			t.Fatal(err)
		}

		out, err := cli("audit", "list", "--customer", "acme", "--json")
		if err != nil {
			t.Fatal(err)
		}
		var got []map[string]string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var e map[string]string
			if err := json.Unmarshal([]byte(line), &e); err != nil {
				t.Fatalf("%v: %q", err, line)
			}
			got = append(got, e)
		}
		if len(got) != 3 || got[0]["action"] != domain.AuditKeyRevoked || got[1]["action"] != domain.AuditKeyCreated ||
			got[0]["target"] != created["acme"] || got[0]["actor"] != "cli" || got[0]["customer"] != "acme" || got[0]["mode"] != "sandbox" ||
			got[0]["address"] != "local" || got[2]["action"] != domain.AuditCustomerAdded || got[2]["mode"] != "" {
			t.Errorf("acme's audit log: %v", got)
		}

		text, err := cli("audit", "list", "--limit", "2")
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(text), "\n")
		if len(lines) != 3 || !strings.HasPrefix(lines[0], "AT (UTC)") || !strings.Contains(lines[1], domain.AuditKeyRevoked) {
			t.Errorf("audit list --limit 2:\n%s", text)
		}
		if _, err := cli("audit", "list", "--customer", "initech"); err == nil || !strings.Contains(err.Error(), "initech") {
			t.Errorf("unknown customer: %v", err)
		}

		// Webhook changes through the API: the key and the caller's address.
		k, err := cli("keys", "create", "--customer", "acme", "--mode", "sandbox", "--json")
		if err != nil {
			t.Fatal(err)
		}
		var key struct {
			KeyID  string `json:"key_id"`
			Secret string `json:"secret"`
		}
		if err := json.Unmarshal([]byte(k), &key); err != nil {
			t.Fatal(err)
		}
		m := startMain(t, url, io.Discard)
		defer m.Close(ctx)
		hook := `{"url": "https://127.0.0.1:9/hook", "version": "2025-07-08", "enabled_events": ["account.added"]}`
		if status, _ := apiPost(t, m.Addr(), key.Secret, "/v1/webhooks", `{"url": "ftp://x", "version": "2025-07-08", "enabled_events": []}`); status != 400 {
			t.Errorf("a bad webhook: %d", status)
		}
		status, body := apiPost(t, m.Addr(), key.Secret, "/v1/webhooks", hook)
		if status != 200 {
			t.Fatalf("create webhook: %d %v", status, body)
		}
		hookID := body["data"].(map[string]any)["id"].(string)
		for _, call := range []struct{ method, body string }{{"PUT", `{"status": "paused"}`}, {"DELETE", ""}} {
			if status, body, _, err := apiDo(nil, call.method, "http://"+m.Addr()+"/v1/webhooks/"+hookID, key.Secret, call.body, nil); err != nil || status != 200 {
				t.Fatalf("%s webhook: %d %v %v", call.method, status, body, err)
			}
		}
		out, err = cli("audit", "list", "--customer", "acme", "--json", "--limit", "3")
		if err != nil {
			t.Fatal(err)
		}
		want := []string{domain.AuditWebhookDeleted, domain.AuditWebhookUpdated, domain.AuditWebhookCreated}
		for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var e map[string]string
			if err := json.Unmarshal([]byte(line), &e); err != nil {
				t.Fatal(err)
			}
			if e["action"] != want[i] || e["target"] != hookID || e["actor"] != "key:"+key.KeyID || e["address"] != "127.0.0.1" {
				t.Errorf("entry %d: %v, want %s of %s by key:%s from 127.0.0.1", i, e, want[i], hookID, key.KeyID)
			}
		}
	})
}

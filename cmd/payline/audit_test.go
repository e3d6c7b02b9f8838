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

// TestAuditList: key changes made with the CLI appear in `payline audit
// list`, newest first, with the CLI as their actor, in text and JSON, and
// only the named customer's when one is given.
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
		if len(got) != 2 || got[0]["action"] != domain.AuditKeyRevoked || got[1]["action"] != domain.AuditKeyCreated ||
			got[0]["target"] != created["acme"] || got[0]["actor"] != "cli" || got[0]["customer"] != "acme" || got[0]["mode"] != "sandbox" {
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
	})
}

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"payline/domain"
	"payline/internal/testwait"
)

// TestDisputeNoticeThroughConnector: serve with an out-of-process
// connector (the sandbox over the connector protocol) tells the source of
// a disputed employment through the route that made the account: the
// dispute's River job sends the protocol's dispute notice, and the
// dispute records the connector's acknowledgement (its name and
// reference) as furnisher_notified_at; on both databases.
func TestDisputeNoticeThroughConnector(t *testing.T) {
	const secret = "dispute connector secret"
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
		_, tok := apiPost(t, m.Addr(), key, "/v1/link_tokens", `{"org_name": "Acme", "end_user_id": "disputer", "required_jobs": ["employment"]}`)
		status, sess := apiPost(t, m.Addr(), key, "/v1/sandbox/link_sessions", `{"token": "`+tok["data"].(map[string]any)["token"].(string)+`",
			"platform_id": "`+platformID+`", "username": "user_good", "password": "pass_good"}`)
		if status != 200 {
			t.Fatalf("link session: %d %v", status, sess)
		}
		account := sess["data"].(map[string]any)["account_id"].(string)
		status, opened := apiPost(t, m.Addr(), key, "/v1/end_users/disputer/disputes", `{"item": {"type": "employment", "id": "`+account+`"}, "note": "I left in May."}`)
		if status != 201 {
			t.Fatalf("open: %d %v", status, opened)
		}
		id := opened["data"].(map[string]any)["id"].(string)
		var notice map[string]any
		testwait.Every(100*time.Millisecond).Until(t, 30*time.Second, func() error {
			_, d := apiGet(t, m.Addr(), key, "/v1/disputes/"+id)
			notice = d["data"].(map[string]any)["furnisher_notice"].(map[string]any)
			if notice["status"] != "acknowledged" {
				return fmt.Errorf("the notice is %v", notice)
			}
			return nil
		})
		if notice["reference"] != "sandbox-dispute-"+id || notice["route"] == "sandbox" || notice["route"] == nil || notice["notified_at"] == nil {
			t.Errorf("the notice through the connector: %v", notice)
		}
	})
}

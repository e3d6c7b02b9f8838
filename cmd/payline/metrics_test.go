package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	_ "github.com/lib/pq"

	"payline/domain"
)

// scrape reads /metrics and returns the value of the first sample whose
// line matches pattern (a regexp over `name{labels}`), or -1.
func scrape(t *testing.T, addr, pattern string) float64 {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	re := regexp.MustCompile(`(?m)^` + pattern + ` ([0-9.e+-]+)$`)
	m := re.FindStringSubmatch(string(body))
	if m == nil {
		return -1
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	return v
}

func readyz(t *testing.T, addr string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&body)
	return resp.StatusCode, body
}

// TestMetricsAndReadiness: /metrics on --metrics-addr counts requests by
// route, jobs by type and outcome, webhook deliveries, rate-limit
// refusals, queue depth and pool stats, labelled with the instance; and
// /readyz turns 503 with the reason when the database goes away.
func TestMetricsAndReadiness(t *testing.T) {
	t.Parallel() // it mostly waits (processes, deliveries, timeouts): beside the other waiting tests
	eachDatabase(t, func(t *testing.T, dbURL string) {
		var out strings.Builder
		m := &Main{
			Config: ServeConfig{Addr: "127.0.0.1:0", DatabaseURL: dbURL, Mode: domain.ModeSandbox, MetricsAddr: "127.0.0.1:0", InstanceID: "test-1"},
			Stdout: writerFunc(func(p []byte) (int, error) { return out.Write(p) }), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
			Getenv: env("PAYLINE_MASTER_KEY", testMasterKey),
		}
		if err := m.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		defer m.Close(context.Background())
		secret := secretLine.FindStringSubmatch(out.String())[1]

		if status, body := readyz(t, m.Addr()); status != 200 || body["status"] != "ready" ||
			body["checks"].(map[string]any)["database"] != "ok" || body["checks"].(map[string]any)["queue"] != "ok" {
			t.Fatalf("readyz: %d %v", status, body)
		}
		linkThroughBinary(t, m.Addr(), secret)
		if v := scrape(t, m.MetricsAddr(), `payline_http_requests_total\{instance_id="test-1",method="POST",route="POST /v1/link_tokens",status="200"\}`); v != 1 {
			t.Errorf("link token requests counted %v, want 1", v)
		}
		if v := scrape(t, m.MetricsAddr(), `payline_jobs_total\{instance_id="test-1",job="direct_deposit_switch",outcome="success"\}`); v != 1 {
			t.Errorf("switch jobs counted %v, want 1", v)
		}
		if v := scrape(t, m.MetricsAddr(), `payline_queue_jobs\{instance_id="test-1",state="[a-z]+"\}`); v < 0 {
			t.Error("no queue depth")
		}
		if v := scrape(t, m.MetricsAddr(), `go_sql_max_open_connections\{db_name="payline",instance_id="test-1"\}`); v < 1 {
			t.Errorf("pool stats %v", v)
		}
		// A delivery to a closed port fails, and is counted as such.
		status, hook := apiPost(t, m.Addr(), secret, "/v1/webhooks", `{"url": "https://127.0.0.1:1/h", "version": "2025-07-08", "enabled_events": ["account.added"]}`)
		if status != 200 {
			t.Fatalf("webhook: %d %v", status, hook)
		}
		apiPost(t, m.Addr(), secret, "/v1/sandbox/webhooks/"+hook["data"].(map[string]any)["id"].(string)+"/test", "")
		if v := scrape(t, m.MetricsAddr(), `payline_webhook_deliveries_total\{instance_id="test-1",outcome="failed"\}`); v != 1 {
			t.Errorf("failed deliveries counted %v, want 1", v)
		}
		// Past the sandbox's 10 requests a second.
		for range 30 {
			apiGet(t, m.Addr(), secret, "/v1/platforms?limit=1")
		}
		if v := scrape(t, m.MetricsAddr(), `payline_rate_limited_total\{instance_id="test-1",mode="sandbox"\}`); v < 1 {
			t.Errorf("rate-limit refusals counted %v", v)
		}

		// The database goes away: readiness says so.
		if strings.HasPrefix(dbURL, "postgres") {
			u, _ := url.Parse(dbURL)
			name := strings.TrimPrefix(u.Path, "/")
			u.Path = "/postgres"
			admin, err := sql.Open("postgres", u.String())
			if err != nil {
				t.Fatal(err)
			}
			defer admin.Close()
			if _, err := admin.Exec(`DROP DATABASE ` + name + ` WITH (FORCE)`); err != nil {
				t.Fatal(err)
			}
		} else {
			m.db.Close()
		}
		status, body := readyz(t, m.Addr())
		checks, _ := body["checks"].(map[string]any)
		if status != 503 || body["status"] != "unavailable" || !strings.HasPrefix(checks["database"].(string), "unreachable: ") {
			t.Errorf("readyz without a database: %d %v", status, body)
		}
	})
}

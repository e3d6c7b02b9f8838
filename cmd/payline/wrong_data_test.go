package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"payline/domain"
	connectorpython "payline/examples/connector-python"
	"payline/internal/testwait"
)

var date = regexp.MustCompile(`[0-9]{4}-[0-9]{2}-[0-9]{2}`)

// TestWrongDataThroughPayline: behind --connector-url, a connector that
// answers wrong shapes (identity without full_name, paystubs without
// currency, periods or earnings; income without currency) gets its jobs
// ended in error with INVALID_CONNECTOR_DATA, nothing of those products
// stored or served, and a log line naming the fields and never a value.
func TestWrongDataThroughPayline(t *testing.T) {
	const secret = "wrong shapes secret"
	url, _ := connectorpython.Start(t, connectorpython.WrongShapes, secret)
	eachDatabase(t, func(t *testing.T, dbURL string) {
		var stdout bytes.Buffer
		logs := &lockedBuffer{}
		m := &Main{Config: ServeConfig{Addr: "127.0.0.1:0", DatabaseURL: dbURL, Mode: domain.ModeSandbox, PublicURL: "http://payline.test", ConnectorURL: url},
			Stdout: &stdout, Logger: slog.New(slog.NewTextHandler(logs, nil)),
			Getenv: env("PAYLINE_MASTER_KEY", testMasterKey, "PAYLINE_CONNECTOR_SECRET", secret)}
		if err := m.Start(context.Background()); err != nil {
			t.Fatalf("start: %v", err)
		}
		defer m.Close(context.Background())
		key := secretLine.FindStringSubmatch(stdout.String())[1]

		// Crooked Ledger Payroll, the second platform, lists income too.
		platform := connectorpython.WrongShapesPlatforms[1]
		status, tok := apiPost(t, m.Addr(), key, "/v1/link_tokens", `{"org_name": "Acme", "end_user_id": "wrong-1", "required_jobs": ["identity", "paystubs", "income"]}`)
		if status != 200 {
			t.Fatalf("link token: %d %v", status, tok)
		}
		data := tok["data"].(map[string]any)
		status, sess := apiPost(t, m.Addr(), key, "/v1/sandbox/link_sessions", `{"token": "`+data["token"].(string)+`",
			"platform_id": "`+platform+`", "username": "user_good", "password": "pass_good"}`)
		if status != 200 {
			t.Fatalf("link session: %d %v", status, sess)
		}
		account := sess["data"].(map[string]any)["account_id"].(string)

		var jobs []any
		testwait.Every(50*time.Millisecond).Until(t, 30*time.Second, func() error {
			_, got := apiGet(t, m.Addr(), key, "/v1/jobs?link_token_id="+data["id"].(string))
			jobs = got["data"].([]any)
			final := 0
			for _, j := range jobs {
				if o := j.(map[string]any)["outcome"]; o == "success" || o == "error" {
					final++
				}
			}
			if final != 3 {
				return fmt.Errorf("jobs: %v", jobs)
			}
			return nil
		})
		for _, j := range jobs {
			job := j.(map[string]any)
			if job["outcome"] != "error" || job["error_code"] != domain.CodeInvalidConnectorData || job["error_type"] != domain.ErrorTypePlatform {
				t.Errorf("job %v: outcome %v, %v/%v; want error, %s/%s", job["name"], job["outcome"], job["error_type"], job["error_code"],
					domain.ErrorTypePlatform, domain.CodeInvalidConnectorData)
			}
		}

		// Nothing of the wrong data is served: no identity or income, no
		// paystub (so none with an empty currency or a year-one date).
		for _, product := range []string{"identity", "income"} {
			if status, body := apiGet(t, m.Addr(), key, "/v1/accounts/"+account+"/"+product); status != 404 {
				t.Errorf("%s: %d %v, want 404 (never stored)", product, status, body)
			}
		}
		_, stubs := apiGet(t, m.Addr(), key, "/v1/accounts/"+account+"/paystubs")
		if list, _ := stubs["data"].([]any); len(list) != 0 {
			t.Errorf("paystubs served: %v", list)
		}

		// The log names each product's bad fields, never their values.
		log := logs.String()
		for _, want := range []string{"full_name", "address", "currency", "pay_period_start", "earnings", "invalid_fields"} {
			if !strings.Contains(log, want) {
				t.Errorf("the log does not name %s:\n%s", want, log)
			}
		}
		for _, line := range strings.Split(log, "\n") {
			if !strings.Contains(line, "invalid_fields") {
				continue
			}
			_, rest, _ := strings.Cut(line, " level=") // past the log's own time
			if date.MatchString(rest) {
				t.Errorf("the log line holds a date of the wrong data: %s", line)
			}
		}
	})
}

// TestConnectorPlatformsMustBeKnown: a connector listing a platform of a
// type, or with a job, protocol v1 does not have stops serve with one
// line naming it, instead of storing the platform with an empty type.
func TestConnectorPlatformsMustBeKnown(t *testing.T) {
	for name, c := range map[string]struct{ platform, want string }{
		"type": {`{"id": "p-1", "name": "Odd Payroll", "type": "payrolls", "jobs": ["identity"], "products": ["identity"]}`, `type "payrolls"`},
		"job":  {`{"id": "p-1", "name": "Odd Payroll", "type": "payroll", "jobs": ["identity", "horoscope"], "products": ["identity"]}`, `job "horoscope"`},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"protocol_version": "1", "name": "odd", "platforms": [%s]}`, c.platform)
		}))
		m := &Main{Config: ServeConfig{Addr: "127.0.0.1:0", DatabaseURL: "sqlite:" + t.TempDir() + "/p.db", Mode: domain.ModeSandbox, ConnectorURL: srv.URL},
			Stdout: io.Discard, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
			Getenv: env("PAYLINE_MASTER_KEY", testMasterKey, "PAYLINE_CONNECTOR_SECRET", "odd secret")}
		err := m.Start(context.Background())
		if err == nil {
			m.Close(context.Background())
		}
		srv.Close()
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "Odd Payroll") {
			t.Errorf("%s: %v; want an error naming Odd Payroll and %s", name, err, c.want)
		}
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"payline/domain"
	"payline/internal/testwait"
	"payline/storage"
	"payline/storage/storagetest"
)

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" { // a child process started by startProcess
		main()
		return
	}
	// The servers these tests start hold up to 28 PostgreSQL connections
	// each: two parallel tests at a time stay under PostgreSQL's default
	// max_connections (100) on a machine of any size, where -parallel
	// would default to its core count. An explicit -parallel wins (CI runs
	// the relay tests four at a time).
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit {
		if err := flag.Set("test.parallel", "2"); err != nil {
			panic(err)
		}
	}
	os.Exit(storagetest.Main(m))
}

var testMasterKey = strings.Repeat("ab", 32)

// env returns a getenv with the given variables and nothing else, so the
// machine's environment cannot leak into a test.
func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func eachDatabase(t *testing.T, fn func(t *testing.T, url string)) {
	for _, d := range storagetest.DialectList() {
		t.Run(string(d), func(t *testing.T) {
			var url string
			if d == storage.SQLite {
				url = "sqlite:" + filepath.Join(t.TempDir(), "payline.db")
			} else {
				url = storagetest.NewURL(t, storage.Postgres, storagetest.Empty)
			}
			fn(t, url)
		})
	}
}

func startMain(t *testing.T, url string, stdout io.Writer) *Main {
	t.Helper()
	m := &Main{
		Config: ServeConfig{Addr: "127.0.0.1:0", DatabaseURL: url, Mode: domain.ModeSandbox, PublicURL: "http://payline.test"},
		Stdout: stdout, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Getenv: env("PAYLINE_MASTER_KEY", testMasterKey),
	}
	if err := m.Start(context.Background()); err != nil {
		t.Fatalf("start: %v", err)
	}
	return m
}

var secretLine = regexp.MustCompile(`(?m)^    ([0-9a-f]{64})$`)

func apiGet(t *testing.T, base, secret, path string) (int, map[string]any) {
	t.Helper()
	status, body, _, err := apiDo(nil, "GET", "http://"+base+path, secret, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return status, body
}

// apiDo makes one API call with the secret and version headers (and a
// JSON content type when there is a body) plus any extra headers, on
// client or the default one, and decodes the JSON answer.
func apiDo(client *http.Client, method, url, secret, body string, extra http.Header) (int, map[string]any, http.Header, error) {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("x-api-secret", secret)
	req.Header.Set("Service-Version", domain.LatestVersion)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range extra {
		req.Header[k] = v
	}
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out, resp.Header, nil
}

// TestServeFreshDatabase is the README's first command: a fresh database
// starts, prints a usable secret once, and answers the README's curl.
func TestServeFreshDatabase(t *testing.T) {
	eachDatabase(t, func(t *testing.T, url string) {
		var out bytes.Buffer
		m := startMain(t, url, &out)
		match := secretLine.FindStringSubmatch(out.String())
		if match == nil {
			t.Fatalf("no secret printed:\n%s", out.String())
		}
		if !strings.Contains(out.String(), "curl -H 'x-api-secret: "+match[1]+"' -H 'Service-Version: 2025-07-08' 'http://payline.test/v1/search?q=a'") {
			t.Errorf("the printed curl does not use the secret and public URL:\n%s", out.String())
		}
		status, body := apiGet(t, m.Addr(), match[1], "/v1/search?q=a")
		if status != 200 || len(body["data"].([]any)) == 0 {
			t.Fatalf("search: %d %v", status, body)
		}
		// The dashboards' GraphQL is served by the same process and key.
		req, _ := http.NewRequest("POST", "http://"+m.Addr()+"/graphql",
			strings.NewReader(`{"query":"{ employers(first: 2) { edges { node { name platform { type } } } } }"}`))
		req.Header.Set("x-api-secret", match[1])
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		gql, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(gql), `"type":"payroll"`) {
			t.Errorf("graphql: %d %s", resp.StatusCode, gql)
		}
		// Link through the real wiring: token, sandbox login, jobs run by River.
		linkThroughBinary(t, m.Addr(), match[1])
		if err := m.Close(context.Background()); err != nil {
			t.Fatal(err)
		}

		// A restart keeps the key and prints no new secret.
		var again bytes.Buffer
		m = startMain(t, url, &again)
		defer m.Close(context.Background())
		if secretLine.MatchString(again.String()) {
			t.Errorf("restart printed a new secret:\n%s", again.String())
		}
		if status, _ := apiGet(t, m.Addr(), match[1], "/v1/employers?limit=1"); status != 200 {
			t.Errorf("the first secret stopped working after a restart: %d", status)
		}
	})
}

// TestKeysCommands runs the operator's key commands and checks the keys
// they make work, and stop working, against a running server.
func TestKeysCommands(t *testing.T) {
	t.Parallel() // it mostly waits (processes, deliveries, timeouts): beside the other waiting tests
	eachDatabase(t, func(t *testing.T, url string) {
		ctx := context.Background()
		getenv := env("PAYLINE_MASTER_KEY", testMasterKey)
		cmd := func(args ...string) (string, error) {
			var out, errOut bytes.Buffer
			err := run(ctx, append(args, "--database-url", url), &out, &errOut, getenv)
			return out.String() + errOut.String(), err
		}
		out, err := cmd("keys", "create", "--customer", "globex", "--mode", "sandbox", "--json")
		if err != nil {
			t.Fatalf("keys create: %v\n%s", err, out)
		}
		var created struct{ CustomerID, KeyID, Secret, Mode string }
		var raw map[string]string
		if err := json.Unmarshal([]byte(out), &raw); err != nil || len(raw) != 4 {
			t.Fatalf("--json printed %q", out)
		}
		created.CustomerID, created.KeyID, created.Secret, created.Mode = raw["customer_id"], raw["key_id"], raw["secret"], raw["mode"]
		if !domain.ValidID(created.CustomerID) || !domain.ValidID(created.KeyID) || len(created.Secret) != 64 || created.Mode != "sandbox" {
			t.Fatalf("--json object %v", raw)
		}

		if out, err := cmd("customers", "create", "initech"); err != nil || !strings.Contains(out, "initech") {
			t.Errorf("customers create: %v %s", err, out)
		}
		if out, err := cmd("customers", "create", "initech"); err == nil {
			t.Errorf("duplicate customer accepted: %s", out)
		}
		out, err = cmd("keys", "list")
		if err != nil || !strings.Contains(out, created.KeyID) || strings.Contains(out, created.Secret) {
			t.Errorf("keys list: %v\n%s", err, out)
		}

		var stdout bytes.Buffer
		m := startMain(t, url, &stdout)
		defer m.Close(context.Background())
		if status, _ := apiGet(t, m.Addr(), created.Secret, "/v1/platforms?limit=1"); status != 200 {
			t.Fatalf("new key refused: %d", status)
		}
		if out, err := cmd("keys", "revoke", created.KeyID); err != nil {
			t.Fatalf("revoke: %v %s", err, out)
		}
		// Another process revoked it: the server's auth cache may hold it
		// for up to AuthCacheTTL.
		var refused map[string]any
		testwait.Every(200*time.Millisecond).Eventually(t, domain.AuthCacheTTL+3*time.Second, func() bool {
			status, body := apiGet(t, m.Addr(), created.Secret, "/v1/platforms?limit=1")
			refused = body
			return status == 401
		}, "revoked key still accepted after %s", domain.AuthCacheTTL)
		if code := refused["error"].(map[string]any)["code"]; code != domain.CodeRevokedAPISecret {
			t.Errorf("revoked key refused with %v", code)
		}
		if out, err := cmd("keys", "revoke", domain.NewID()); err == nil {
			t.Errorf("revoking an unknown key succeeded: %s", out)
		}
		if out, _ := cmd("keys", "list", "--customer", "globex"); !strings.Contains(out, "revoked") {
			t.Errorf("keys list does not show the revocation:\n%s", out)
		}
	})
}

func TestMasterKeyFile(t *testing.T) {
	dir := t.TempDir()
	url := "sqlite:" + filepath.Join(dir, "p.db")
	var out bytes.Buffer
	if err := run(context.Background(), []string{"keys", "create", "--customer", "a", "--mode", "sandbox", "--database-url", url}, &out, io.Discard, env()); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(filepath.Join(dir, "p.db.master-key"))
	if err != nil {
		t.Fatalf("no key file beside the database: %v", err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v, want 0600", info.Mode().Perm())
	}
	b, _ := os.ReadFile(filepath.Join(dir, "p.db.master-key"))
	if k, err := hex.DecodeString(strings.TrimSpace(string(b))); err != nil || len(k) != 32 {
		t.Errorf("key file holds %q", b)
	}
	secret := regexp.MustCompile(`[0-9a-f]{64}`).FindString(out.String())
	dbBytes, _ := os.ReadFile(filepath.Join(dir, "p.db"))
	wal, _ := os.ReadFile(filepath.Join(dir, "p.db-wal"))
	if secret == "" || bytes.Contains(dbBytes, []byte(secret)) || bytes.Contains(wal, []byte(secret)) {
		t.Error("the plain secret is in the database file")
	}

	pg := storagetest.NewURL(t, storage.Postgres, storagetest.Empty)
	err = run(context.Background(), []string{"keys", "list", "--database-url", pg}, io.Discard, io.Discard, env())
	if err == nil || !strings.Contains(err.Error(), "PAYLINE_MASTER_KEY") {
		t.Errorf("postgres without a master key: %v", err)
	}
}

func TestServeShutsDownOnSignal(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "payline.db")
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	var out bytes.Buffer
	w := writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return out.Write(p) })
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--database-url", url}, w, io.Discard, env())
	}()
	testwait.Eventually(t, 20*time.Second, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return secretLine.MatchString(out.String())
	}, "serve did not start")
	cancel() // what SIGINT/SIGTERM do through signal.NotifyContext
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve returned %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not shut down")
	}
}

func apiPost(t *testing.T, base, secret, path, body string) (int, map[string]any) {
	t.Helper()
	status, out, _, err := apiDo(nil, "POST", "http://"+base+path, secret, body, nil)
	if err != nil {
		t.Fatal(err)
	}
	return status, out
}

// linkThroughBinary links a sandbox account for end user e2e through the
// API with a deposit switch and the given read jobs, waits until every job
// succeeded, and returns the account's id.
func linkThroughBinary(t *testing.T, addr, secret string, reads ...string) string {
	t.Helper()
	_, search := apiGet(t, addr, secret, "/v1/search?q=summit+payroll&response_types=platform")
	platformID := search["data"].([]any)[0].(map[string]any)["id"].(string)
	jobs := append([]string{"direct_deposit_switch"}, reads...)
	status, tok := apiPost(t, addr, secret, "/v1/link_tokens", `{"org_name": "Acme Bank", "end_user_id": "e2e",
		"required_jobs": ["`+strings.Join(jobs, `", "`)+`"], "allocation": {"targets": [{"type": "checking", "account_number": "123456789", "routing_number": "011000015"}]}}`)
	if status != 200 {
		t.Fatalf("link token: %d %v", status, tok)
	}
	data := tok["data"].(map[string]any)
	status, sess := apiPost(t, addr, secret, "/v1/sandbox/link_sessions", `{"token": "`+data["token"].(string)+`", "platform_id": "`+platformID+`",
		"username": "user_good", "password": "pass_good"}`)
	if status != 200 {
		t.Fatalf("link session: %d %v", status, sess)
	}
	testwait.Every(100*time.Millisecond).Until(t, 20*time.Second, func() error {
		_, succeeded := apiGet(t, addr, secret, "/v1/jobs?outcome=success&link_token_id="+data["id"].(string))
		if len(succeeded["data"].([]any)) != len(jobs) {
			return fmt.Errorf("the jobs %v did not all succeed through the binary: %v", jobs, succeeded)
		}
		return nil
	})
	return sess["data"].(map[string]any)["account_id"].(string)
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestCommandLineErrors(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"frobnicate"},
		{"keys"},
		{"keys", "create", "--customer", "a"},
		{"keys", "create", "--customer", "a", "--mode", "staging"},
		{"keys", "revoke"},
		{"serve", "--mode", "staging"},
		{"serve", "--no-such-flag"},
		{"directory"},
	} {
		err := run(context.Background(), args, io.Discard, io.Discard, env())
		if !errors.Is(err, errUsage) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	err := run(context.Background(), []string{"migrate", "--database-url", "mysql://x"}, io.Discard, io.Discard, env())
	if err == nil || !strings.Contains(err.Error(), "sqlite:PATH or postgres://") {
		t.Errorf("bad database url: %v", err)
	}
	// A bad value is named with what it must be, not only the usage line.
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"keys", "create", "--customer", "a", "--mode", "prod"}, `--mode "prod": must be sandbox, development or production`},
		{[]string{"keys", "create", "--mode", "sandbox"}, "--customer is required"},
		{[]string{"serve", "--log-level", "loud"}, `--log-level "loud": must be debug, info, warn or error`},
		{[]string{"webhooks", "listen", "--help"}, "PAYLINE_API_SECRET"},
	} {
		var stderr bytes.Buffer
		_ = run(context.Background(), c.args, io.Discard, &stderr, env())
		if !strings.Contains(stderr.String(), c.says) {
			t.Errorf("%v says %q; want it to say %q", c.args, stderr.String(), c.says)
		}
	}
	var help bytes.Buffer
	_ = run(context.Background(), []string{"help"}, &help, &help, env())
	for _, cmd := range []string{"keys rotate-master", "members add", "webhooks listen", "reports render"} {
		if !strings.Contains(help.String(), cmd) {
			t.Errorf("payline help does not name %s", cmd)
		}
	}
	if plural(1, "employment") != "1 employment" || plural(2, "employment") != "2 employments" {
		t.Error("plural forms")
	}
}

// TestQueueLogsOnlyWarnings: the job queue's own INFO lines (clients
// starting and stopping, poll modes) stay out of the log unless the log
// level is debug.
func TestQueueLogsOnlyWarnings(t *testing.T) {
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
		var logs bytes.Buffer
		m := &Main{Config: ServeConfig{Addr: "127.0.0.1:0", DatabaseURL: "sqlite:" + filepath.Join(t.TempDir(), "p.db"), Mode: domain.ModeSandbox},
			Stdout: io.Discard, Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: level})),
			Getenv: env("PAYLINE_MASTER_KEY", testMasterKey)}
		if err := m.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		m.Close(context.Background())
		riverInfo := strings.Contains(logs.String(), `msg="River client started"`)
		if riverInfo != (level == slog.LevelDebug) {
			t.Errorf("at %s the queue's start line logged: %v\n%s", level, riverInfo, logs.String())
		}
		if !strings.Contains(logs.String(), "payline listening") {
			t.Errorf("at %s Payline's own INFO line is missing", level)
		}
	}
}

func TestDirectorySeedAndMigrate(t *testing.T) {
	eachDatabase(t, func(t *testing.T, url string) {
		var out bytes.Buffer
		if err := run(context.Background(), []string{"migrate", "--database-url", url}, &out, io.Discard, env()); err != nil {
			t.Fatal(err)
		}
		out.Reset()
		if err := run(context.Background(), []string{"directory", "seed", "--employers", "120", "--database-url", url}, &out, io.Discard, env()); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "seeded 120 employers") {
			t.Errorf("seed printed %q", out.String())
		}
	})
}

// TestReportsRenderCommand: `payline reports render` writes an end user's
// VOIE from what a running server stored, on both databases: readable by
// its owner only (also over a file that was there), or to standard output
// with -o -; its reference says "not stored" rather than a stored report's
// id, and the render is audited.
func TestReportsRenderCommand(t *testing.T) {
	eachDatabase(t, func(t *testing.T, url string) {
		var out bytes.Buffer
		m := startMain(t, url, &out)
		defer m.Close(context.Background())
		secret := secretLine.FindStringSubmatch(out.String())[1]
		_, search := apiGet(t, m.Addr(), secret, "/v1/search?q=summit+payroll&response_types=platform")
		platformID := search["data"].([]any)[0].(map[string]any)["id"].(string)
		_, tok := apiPost(t, m.Addr(), secret, "/v1/link_tokens", `{"org_name": "Acme Bank", "end_user_id": "cli-user",
			"required_jobs": ["identity", "employment", "income", "paystubs"]}`)
		data := tok["data"].(map[string]any)
		if status, sess := apiPost(t, m.Addr(), secret, "/v1/sandbox/link_sessions", `{"token": "`+data["token"].(string)+`",
			"platform_id": "`+platformID+`", "username": "user_good", "password": "pass_good"}`); status != 200 {
			t.Fatalf("link session: %d %v", status, sess)
		}
		testwait.Every(100*time.Millisecond).Until(t, 20*time.Second, func() error {
			_, jobs := apiGet(t, m.Addr(), secret, "/v1/jobs?outcome=success&link_token_id="+data["id"].(string))
			if len(jobs["data"].([]any)) != 4 {
				return fmt.Errorf("jobs did not finish: %v", jobs)
			}
			return nil
		})
		// The report as the API stores it, whose id a render must not claim.
		_, stored := apiGet(t, m.Addr(), secret, "/v1/end_users/cli-user/verification_reports/voie")
		storedID := stored["data"].(map[string]any)["id"].(string)
		pdf := filepath.Join(t.TempDir(), "voie.pdf")
		if err := os.WriteFile(pdf, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), []string{"reports", "render", "--end-user", "cli-user", "-o", pdf, "--database-url", url},
			&stdout, &stderr, env("PAYLINE_MASTER_KEY", testMasterKey))
		if err != nil {
			t.Fatalf("reports render: %v\n%s", err, stderr.String())
		}
		b, err := os.ReadFile(pdf)
		if err != nil || !bytes.HasPrefix(b, []byte("%PDF-")) || !strings.Contains(stdout.String(), "voie report") ||
			!strings.Contains(stdout.String(), "not stored") {
			t.Fatalf("rendered %d bytes (%v): %s", len(b), err, stdout.String())
		}
		if fi, err := os.Stat(pdf); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("the PDF's mode: %v, %v; want 0600", fi.Mode().Perm(), err)
		}
		text := pdfText(t, b)
		if !strings.Contains(text, "not stored") || strings.Contains(text, storedID) {
			t.Errorf("the rendered PDF's reference: want \"not stored\", never the stored %s", storedID)
		}
		stdout.Reset()
		stderr.Reset()
		if err := run(context.Background(), []string{"reports", "render", "--end-user", "cli-user", "-o", "-", "--database-url", url},
			&stdout, &stderr, env("PAYLINE_MASTER_KEY", testMasterKey)); err != nil {
			t.Fatalf("reports render -o -: %v\n%s", err, stderr.String())
		}
		if !bytes.HasPrefix(stdout.Bytes(), []byte("%PDF-")) || !strings.Contains(stderr.String(), "voie report") {
			t.Errorf("-o - wrote %.20q to stdout and %q to stderr", stdout.Bytes(), stderr.String())
		}
		if _, err := os.Stat("-"); err == nil {
			t.Error("-o - made a file named -")
		}
		db, err := storage.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var renders int
		if err := db.GetContext(context.Background(), &renders, `SELECT count(*) FROM audit_log WHERE action = 'report.rendered' AND actor = 'cli'`); err != nil || renders != 2 {
			t.Errorf("%d renders audited (%v), want 2", renders, err)
		}
		err = run(context.Background(), []string{"reports", "render", "--end-user", "nobody", "-o", pdf, "--database-url", url},
			io.Discard, io.Discard, env("PAYLINE_MASTER_KEY", testMasterKey))
		if err == nil || !strings.Contains(err.Error(), "END_USER_NOT_FOUND") {
			t.Errorf("an unknown end user: %v", err)
		}
	})
}

// TestPostgresWithoutKeyCreatesNothing: serve on PostgreSQL without a
// master key is refused before it creates or migrates anything, so a
// mistyped start leaves the server as it was.
func TestPostgresWithoutKeyCreatesNothing(t *testing.T) {
	server := storagetest.PostgresServer(t)
	u, err := neturl.Parse(server)
	if err != nil {
		t.Fatal(err)
	}
	name := "payline_nokey_" + strings.ReplaceAll(domain.NewID()[:8], "-", "")
	u.Path = "/" + name
	var errOut bytes.Buffer
	err = run(context.Background(), []string{"serve", "--database-url", u.String(), "--addr", "127.0.0.1:0"}, io.Discard, &errOut, env())
	if err == nil || !strings.Contains(err.Error()+errOut.String(), "PAYLINE_MASTER_KEY") {
		t.Fatalf("serve without a key: %v %s", err, errOut.String())
	}
	admin, err := storage.Open(context.Background(), server)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	var n int
	if err := admin.GetContext(context.Background(), &n, `SELECT count(*) FROM pg_database WHERE datname = $1`, name); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("a refused start created database %s", name)
	}
}

// pdfText is a PDF's text by pdftotext (poppler-utils, which CI installs;
// elsewhere a missing pdftotext skips the test).
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("pdftotext is missing: CI must check the PDFs (apt-get install poppler-utils)")
		}
		t.Skip("*** SKIPPING: pdftotext not installed (apt-get install poppler-utils) ***")
	}
	cmd := exec.Command(bin, "-", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"payline/domain"
)

// runMainEnv makes the test binary act as `payline` itself (see TestMain),
// so tests can start real `payline serve` processes without a build step.
const runMainEnv = "PAYLINE_TEST_RUN_MAIN"

// process is a `payline serve` started by a test.
type process struct {
	addr string
	mu   sync.Mutex
	out  bytes.Buffer // stdout: the first start's one-time secret
	logs bytes.Buffer // stderr
}

func (p *process) stdout() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

var listeningAddr = regexp.MustCompile(`msg="payline listening" .*\baddr=(\S+)`)

// startProcess runs `payline serve` on url in a child process and waits
// for it to listen. It is stopped with SIGTERM when the test ends.
func startProcess(t *testing.T, url string, args ...string) *process {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"serve", "--addr", "127.0.0.1:0", "--database-url", url}, args...)...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1", "PAYLINE_MASTER_KEY="+testMasterKey)
	p := &process{}
	cmd.Stdout = writerFunc(func(b []byte) (int, error) { p.mu.Lock(); defer p.mu.Unlock(); return p.out.Write(b) })
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	listening := make(chan string, 1)
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		s := bufio.NewScanner(stderr)
		for s.Scan() {
			p.mu.Lock()
			p.logs.WriteString(s.Text() + "\n")
			p.mu.Unlock()
			if m := listeningAddr.FindStringSubmatch(s.Text()); m != nil {
				listening <- m[1]
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { <-scanned; done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("payline serve %v exited with %v", args, err)
			}
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			t.Errorf("payline serve %v did not stop on SIGTERM", args)
		}
		if t.Failed() {
			p.mu.Lock()
			t.Logf("payline serve %v logged:\n%s", args, p.logs.String())
			p.mu.Unlock()
		}
	})
	select {
	case p.addr = <-listening:
		return p
	case <-scanned:
		t.Fatalf("payline serve %v exited before listening:\n%s", args, p.logs.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("payline serve %v did not listen within 60 s", args)
	}
	return nil
}

// nodeScript returns the graphql-ws test client's directory with its
// packages installed. Node and npm are required: missing, the test fails.
func nodeScript(t *testing.T) (node, dir string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("this test needs Node.js 20 or later on PATH: %v", err)
	}
	dir = filepath.Join("testdata", "graphql-ws")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "graphql-ws", "package.json")); err != nil {
		npm, err := exec.LookPath("npm")
		if err != nil {
			t.Fatalf("this test needs npm to install its packages: %v", err)
		}
		cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
		}
	}
	return node, dir
}

// TestNodeGraphQLWS is the dashboard's live view as a JavaScript client
// sees it: the graphql-ws package subscribes to jobUpdated, a sandbox Link
// session completes through REST, and every job of the session arrives
// with its final outcome. On PostgreSQL the subscriber's instance runs no
// workers, so each update can only cross from the process that ran the job
// to the one holding the socket through LISTEN/NOTIFY. The test waits for
// the updates; how long they took against the 1 s bar is logged, not
// asserted, since a loaded machine delays a push without breaking it.
func TestNodeGraphQLWS(t *testing.T) {
	node, dir := nodeScript(t)
	eachDatabase(t, func(t *testing.T, url string) {
		worker := startProcess(t, url)
		secret := secretLine.FindStringSubmatch(worker.stdout())
		if secret == nil {
			t.Fatalf("no secret printed:\n%s", worker.stdout())
		}
		subscriber := worker
		if strings.HasPrefix(url, "postgres") {
			subscriber = startProcess(t, url, "--workers=false")
			if subscriber.addr == worker.addr {
				t.Fatal("the two instances share an address")
			}
		}
		_, search := apiGet(t, worker.addr, secret[1], "/v1/search?q=summit+payroll&response_types=platform")
		platformID := search["data"].([]any)[0].(map[string]any)["id"].(string)

		cmd := exec.Command(node, "subscribe.mjs")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "API_URL=http://"+worker.addr, "SUB_URL=http://"+subscriber.addr,
			"SECRET="+secret[1], "PLATFORM_ID="+platformID)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		var result struct {
			OK         bool     `json:"ok"`
			Error      string   `json:"error"`
			MaxLatency float64  `json:"max_latency_ms"`
			BoundMS    float64  `json:"bound_ms"`
			OverBound  []string `json:"over_bound"`
			Jobs       []struct {
				Name      string  `json:"name"`
				Outcome   string  `json:"outcome"`
				Delivered bool    `json:"delivered"`
				Latency   float64 `json:"latency_ms"`
			} `json:"jobs"`
		}
		if jerr := json.Unmarshal(bytes.TrimSpace(out), &result); jerr != nil || err != nil || !result.OK {
			t.Fatalf("node subscribe.mjs: %v\nstdout: %s\nstderr: %s", err, out, stderr.String())
		}
		if len(result.Jobs) != 5 {
			t.Fatalf("want the session's 5 jobs, got %s", out)
		}
		for _, j := range result.Jobs {
			if !j.Delivered || j.Outcome != "success" {
				t.Errorf("job %s: %+v", j.Name, j)
			}
		}
		t.Logf("%d jobs; the slowest update arrived %.0f ms after its commit", len(result.Jobs), result.MaxLatency)
		if len(result.OverBound) > 0 {
			t.Logf("above the %.0f ms bar of the architecture's quality bars: %v", result.BoundMS, result.OverBound)
		}
	})
}

// TestNodeIntrospection: graphql-js's getIntrospectionQuery() against a
// running server builds a client schema identical to docs/schema.graphql,
// as GraphiQL, codegen and IDE plugins would read it; with
// --graphql-introspection=false the same query answers
// INTROSPECTION_DISABLED, never UNKNOWN_ERROR.
func TestNodeIntrospection(t *testing.T) {
	node, dir := nodeScript(t)
	url := "sqlite:" + filepath.Join(t.TempDir(), "payline.db")
	var out bytes.Buffer
	m := startMain(t, url, &out)
	defer m.Close(context.Background())
	secret := secretLine.FindStringSubmatch(out.String())[1]
	cmd := exec.Command(node, "introspect.mjs")
	cmd.Dir = dir
	schema, err := filepath.Abs(filepath.Join("..", "..", "docs", "schema.graphql"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(os.Environ(), "API_URL=http://"+m.Addr(), "SECRET="+secret, "SCHEMA_FILE="+schema)
	got, err := cmd.Output()
	var result struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
		Types int    `json:"types"`
	}
	if jerr := json.Unmarshal(bytes.TrimSpace(got), &result); jerr != nil || err != nil || !result.OK {
		t.Fatalf("node introspect.mjs: %v\n%s", err, got)
	}
	t.Logf("the introspected schema has %d types and matches docs/schema.graphql", result.Types)

	off, err := startServe(t, ServeConfig{Mode: domain.ModeSandbox, NoIntrospection: true}, &out)
	if err != nil {
		t.Fatal(err)
	}
	offSecret := secretLine.FindAllStringSubmatch(out.String(), -1)
	status, body, _, err := apiDo(nil, "POST", "http://"+off.Addr()+"/graphql", offSecret[len(offSecret)-1][1],
		`{"query": "{ __schema { types { name } } }"}`, nil)
	if err != nil || status != 200 || fmt.Sprint(body["errors"]) == "" ||
		!strings.Contains(fmt.Sprint(body["errors"]), domain.CodeIntrospectionDisabled) {
		t.Errorf("introspection when off: %d %v %v", status, body, err)
	}
}

// Package connectorpython runs the example Python connector, and the test
// connectors beside it, for Go tests anywhere in the module: Start(t,
// WrongShapes, secret) serves testdata/wrong_shapes.py until the test
// ends. The Python is the example; this package only starts it.
package connectorpython

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"payline/connectors/protocol"
)

// The scripts Start runs, relative to the example's directory.
const (
	// Example is the example connector (Acme Paydesk, Tickwork Timeclock).
	Example = "connector.py"
	// WrongShapes speaks the protocol well and answers wrong data on two
	// platforms (WrongShapesPlatforms): identity as {name, date_of_birth},
	// paystubs with only an id, a pay date and four amounts, and on the
	// second income without a currency and an allocation with an
	// eight-digit routing number.
	WrongShapes = "testdata/wrong_shapes.py"
)

// WrongShapesPlatforms are the ids of WrongShapes's platforms, Wrongway
// Payroll and Crooked Ledger Payroll, both payroll.
var WrongShapesPlatforms = [2]string{"530a2dff-fc08-5bca-93a5-6a33c66801e4", "c0a132d5-dd8f-5a40-83d3-4d19308226b9"}

// Python3 is the interpreter the connectors run with: python3 on PATH,
// 3.11 or newer. Without it the test skips, loudly, except under CI=true
// where it fails.
func Python3(t testing.TB) string {
	t.Helper()
	missing := func(why string) {
		if os.Getenv("CI") == "true" {
			t.Fatal("the Python connectors need Python 3.11+ as python3 under CI=true: " + why)
		}
		t.Skip("*** SKIPPING: the Python connectors need Python 3.11+ as python3: " + why + " (under CI=true this fails instead) ***")
	}
	path, err := exec.LookPath("python3")
	if err != nil {
		missing("python3 is not on PATH")
	}
	out, err := exec.Command(path, "-c", "import sys; print('%d.%d' % sys.version_info[:2]); sys.exit(sys.version_info < (3, 11))").CombinedOutput()
	if err != nil {
		missing(fmt.Sprintf("%s is Python %s, not 3.11+", path, strings.TrimSpace(string(out))))
	}
	return path
}

// Dir is the example's directory, found from the test's working
// directory (any package of the module).
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if mod, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(mod, []byte("module payline\n")) {
			return filepath.Join(dir, "examples", "connector-python")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no payline module above the working directory")
		}
		dir = parent
	}
}

// Logs are a connector's log lines (its stderr and stdout).
type Logs struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *Logs) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *Logs) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// Start runs script (Example or WrongShapes) on a free loopback port,
// with secret as PAYLINE_CONNECTOR_SECRET and args after its --addr (such
// as "--pending-seconds", "2"), and returns its base URL once it answers a
// signed capabilities request, and its log. The process is killed when
// the test ends; the log is shown if the test failed.
func Start(t testing.TB, script, secret string, args ...string) (string, *Logs) {
	t.Helper()
	py := Python3(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	logs := &Logs{}
	cmd := exec.Command(py, append([]string{script, "--addr", addr}, args...)...)
	cmd.Dir = Dir(t)
	cmd.Env = append(os.Environ(), "PAYLINE_CONNECTOR_SECRET="+secret, "PYTHONDONTWRITEBYTECODE=1", "PYTHONUNBUFFERED=1")
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }() // killed below: its exit status says nothing
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // fails only when it has exited already
		<-exited
		if t.Failed() {
			t.Logf("%s's log:\n%s", script, logs)
		}
	})
	base := "http://" + addr
	deadline := time.Now().Add(15 * time.Second)
	for {
		if answered(base, secret) {
			return base, logs
		}
		select {
		case <-exited:
			t.Fatalf("%s exited before it answered:\n%s", script, logs)
		case <-time.After(100 * time.Millisecond): // a process starting: nothing to wait on but its port
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not answer on %s within 15 s:\n%s", script, addr, logs)
		}
	}
}

// answered says whether the connector at base answers a signed
// capabilities request with 200.
func answered(base, secret string) bool {
	req, err := http.NewRequest(http.MethodGet, base+protocol.PathCapabilities, nil)
	if err != nil {
		return false
	}
	ts := time.Now().Unix()
	req.Header.Set(protocol.HeaderTimestamp, strconv.FormatInt(ts, 10))
	req.Header.Set(protocol.HeaderSignature, protocol.Sign(secret, http.MethodGet, protocol.PathCapabilities, ts, nil))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	res.Body.Close()
	return res.StatusCode == http.StatusOK
}

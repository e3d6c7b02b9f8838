package connectorpython_test

// What the Python connector's tests share: the interpreter, signed
// requests, and a recorder of the exchanges between Payline and the
// connector.

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"payline/connectors/protocol"
)

const (
	secret = "the example connector's test secret"

	acmeID     = "d1e95895-fd29-5290-bb0d-f2a2eb449db6" // Acme Paydesk, payroll
	tickworkID = "02668225-6ac6-5312-8f8d-bec0dd20f439" // Tickwork Timeclock, time and attendance

	password = "pass_good"
	mfaCode  = "123456"

	// pendingSeconds is how long user_pending's jobs stay pending here.
	pendingSeconds = 120
)

// now is Payline's clock in every run and fetch, so the data is fixed.
var now = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

// python3 is the interpreter to run the connector with: python3 on PATH,
// 3.11 or newer. Without it the test skips, loudly, except under CI=true
// where it fails.
func python3(t *testing.T) string {
	t.Helper()
	missing := func(why string) {
		if os.Getenv("CI") == "true" {
			t.Fatal("the example Python connector's tests need Python 3.11+ as python3 under CI=true: " + why)
		}
		t.Skip("SKIPPING the example Python connector's tests: " + why +
			"; install Python 3.11+ as python3 to run them (under CI=true this fails instead)")
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

// signedRequest is a request signed as Payline signs them.
func signedRequest(t *testing.T, method, base, path string, body []byte, key string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, base+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	ts := time.Now().Unix()
	req.Header.Set(protocol.HeaderTimestamp, strconv.FormatInt(ts, 10))
	req.Header.Set(protocol.HeaderSignature, protocol.Sign(key, method, path, ts, body))
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req
}

// invalidOnPurpose marks a request the test makes malformed on purpose:
// its answer is checked against the document, the request itself is not.
const invalidOnPurpose = "X-Test-Invalid-On-Purpose"

type exchange struct {
	method, path string
	header       http.Header
	body         []byte
	status       int
	respHeader   http.Header
	respBody     []byte
}

// recorder is the clients' transport: it keeps every exchange with the
// connector for the contract check.
type recorder struct {
	mu        sync.Mutex
	exchanges []exchange
}

func (rec *recorder) RoundTrip(r *http.Request) (*http.Response, error) {
	ex := exchange{method: r.Method, path: r.URL.Path, header: r.Header.Clone()}
	if r.Body != nil {
		ex.body, _ = io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(ex.body))
	}
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	ex.status, ex.respHeader, ex.respBody = resp.StatusCode, resp.Header.Clone(), body
	rec.mu.Lock()
	rec.exchanges = append(rec.exchanges, ex)
	rec.mu.Unlock()
	return resp, nil
}

func (rec *recorder) all() []exchange {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return slices.Clone(rec.exchanges)
}

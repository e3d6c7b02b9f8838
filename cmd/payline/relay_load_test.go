package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"payline/domain/sandbox"
	"payline/internal/testwait"
)

// relayLoadEmployers is the upstream directory's size in
// TestRelayAtUpstreamLimits: 200 pages at the API's largest page size.
const relayLoadEmployers = 20000

// relaySessionJobs are the five jobs each session of the load test asks
// for.
var relaySessionJobs = []string{"direct_deposit_switch", "paystubs", "identity", "employment", "income"}

// TestRelayAtUpstreamLimits runs a relay in front of an upstream at its
// default rate limit (10 requests a second per key) with 20,000
// employers, as an integrator bringing real data would: the relay answers
// at once, a Link session completes during the first directory sync, the
// whole directory arrives within (pages ÷ rate) × 1.5, and then 30
// sessions at one a second all get their link token and reach a
// `payline webhooks listen` receiver as account.added, p50 under 1 s and
// p90 under 2 s after the upstream completed them, for at most 10
// requests a session on the upstream's own counter. Nothing is logged at
// ERROR.
func TestRelayAtUpstreamLimits(t *testing.T) {
	// A relay pair mostly waits (the upstream's rate limit, deliveries):
	// it runs beside the other relay tests once the sequential ones are done.
	t.Parallel()
	if testing.Short() {
		t.Skip("the relay load test takes about two minutes")
	}
	eachDatabase(t, func(t *testing.T, dbURL string) {
		logs := &lockedBuffer{}
		p := startRelayPairOpts(t, dbURL, logs, pairOptions{employers: relayLoadEmployers, upstreamMetrics: true, noWait: true})
		started := time.Now().Add(-p.relayStart)
		defer func() {
			// The logs are long: kept in a file on failure, or always in
			// PAYLINE_RELAY_LOG_DIR when set (to count requests by route).
			dir := os.Getenv("PAYLINE_RELAY_LOG_DIR")
			if dir == "" && t.Failed() {
				dir = os.TempDir()
			}
			if dir != "" {
				name := filepath.Join(dir, "payline-relay-load-"+filepath.Base(t.Name())+".log")
				_ = os.WriteFile(name, []byte(logs.String()), 0o600)
				t.Logf("the two instances' logs: %s", name)
			}
		}()
		if p.relayStart > 10*time.Second {
			t.Errorf("the relay took %s to start; want under 10 s whatever the directory's size", p.relayStart)
		}
		t.Logf("the relay served %s after its start began", p.relayStart.Round(time.Millisecond))
		received := p.accountsAdded(t)

		// During the first sync, a search for an employer the sync has not
		// reached (the last by name) finds it at the upstream.
		_, employers := sandbox.Directory(relayLoadEmployers)
		last := employers[0]
		for _, e := range employers {
			if e.Name > last.Name {
				last = e
			}
		}
		status, found := p.call(t, "GET", p.relayBase+"/v1/search?response_types=employer&q="+url.QueryEscape(last.Name), p.relaySecret, "")
		if data, _ := found["data"].([]any); status != 200 || len(data) == 0 || at(data[0], "id") != last.ID {
			t.Errorf("search for %q during the first sync: %d %v; want %s from the upstream", last.Name, status, found, last.ID)
		}
		if st := p.directoryStatus(t); strings.HasPrefix(st, "synced") {
			t.Errorf("the directory is %q after the first search; want it still syncing", st)
		}

		// A session during the first sync: the platform is found at the
		// upstream, as the end user's Link there finds it.
		platform := p.upstreamPlatform(t)
		early := p.completeUpstream(t, p.sessionToken(t, "early-bird"), platform)
		if at := received.wait(t, early, 30*time.Second); at.IsZero() {
			t.Fatal("the session completed during the first sync never reached the receiver")
		}
		if st := p.directoryStatus(t); strings.HasPrefix(st, "synced") {
			t.Errorf("the directory is %q once the first session arrived; want it still syncing (a session during the first sync)", st)
		}

		// The whole directory within (pages ÷ rate) × 1.5.
		pages := float64(relayLoadEmployers/100 + 2) // the employers, and the platforms listed twice
		budget := time.Duration(pages / 8 * 1.5 * float64(time.Second))
		p.waitDirectoryWithin(t, started.Add(budget))
		t.Logf("the directory of %d employers synced %s after the start (budget %s)", relayLoadEmployers,
			time.Since(started).Round(time.Millisecond), budget.Round(time.Millisecond))
		if n := len(p.all(t, p.relayBase, p.relaySecret, "/v1/employers")); n != relayLoadEmployers {
			t.Errorf("the relay lists %d employers, want %d", n, relayLoadEmployers)
		}

		// 30 sessions at one a second.
		before := upstreamRequests(t, p.upCfg.MetricsAddr)
		const sessions = 30
		var mu sync.Mutex
		completed := map[string]time.Time{}
		var refused []string
		var wg sync.WaitGroup
		tick := time.NewTicker(time.Second)
		for i := range sessions {
			wg.Go(func() {
				upstreamToken, status := p.trySessionToken(t, "user-"+strconv.Itoa(i))
				if status != 200 {
					mu.Lock()
					refused = append(refused, strconv.Itoa(status))
					mu.Unlock()
					return
				}
				account := p.completeUpstream(t, upstreamToken, platform)
				mu.Lock()
				completed[account] = time.Now()
				mu.Unlock()
			})
			if i < sessions-1 {
				<-tick.C
			}
		}
		wg.Wait()
		tick.Stop()
		if len(refused) > 0 {
			t.Errorf("%d of %d link tokens refused: %v", len(refused), sessions, refused)
		}
		var latencies []time.Duration
		for account, done := range completed {
			arrived := received.wait(t, account, 30*time.Second)
			if arrived.IsZero() {
				t.Errorf("account %s never reached the receiver", account)
				continue
			}
			latencies = append(latencies, max(0, arrived.Sub(done)))
		}
		slices.Sort(latencies)
		p50, p90 := percentile(latencies, 0.5), percentile(latencies, 0.9)
		t.Logf("account.added after the upstream completed: p50 %s, p90 %s, max %s over %d sessions", p50.Round(time.Millisecond),
			p90.Round(time.Millisecond), latencies[len(latencies)-1].Round(time.Millisecond), len(latencies))
		if p50 > time.Second || p90 > 2*time.Second {
			t.Errorf("account.added p50 %s, p90 %s; want under 1 s and 2 s", p50, p90)
		}

		// Every session's five jobs final at the relay, then the upstream's
		// own counter.
		for account := range completed {
			p.waitJobs(t, account, len(relaySessionJobs), 60*time.Second)
		}
		spent := upstreamRequests(t, p.upCfg.MetricsAddr) - before
		perSession := spent / float64(len(completed))
		t.Logf("the upstream served %.0f requests for %d sessions: %.1f a session (its sandbox completion included)", spent, len(completed), perSession)
		if perSession > 10 {
			t.Errorf("%.1f upstream requests a session; want at most 10", perSession)
		}
		if errs := errorLines(logs.String(), "relay"); len(errs) > 0 {
			t.Errorf("the relay logged errors:\n%s", strings.Join(errs, "\n"))
		}
	})
}

// accountsAdded is a receiver of the relay's account.added deliveries,
// through the websocket `payline webhooks listen` uses, noting when each
// account arrived.
type accountArrivals struct {
	mu      sync.Mutex
	arrived map[string]time.Time
	changed chan struct{}
}

func (p *relayPair) accountsAdded(t *testing.T) *accountArrivals {
	t.Helper()
	a := &accountArrivals{arrived: map[string]time.Time{}, changed: make(chan struct{}, 1)}
	deliveries := p.listen(t, "account.added")
	go func() {
		for d := range deliveries {
			var body struct {
				Payload struct {
					AccountID string `json:"account_id"`
				} `json:"payload"`
			}
			if json.Unmarshal([]byte(d.Body), &body) != nil {
				continue
			}
			a.mu.Lock()
			if _, ok := a.arrived[body.Payload.AccountID]; !ok {
				a.arrived[body.Payload.AccountID] = time.Now()
			}
			a.mu.Unlock()
			select {
			case a.changed <- struct{}{}:
			default:
			}
		}
	}()
	return a
}

// wait returns when the account arrived, the zero time if not within.
func (a *accountArrivals) wait(t *testing.T, account string, within time.Duration) time.Time {
	t.Helper()
	deadline := time.After(within)
	for {
		a.mu.Lock()
		at, ok := a.arrived[account]
		a.mu.Unlock()
		if ok {
			return at
		}
		select {
		case <-a.changed:
		case <-deadline:
			return time.Time{}
		}
	}
}

// sessionToken creates a link token on the relay for the load test's
// five jobs and returns the upstream token its modal session opens.
func (p *relayPair) sessionToken(t *testing.T, endUser string) string {
	t.Helper()
	tok, status := p.trySessionToken(t, endUser)
	if status != 200 {
		t.Fatalf("link token on the relay: %d", status)
	}
	return tok
}

// trySessionToken is sessionToken that reports a refused token's status.
func (p *relayPair) trySessionToken(t *testing.T, endUser string) (string, int) {
	t.Helper()
	status, tok := p.call(t, "POST", p.relayBase+"/v1/link_tokens", p.relaySecret,
		`{"org_name": "Acme Lending", "end_user_id": "`+endUser+`", "required_jobs": ["`+strings.Join(relaySessionJobs, `", "`)+`"],
		  "allocation": {"targets": [{"name": "Main", "type": "checking", "account_number": "123456789", "routing_number": "011000015"}]}}`)
	if status != 200 {
		return "", status
	}
	status, sess := p.call(t, "GET", p.relayBase+"/link/v1/api/session", "", "", "Authorization", "Bearer "+at(tok, "data", "token").(string))
	up, _ := at(sess, "upstream", "link_token").(string)
	if status != 200 || up == "" {
		t.Fatalf("session on the relay: %d %v", status, sess)
	}
	return up, 200
}

// upstreamPlatform finds Summit Payroll in the upstream's own directory.
func (p *relayPair) upstreamPlatform(t *testing.T) string {
	t.Helper()
	status, search := p.call(t, "GET", p.upstreamBase+"/v1/search?q=summit+payroll&response_types=platform", p.upstreamSecret, "")
	if status != 200 || len(search["data"].([]any)) == 0 {
		t.Fatalf("search on the upstream: %d %v", status, search)
	}
	return at(search["data"].([]any)[0], "id").(string)
}

// directoryStatus is what the relay's /readyz says of its directory.
func (p *relayPair) directoryStatus(t *testing.T) string {
	t.Helper()
	_, ready := p.call(t, "GET", p.relayBase+"/readyz", "", "")
	st, _ := at(ready, "checks", "upstream_directory").(string)
	return st
}

// waitDirectoryWithin waits for the directory sync to complete by the
// deadline.
func (p *relayPair) waitDirectoryWithin(t *testing.T, deadline time.Time) {
	t.Helper()
	testwait.Every(100*time.Millisecond).Until(t, time.Until(deadline), func() error {
		if st := p.directoryStatus(t); !strings.HasPrefix(st, "synced") {
			return fmt.Errorf("the directory was still %q at its deadline", st)
		}
		return nil
	})
}

// upstreamRequests sums the upstream's own request counter.
func upstreamRequests(t *testing.T, metricsAddr string) float64 {
	t.Helper()
	resp, err := http.Get("http://" + metricsAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	sum := 0.0
	for _, m := range requestsLine.FindAllStringSubmatch(string(body), -1) {
		v, _ := strconv.ParseFloat(m[1], 64)
		sum += v
	}
	return sum
}

var requestsLine = regexp.MustCompile(`(?m)^payline_http_requests_total\{.*\} ([0-9.e+-]+)$`)

func percentile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[int(math.Ceil(q*float64(len(sorted))))-1]
}

// errorLines are the log lines one instance wrote at ERROR.
func errorLines(logs, instance string) []string {
	var out []string
	for line := range strings.Lines(logs) {
		if strings.Contains(line, "level=ERROR") && strings.Contains(line, "instance="+instance) {
			out = append(out, strings.TrimSpace(line))
		}
	}
	return out
}

// lockedBuffer is a log both instances write to at once.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"payline/domain"
	"payline/internal/testwait"
)

// TestAbusiveKeyLoad is the load test of GraphQL under abuse (run with
// PAYLINE_LOAD=1; docs/benchmarks.md has its numbers). One sandbox key
// sends what once stalled an instance: 220 KB queries of one repeated
// field, 2 MB bodies, nodes floods (ten aliases of 100 ids), subscriptions
// over HTTP POST, and a socket flood (more sockets and subscriptions than
// the caps, each socket firing queries). Meanwhile a second customer's
// key calls GET /v1/accounts eight times a second, within its own rate;
// its p99 must stay under 50 ms, with every call answered 200.
//
// With PAYLINE_LOAD_URL (http://host:port), PAYLINE_LOAD_ABUSER and
// PAYLINE_LOAD_VICTIM (two customers' sandbox secrets) it loads a server
// already running, such as a build of an older commit, for a baseline.
func TestAbusiveKeyLoad(t *testing.T) {
	if os.Getenv("PAYLINE_LOAD") != "1" {
		t.Skip("the abusive-key load test runs with PAYLINE_LOAD=1 (about a minute)")
	}
	duration := 20 * time.Second
	if base := os.Getenv("PAYLINE_LOAD_URL"); base != "" {
		abuseLoad(t, base, os.Getenv("PAYLINE_LOAD_ABUSER"), os.Getenv("PAYLINE_LOAD_VICTIM"), duration)
		return
	}
	eachDatabase(t, func(t *testing.T, url string) {
		ctx := context.Background()
		getenv := env("PAYLINE_MASTER_KEY", testMasterKey)
		m := startMain(t, url, &bytes.Buffer{})
		defer m.Close(ctx)
		secrets := make([]string, 2)
		for i, customer := range []string{"abuser", "victim"} {
			var out, errOut bytes.Buffer
			if err := run(ctx, []string{"keys", "create", "--customer", customer, "--mode", "sandbox", "--json", "--database-url", url},
				&out, &errOut, getenv); err != nil {
				t.Fatalf("keys create: %v %s", err, errOut.String())
			}
			var k map[string]string
			if err := json.Unmarshal(out.Bytes(), &k); err != nil {
				t.Fatal(err)
			}
			secrets[i] = k["secret"]
		}
		linkThroughBinary(t, m.Addr(), secrets[1], "identity")
		abuseLoad(t, "http://"+m.Addr(), secrets[0], secrets[1], duration)
	})
}

func abuseLoad(t *testing.T, base, abuser, victim string, duration time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), duration)
	defer cancel()
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	post := func(body []byte) {
		req, _ := http.NewRequestWithContext(ctx, "POST", base+"/graphql", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("x-api-secret", abuser)
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
		}
	}
	gql := func(query string) []byte {
		b, _ := json.Marshal(map[string]any{"query": query})
		return b
	}
	ids := make([]string, 100)
	for i := range ids {
		ids[i] = `"` + domain.NewID() + `"`
	}
	var flood strings.Builder
	flood.WriteString("{")
	for i := range 10 {
		fmt.Fprintf(&flood, " a%d: nodes(ids: [%s]) { id }", i, strings.Join(ids, ","))
	}
	flood.WriteString(" }")
	attacks := map[string][]byte{
		"huge query":        gql("{" + strings.Repeat(" __typename", 20_000) + " }"),
		"2 MB body":         gql("{ __typename }" + strings.Repeat(" ", 2<<20)),
		"nodes flood":       gql(flood.String()),
		"HTTP subscription": gql(`subscription { jobUpdated { id } }`),
	}
	var abusive atomic.Int64
	attackers := 0 // how many loops abuse, to know when they all have begun
	var wg sync.WaitGroup
	only := os.Getenv("PAYLINE_LOAD_ONLY") // one attack, to find which one hurts
	for name, body := range attacks {
		if only != "" && only != name {
			continue
		}
		for range 3 {
			attackers++
			wg.Go(func() {
				for ctx.Err() == nil {
					post(body)
					abusive.Add(1)
				}
			})
		}
	}
	// The socket flood: more sockets than one key may hold, each asking
	// for more subscriptions than one socket may run, then firing queries.
	for range 60 {
		if only != "" && only != "sockets" {
			break
		}
		attackers++
		wg.Go(func() {
			conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/graphql",
				&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
			if err != nil {
				return
			}
			defer conn.CloseNow()
			go func() { // read and drop everything
				for {
					if _, _, err := conn.Read(ctx); err != nil {
						return
					}
				}
			}()
			_ = wsjson.Write(ctx, conn, map[string]any{"type": "connection_init", "payload": map[string]any{"x-api-secret": abuser}})
			for i := range 25 {
				_ = wsjson.Write(ctx, conn, map[string]any{"id": fmt.Sprint("s", i), "type": "subscribe",
					"payload": map[string]any{"query": `subscription { jobUpdated { id } }`}})
			}
			for i := 0; ctx.Err() == nil; i++ {
				if wsjson.Write(ctx, conn, map[string]any{"id": fmt.Sprint("q", i), "type": "subscribe",
					"payload": map[string]any{"query": flood.String()}}) != nil {
					return
				}
				abusive.Add(1)
			}
		})
	}
	// The victim, eight calls a second within its own rate of ten.
	var latencies []time.Duration
	failures := map[int]int{}
	tick := time.NewTicker(125 * time.Millisecond)
	defer tick.Stop()
	// Measure once the abuse is under way: as many abusive calls made as
	// there are attackers.
	testwait.Until(t, 10*time.Second, func() error {
		if n := abusive.Load(); n < int64(attackers) {
			return fmt.Errorf("the abuse did not start: %d calls from %d attackers", n, attackers)
		}
		return nil
	})
	for ctx.Err() == nil {
		<-tick.C
		start := time.Now()
		status, _, _, err := apiDo(client, "GET", base+"/v1/accounts", victim, "", nil)
		if err != nil {
			status = -1
		}
		if status != 200 {
			failures[status]++
			continue
		}
		latencies = append(latencies, time.Since(start))
		if testing.Verbose() && time.Since(start) > 50*time.Millisecond {
			t.Logf("slow victim call: %s", time.Since(start))
		}
	}
	cancel()
	wg.Wait()
	if len(latencies) < 50 {
		t.Fatalf("only %d answered victim calls (failures by status: %v)", len(latencies), failures)
	}
	slices.Sort(latencies)
	pct := func(p float64) time.Duration { return latencies[int(p*float64(len(latencies)-1))] }
	t.Logf("victim GET /v1/accounts under abuse: %d calls, p50 %s, p99 %s, max %s; failures by status %v; %d abusive requests and socket operations",
		len(latencies), pct(0.5).Round(time.Microsecond), pct(0.99).Round(time.Microsecond), latencies[len(latencies)-1].Round(time.Microsecond),
		failures, abusive.Load())
	if p99 := pct(0.99); p99 >= 50*time.Millisecond || len(failures) > 0 {
		t.Errorf("the victim's p99 is %s (bar 50 ms), failures %v", p99, failures)
	}
}

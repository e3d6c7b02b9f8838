package rest

import (
	"bufio"
	"context"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"sync"
	"testing"
	"time"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// BenchmarkWebhookDelivery publishes 10,000 events through the real
// fan-out (event row + River job in one transaction) while the queue
// delivers them over HTTPS to a receiver in another process, and reports
// deliveries per second and the time from publish to receipt. PostgreSQL
// only, as the architecture's bar is stated for it.
//
// load=burst publishes all 10,000 at once (500 per transaction): the
// delivery rate is the queue's capacity, and latency is mostly waiting in
// the backlog. load=1000/s publishes 50 every 50 ms, a steady 1,000
// events a second: latency is what a receiver sees at that rate.
// driver=poll is the queue polling every 200 ms (River's database/sql
// driver alone); driver=notify works jobs through River's pgx driver,
// woken by the NOTIFY each insert sends. With -count, all alternate:
//
//	PAYLINE_TEST_DATABASE_URL=... go test ./rest -run '^$' -bench WebhookDelivery -benchtime 1x -count 6
func BenchmarkWebhookDelivery(b *testing.B) {
	for _, load := range []string{"burst", "1000/s"} {
		for _, driver := range []string{"poll", "notify"} {
			b.Run("load="+load+"/driver="+driver, func(b *testing.B) {
				for b.Loop() {
					benchWebhookDelivery(b, driver == "poll", load != "burst")
				}
			})
		}
	}
}

func benchWebhookDelivery(b *testing.B, pollOnly, paced bool) {
	const events = 10_000
	batch, every := 500, time.Duration(0)
	if paced {
		batch, every = 50, 50*time.Millisecond
	}
	db := storagetest.Open(b, storage.Postgres, storagetest.Empty)
	rcv := startReceiverProcess(b)
	f := newFixture(b, db, func(s *fixtureSetup) {
		s.caFile, s.pollInterval, s.pollOnly = rcv.caFile, 200*time.Millisecond, pollOnly
	})
	f.createWebhook(rcv.url, `"account.added"`)
	tx := storage.NewTransactor(db, f.queue)
	sc := f.key.Scope()
	published := make([]time.Time, events)
	start := time.Now()
	for from := 0; from < events; from += batch {
		if paced {
			time.Sleep(time.Until(start.Add(time.Duration(from/batch) * every))) // the publisher's pace: what the paced run measures
		}
		err := tx.InTx(context.Background(), func(ctx context.Context, t domain.Tx) error {
			for seq := from; seq < from+batch; seq++ {
				published[seq] = time.Now()
				if err := domain.PublishEvent(ctx, t, sc, "account.added", time.Now(), map[string]int{"seq": seq}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	received := rcv.wait(b, events, 5*time.Minute)
	var last time.Time
	lat := make([]time.Duration, 0, events)
	for seq, at := range received {
		lat = append(lat, at.Sub(published[seq]))
		if at.After(last) {
			last = at
		}
	}
	slices.Sort(lat)
	b.ReportMetric(float64(events)/last.Sub(start).Seconds(), "deliveries/s")
	b.ReportMetric(float64(lat[len(lat)/2].Milliseconds()), "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Milliseconds()), "p99-ms")
}

// receiverEnv makes the test binary a webhook receiver (see TestMain):
// the benchmark's receiver must not share the process that delivers.
const receiverEnv = "PAYLINE_BENCH_RECEIVER"

// runReceiver serves TLS on loopback, prints "url URL ca FILE", then one
// "seq unix-nanoseconds" line per delivery, until stdin closes.
func runReceiver() {
	out := bufio.NewWriter(os.Stdout)
	var mu sync.Mutex
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var body struct {
			Payload struct {
				Seq int `json:"seq"`
			} `json:"payload"`
		}
		_ = json.NewDecoder(req.Body).Decode(&body)
		now := time.Now().UnixNano()
		mu.Lock()
		fmt.Fprintf(out, "%d %d\n", body.Payload.Seq, now)
		mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	srv.StartTLS()
	ca, err := os.CreateTemp("", "receiver-ca-*.pem")
	if err != nil {
		panic(err)
	}
	_ = pem.Encode(ca, &pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	ca.Close()
	defer os.Remove(ca.Name())
	mu.Lock()
	fmt.Fprintf(out, "url %s ca %s\n", srv.URL, ca.Name())
	out.Flush()
	mu.Unlock()
	go func() {
		for range time.Tick(20 * time.Millisecond) {
			mu.Lock()
			out.Flush()
			mu.Unlock()
		}
	}()
	_, _ = io.Copy(io.Discard, os.Stdin)
	srv.Close()
}

type receiverProcess struct {
	url, caFile string
	mu          sync.Mutex
	received    map[int]time.Time
	arrived     chan struct{}
}

// startReceiverProcess runs runReceiver in a child process for the
// benchmark's lifetime.
func startReceiverProcess(b *testing.B) *receiverProcess {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), receiverEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stdin.Close(); _ = cmd.Wait() })
	r := &receiverProcess{received: map[int]time.Time{}, arrived: make(chan struct{}, 1)}
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() {
		b.Fatal("the receiver process printed nothing")
	}
	if _, err := fmt.Sscanf(lines.Text(), "url %s ca %s", &r.url, &r.caFile); err != nil {
		b.Fatalf("receiver: %q: %v", lines.Text(), err)
	}
	go func() {
		for lines.Scan() {
			var seq int
			var nanos int64
			if _, err := fmt.Sscanf(lines.Text(), "%d %d", &seq, &nanos); err != nil {
				continue
			}
			r.mu.Lock()
			if _, dup := r.received[seq]; !dup {
				r.received[seq] = time.Unix(0, nanos)
			}
			r.mu.Unlock()
			select {
			case r.arrived <- struct{}{}:
			default:
			}
		}
	}()
	return r
}

// wait returns the first receipt of each of n events once all arrived.
func (r *receiverProcess) wait(b *testing.B, n int, within time.Duration) map[int]time.Time {
	b.Helper()
	deadline := time.After(within)
	for {
		r.mu.Lock()
		got := len(r.received)
		r.mu.Unlock()
		if got >= n {
			r.mu.Lock()
			defer r.mu.Unlock()
			return maps.Clone(r.received)
		}
		select {
		case <-r.arrived:
		case <-deadline:
			b.Fatalf("only %d of %d events arrived in %v", got, n, within)
		}
	}
}

package rest

// What the webhook tests share: the receiver (a real HTTPS endpoint that
// records each delivery and answers as the test says), waitFor and
// always, and the fixture's webhook helpers (create one, count and wait
// out its delivery jobs).

import (
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"payline/internal/testwait"
)

// receiver is a real HTTPS endpoint that records deliveries and answers
// with the status its respond function picks.
type receiver struct {
	srv     *httptest.Server
	caFile  string
	mu      sync.Mutex
	got     []delivered
	respond func(n int) int
	// reply, when set, is the body of the n-th answer.
	reply func(n int) string
}

type delivered struct {
	header http.Header
	body   []byte
	at     time.Time
}

func newReceiver(t testing.TB, respond func(n int) int) *receiver {
	t.Helper()
	r := &receiver{respond: respond}
	r.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, delivered{header: req.Header.Clone(), body: body, at: time.Now()})
		n := len(r.got)
		r.mu.Unlock()
		r.mu.Lock()
		reply := r.reply
		r.mu.Unlock()
		w.WriteHeader(r.respond(n))
		if reply != nil {
			_, _ = io.WriteString(w, reply(n))
		}
	}))
	t.Cleanup(r.srv.Close)
	r.caFile = filepath.Join(t.TempDir(), "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: r.srv.Certificate().Raw})
	if err := os.WriteFile(r.caFile, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	return r
}

// waitFor polls until cond holds, failing after 20s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testwait.Every(30*time.Millisecond).Eventually(t, 20*time.Second, cond, "waiting for %s", what)
}

func always(status int) func(int) int { return func(int) int { return status } }

// deliveryJobs counts the webhook deliveries ever queued, and those not yet
// in a final state (a delivery job that is completed, cancelled or
// discarded makes no more attempts).
func (f *fixture) deliveryJobs() (queued, unfinished int) {
	f.t.Helper()
	err := f.db.Get(&queued, `SELECT COUNT(*) FROM river_job WHERE kind = 'webhook_delivery'`)
	if err == nil {
		err = f.db.Get(&unfinished, `SELECT COUNT(*) FROM river_job WHERE kind = 'webhook_delivery'
			AND state NOT IN ('completed', 'cancelled', 'discarded')`)
	}
	if err != nil {
		f.t.Fatal(err)
	}
	return queued, unfinished
}

// waitDeliveriesSettled waits until every queued delivery is final, so a
// test can count attempts without waiting for ones that cannot come.
func (f *fixture) waitDeliveriesSettled(t *testing.T) {
	t.Helper()
	waitFor(t, "every queued delivery to reach a final state", func() bool { _, n := f.deliveryJobs(); return n == 0 })
}

func (f *fixture) createWebhook(url, events string) string {
	f.t.Helper()
	res := f.post("/v1/webhooks", `{"url": "`+url+`", "version": "2025-07-08", "enabled_events": [`+events+`]}`)
	if res.status != 200 {
		f.t.Fatalf("create webhook: %d %s", res.status, res.raw)
	}
	return res.data(f.t)["id"].(string)
}

// setReply sets the answers' bodies while the receiver may be serving.
func (r *receiver) setReply(reply func(n int) string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reply = reply
}

func (r *receiver) deliveries() []delivered {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]delivered(nil), r.got...)
}

package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// BenchmarkWebhookDelivery publishes 10,000 events through the real
// fan-out (event row + River job in one transaction, 500 per
// transaction) while the queue delivers them over HTTPS to a local
// receiver, and reports deliveries per second and the time from publish
// to receipt. PostgreSQL only, as the architecture's bar is stated for it:
//
//	PAYLINE_TEST_DATABASE_URL=... go test ./rest -run '^$' -bench WebhookDelivery -benchtime 1x
func BenchmarkWebhookDelivery(b *testing.B) {
	const events = 10_000
	const batch = 500
	for b.Loop() {
		db := storagetest.Open(b, storage.Postgres, storagetest.Empty)
		var mu sync.Mutex
		received := make(map[int]time.Time, events)
		done := make(chan struct{})
		rcv := newBenchReceiver(b, func(seq int) {
			mu.Lock()
			defer mu.Unlock()
			if _, dup := received[seq]; !dup {
				received[seq] = time.Now()
				if len(received) == events {
					close(done)
				}
			}
		})
		f := newFixture(b, db, func(s *fixtureSetup) { s.caFile = rcv.caFile })
		f.createWebhook(rcv.srv.URL, `"account.added"`)
		tx := storage.NewTransactor(db, f.queue)
		sc := f.key.Scope()
		published := make([]time.Time, events)
		start := time.Now()
		for from := 0; from < events; from += batch {
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
		select {
		case <-done:
		case <-time.After(5 * time.Minute):
			b.Fatalf("only %d of %d events arrived in 5 minutes", len(received), events)
		}
		elapsed := time.Since(start)
		lat := make([]time.Duration, 0, events)
		for seq, at := range received {
			lat = append(lat, at.Sub(published[seq]))
		}
		slices.Sort(lat)
		b.ReportMetric(float64(events)/elapsed.Seconds(), "deliveries/s")
		b.ReportMetric(float64(lat[len(lat)/2].Milliseconds()), "p50-ms")
		b.ReportMetric(float64(lat[len(lat)*99/100].Milliseconds()), "p99-ms")
	}
}

// newBenchReceiver is a TLS receiver that answers 200 at once and passes
// each payload's seq to seen.
func newBenchReceiver(b *testing.B, seen func(seq int)) *receiver {
	r := newReceiver(b, always(200))
	r.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var body struct {
			Payload struct {
				Seq int `json:"seq"`
			} `json:"payload"`
		}
		_ = json.NewDecoder(req.Body).Decode(&body)
		seen(body.Payload.Seq)
		w.WriteHeader(http.StatusOK)
	})
	return r
}

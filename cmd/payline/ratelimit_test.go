package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// testRedisURL is the Redis the shared-limit tests use; under CI it must
// answer.
func testRedisURL(t *testing.T) string { return storagetest.RedisURL(t) }

// TestRateLimitSharedThroughRedis: three instances on one PostgreSQL and
// one Redis; a customer sending 30 requests a second spread over the three
// gets the sandbox's 10 a second in total, not 10 from each.
func TestRateLimitSharedThroughRedis(t *testing.T) {
	redisURL := testRedisURL(t)
	dbURL := storagetest.NewURL(t, storage.Postgres, storagetest.Empty)
	var addrs []string
	var secret string
	for i := range 3 {
		var out strings.Builder
		m := &Main{
			Config: ServeConfig{Addr: "127.0.0.1:0", DatabaseURL: dbURL, Mode: domain.ModeSandbox, RedisURL: redisURL},
			Stdout: writerFunc(func(p []byte) (int, error) { return out.Write(p) }), Logger: slog.New(slog.DiscardHandler),
			Getenv: env("PAYLINE_MASTER_KEY", testMasterKey),
		}
		if err := m.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		defer m.Close(context.Background())
		if i == 0 {
			secret = secretLine.FindStringSubmatch(out.String())[1]
		}
		addrs = append(addrs, m.Addr())
	}
	get := func(i int) int {
		req, _ := http.NewRequest("GET", "http://"+addrs[i%3]+"/v1/platforms?limit=1", nil)
		req.Header.Set("x-api-secret", secret)
		req.Header.Set("Service-Version", domain.LatestVersion)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	// Spend the burst first, so what follows measures the steady rate.
	for i := 0; get(i) != http.StatusTooManyRequests; i++ {
		if i > 100 {
			t.Fatal("100 requests were never limited")
		}
	}
	tick := time.NewTicker(time.Second / 30)
	defer tick.Stop()
	start := time.Now()
	accepted, refused := 0, [3]int{}
	for i := 0; time.Since(start) < 4*time.Second; i++ {
		<-tick.C
		switch status := get(i); status {
		case http.StatusOK:
			accepted++
		case http.StatusTooManyRequests:
			refused[i%3]++
		default:
			t.Fatalf("status %d", status)
		}
	}
	elapsed := time.Since(start).Seconds()
	rate := float64(accepted) / elapsed
	t.Logf("%d accepted in %.2f s: %.2f a second; refused per instance %v", accepted, elapsed, rate, refused)
	// Limits kept per process would accept all 30 a second (10 at each).
	if rate < 9 || rate > 11 {
		t.Errorf("accepted %.2f requests a second across three instances, want 10 (±10%%)", rate)
	}
}

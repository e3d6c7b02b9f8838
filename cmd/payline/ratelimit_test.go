package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strconv"
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
// one Redis keep one bucket per customer, not one each. Requests go round
// the three as fast as they are answered until every instance has refused
// some. One bucket of the sandbox's 10 a second (a burst of 10) can have
// let through at most 10 plus 10 a second of the time the requests took;
// three buckets would let through three times that. A slow machine only
// raises the bound, so nothing is timed against a tolerance.
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
	// The sandbox's limit (rest.limitFor) and the burst redis_rate gives
	// it: one second's worth.
	const perSecond, burst = 10, 10
	start := time.Now()
	accepted, refused := 0, [3]int{}
	for i := 0; min(refused[0], refused[1], refused[2]) < 2; i++ {
		if i == 1000 {
			t.Fatalf("1,000 requests and some instance has refused fewer than two: accepted %d, refused per instance %v", accepted, refused)
		}
		switch status := get(i); status {
		case http.StatusOK:
			accepted++
		case http.StatusTooManyRequests:
			refused[i%3]++
		default:
			t.Fatalf("status %d", status)
		}
	}
	took := time.Since(start)
	bound := burst + int(perSecond*took.Seconds()) + 1
	t.Logf("%d accepted in %v (one shared bucket allows at most %d); refused per instance %v", accepted, took.Round(time.Millisecond), bound, refused)
	if accepted > bound {
		t.Errorf("%d requests accepted across three instances in %v; one shared bucket allows at most %d", accepted, took.Round(time.Millisecond), bound)
	}
	if accepted < burst {
		t.Errorf("only %d requests accepted; a fresh bucket lets %d through at once", accepted, burst)
	}
}

// TestSignInThrottleSharedByInstances: three instances on one PostgreSQL,
// counting failed sign-ins in the database, and three that share a Redis
// too (--redis-url), counting them there: five wrong passwords from one
// address spread over the three make that address's next attempt refused
// by every instance, even with the right password.
func TestSignInThrottleSharedByInstances(t *testing.T) {
	for _, backend := range []string{"database", "redis"} {
		t.Run(backend, func(t *testing.T) {
			ctx := context.Background()
			getenv := env("PAYLINE_MASTER_KEY", testMasterKey)
			dbURL := storagetest.NewURL(t, storage.Postgres, storagetest.Empty)
			cfg := ServeConfig{Addr: "127.0.0.1:0", DatabaseURL: dbURL, Mode: domain.ModeSandbox}
			if backend == "redis" {
				cfg.RedisURL = testRedisURL(t)
				// Every instance sees the test's requests come from
				// 127.0.0.1; Redis outlives the test, so that address
				// starts and ends with a clean slate.
				client := storagetest.Redis(t)
				key := "payline:sign_in:" + domain.ThrottleKey("addr", "127.0.0.1")
				forget := func() { client.Del(context.Background(), key) }
				forget()
				t.Cleanup(forget)
				// The failures were counted in Redis, not the database.
				t.Cleanup(func() {
					if n, err := client.Exists(context.Background(), key).Result(); n != 1 {
						t.Errorf("the address's failures are not in Redis (%d keys, %v)", n, err)
					}
				})
			}
			email := "ada-" + domain.NewID() + "@acme.test"
			const password = "correct horse battery staple"
			e := environment{getenv: getenv, stdout: io.Discard, stderr: io.Discard, stdin: strings.NewReader(password + "\n")}
			if err := e.members(ctx, []string{"add", "--customer", "acme", "--email", email, "--role", "administrator",
				"--password-stdin", "--database-url", dbURL}); err != nil {
				t.Fatal(err)
			}
			var addrs []string
			for range 3 {
				m := &Main{Config: cfg, Stdout: io.Discard, Logger: slog.New(slog.DiscardHandler), Getenv: getenv}
				if err := m.Start(ctx); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { m.Close(context.Background()) })
				addrs = append(addrs, m.Addr())
			}
			signIn := func(i int, password string) (int, string, time.Duration) {
				body := `{"username": "` + email + `", "password": "` + password + `"}`
				status, out, header, err := apiDo(nil, "POST", "http://"+addrs[i%3]+"/v1/admin/token", "", body, nil)
				if err != nil {
					t.Fatal(err)
				}
				code, _ := at(out, "error", "code").(string)
				secs, _ := strconv.Atoi(header.Get("Retry-After"))
				return status, code, time.Duration(secs) * time.Second
			}
			for i := range domain.SignInPairRule.Burst {
				status, code, wait := signIn(i, "a guess")
				// Past three failures the e-mail is slowed: the answer says
				// when this address's turn comes, and then the guess is
				// checked (and fails, counted on every instance).
				for tries := 0; status == http.StatusTooManyRequests && code == domain.CodeSignInSlowed && tries < 3; tries++ {
					time.Sleep(wait) // the turn the server gave, not a guess at a state
					status, code, wait = signIn(i, "a guess")
				}
				if status != http.StatusUnauthorized {
					t.Fatalf("guess %d on instance %d: %d %s, want 401", i, i%3, status, code)
				}
			}
			for i := range addrs {
				if status, _, _ := signIn(i, password); status != http.StatusTooManyRequests {
					t.Errorf("instance %d after five failures across the three: %d, want 429", i, status)
				}
			}
		})
	}
}

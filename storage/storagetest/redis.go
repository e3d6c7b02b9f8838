package storagetest

import (
	"context"
	"os"
	"testing"

	"github.com/redis/go-redis/v9"
)

// EnvRedisURL names the Redis tests of shared limits use.
const EnvRedisURL = "PAYLINE_TEST_REDIS_URL"

// RedisURL returns the test Redis's URL (PAYLINE_TEST_REDIS_URL, else
// the local default) once it answers; without one the test is skipped
// loudly, except under CI=true, where it fails.
func RedisURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(EnvRedisURL)
	if u == "" {
		u = "redis://127.0.0.1:6379/0"
	}
	opts, err := redis.ParseURL(u)
	if err == nil {
		client := redis.NewClient(opts)
		err = client.Ping(context.Background()).Err()
		client.Close()
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("Redis at %s: %v (CI must run the tests of limits shared through Redis)", u, err)
		}
		t.Skipf("*** SKIPPING: no Redis at %s (set %s): %v ***", u, EnvRedisURL, err)
	}
	return u
}

// Redis returns a new client of the test Redis, closed when t ends.
func Redis(t testing.TB) *redis.Client {
	t.Helper()
	opts, err := redis.ParseURL(RedisURL(t))
	if err != nil {
		t.Fatal(err)
	}
	client := redis.NewClient(opts)
	t.Cleanup(func() { client.Close() })
	return client
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/internal/testwait"
	"payline/storage"
	"payline/storage/storagetest"

	"github.com/redis/go-redis/v9"
)

// TestFailedStartUndoesEachStep fails Start after each of its steps in
// turn, on a fresh PostgreSQL database, and checks that the failed start
// left nothing open: no connection to the database (pg_stat_activity,
// polled until it drops), no pgx pool and no River client running (the
// queue's pool leaked once when a start failed after the queue started),
// no HTTP server, both ports free again, and no Redis connection.
func TestFailedStartUndoesEachStep(t *testing.T) {
	url := storagetest.NewURL(t, storage.Postgres, storagetest.Empty)
	redisURL := ""
	if u := os.Getenv(storagetest.EnvRedisURL); u != "" {
		redisURL = u + "?client_name=payline-failed-start"
		if strings.Contains(u, "?") {
			redisURL = u + "&client_name=payline-failed-start"
		}
	}
	admin, err := storage.Open(context.Background(), storagetest.PostgresServer(t))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	name := url[strings.LastIndex(url, "/")+1:]
	name, _, _ = strings.Cut(name, "?")
	before := goroutines()
	addr, metricsAddr := freeAddr(t), freeAddr(t)
	var steps []string
	for _, s := range (&Main{}).startSteps() {
		steps = append(steps, s.name)
	}
	if !slices.Contains(steps, "workers") || !slices.Contains(steps, "serve") {
		t.Fatalf("steps %v: the queue's start and serving are steps no more; update this test", steps)
	}
	for _, failAt := range steps {
		t.Run(failAt, func(t *testing.T) {
			var ran []string
			injected := errors.New("injected failure")
			m := &Main{Config: ServeConfig{Addr: addr, MetricsAddr: metricsAddr, DatabaseURL: url, RedisURL: redisURL,
				Mode: domain.ModeDevelopment, PublicURL: "https://payline.test", TrustProxy: true, QueuePollInterval: 50 * time.Millisecond},
				Stdout: io.Discard, Logger: slog.New(slog.DiscardHandler), Getenv: env("PAYLINE_MASTER_KEY", testMasterKey),
				afterStep: func(step string) error {
					ran = append(ran, step)
					if step == failAt {
						return injected
					}
					return nil
				}}
			if err := m.Start(context.Background()); !errors.Is(err, injected) {
				if err == nil {
					m.Close(context.Background())
				}
				t.Fatalf("start failing after %s: %v (steps done %v)", failAt, err, ran)
			}
			if want := steps[:slices.Index(steps, failAt)+1]; !slices.Equal(ran, want) {
				t.Fatalf("steps done %v, want %v", ran, want)
			}
			leftOpen := func() []string {
				var open []string
				var n int
				if err := admin.GetContext(context.Background(), &n, `SELECT count(*) FROM pg_stat_activity WHERE datname = $1`, name); err != nil {
					t.Fatal(err)
				}
				if n > 0 {
					open = append(open, fmt.Sprintf("%d connections to the database", n))
				}
				now := goroutines()
				for what, frame := range runningFrames {
					if now[frame] > before[frame] {
						open = append(open, fmt.Sprintf("%d more %s", now[frame]-before[frame], what))
					}
				}
				for _, a := range []string{addr, metricsAddr} {
					if l, err := net.Listen("tcp", a); err != nil {
						open = append(open, "a listener on "+a)
					} else {
						l.Close()
					}
				}
				if redisURL != "" {
					if n := redisClients(t, redisURL); n > 0 {
						open = append(open, fmt.Sprintf("%d Redis connections", n))
					}
				}
				return open
			}
			testwait.Until(t, 15*time.Second, func() error {
				if open := leftOpen(); len(open) > 0 {
					return fmt.Errorf("a start failing after %s left open: %s", failAt, strings.Join(open, ", "))
				}
				return nil
			})
			// A leaked client the collector took would close its
			// connection and pass: keep m, and so what it holds, alive.
			runtime.KeepAlive(m)
		})
	}
}

// runningFrames name a stack frame of each kind of goroutine a started
// Main runs, by what it is.
var runningFrames = map[string]string{
	"pgx pools":         "jackc/pgx/v5/pgxpool.",
	"River goroutines":  "riverqueue/river",
	"HTTP servers":      "net/http.(*Server).Serve",
	"pq listeners":      "lib/pq.(*Listener)",
	"queue heartbeats":  "payline/storage.(*rescuer).run",
	"search refreshers": "main.(*Main).refreshSearch",
	"database handles":  "database/sql.(*DB).connectionOpener",
}

// goroutines counts the running goroutines whose stacks hold each of
// runningFrames.
func goroutines() map[string]int {
	buf := make([]byte, 1<<22)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	out := map[string]int{}
	for _, g := range strings.Split(string(buf), "\n\n") {
		for _, frame := range runningFrames {
			if strings.Contains(g, frame) {
				out[frame]++
			}
		}
	}
	return out
}

// redisClients counts the connections of clients named as in url.
func redisClients(t *testing.T, url string) int {
	t.Helper()
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	name := opts.ClientName
	opts.ClientName = ""
	c := redis.NewClient(opts)
	defer c.Close()
	list, err := c.ClientList(context.Background()).Result()
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(list, " name="+name+" ")
}

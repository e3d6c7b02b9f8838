package rest

import (
	"context"
	"net/url"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
)

// BenchmarkDirectoryScale measures how the directory grows from 100,000
// to 1,000,000 employers on PostgreSQL: search latency through the API
// (p50, p99), the search index's memory (live heap it adds) and the time
// to rebuild it from the database. The architecture's bars at 1M: search
// p99 under 5 ms, the index under 300 MB. Seeding a million employers
// takes a few minutes, so it runs only when asked:
//
//	PAYLINE_SCALE=1 PAYLINE_TEST_DATABASE_URL=... go test ./rest -run '^$' -bench DirectoryScale -benchtime 20000x -timeout 60m
func BenchmarkDirectoryScale(b *testing.B) {
	if os.Getenv("PAYLINE_SCALE") != "1" {
		b.Skip("set PAYLINE_SCALE=1 to seed 100k and 1M employers")
	}
	for _, n := range []int{100_000, 1_000_000} {
		b.Run("employers="+strconv.Itoa(n/1000)+"k", func(b *testing.B) {
			ctx := context.Background()
			env := newBenchEnvSized(b, storage.Postgres, n)

			// The index's memory: the live heap it adds, built from the
			// same slices the server reads.
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			idx := domain.NewSearchIndex(env.employers, env.platforms)
			runtime.GC()
			runtime.ReadMemStats(&after)
			indexBytes := float64(after.HeapAlloc) - float64(before.HeapAlloc)
			runtime.KeepAlive(idx)
			idx = nil

			// Rebuild: read the directory from the database and index it,
			// what an instance does when the directory changes.
			dir := domain.NewDirectoryService(storage.NewDirectoryStore(env.db))
			start := time.Now()
			if err := dir.RefreshSearchIndex(ctx); err != nil {
				b.Fatal(err)
			}
			rebuild := time.Since(start)
			if err := env.server.directory.RefreshSearchIndex(ctx); err != nil {
				b.Fatal(err)
			}

			queries := searchQueries(env.employers)
			var l latencies
			for i := 0; b.Loop(); i++ {
				q := queries[i%len(queries)]
				l.time(func() { env.serve(b, "/v1/search?q="+url.QueryEscape(q)) })
			}
			l.report(b)
			b.ReportMetric(indexBytes/(1<<20), "index-MiB")
			b.ReportMetric(float64(rebuild.Milliseconds()), "rebuild-ms")
		})
	}
}

// newBenchEnvSized is newBenchEnv with a directory of n employers.
func newBenchEnvSized(b *testing.B, d storage.Dialect, n int) *benchEnv {
	b.Helper()
	start := time.Now()
	env := newBenchEnvWith(b, d, func() ([]domain.Platform, []domain.Employer) { return sandbox.Directory(n) })
	b.Logf("seeded %d employers in %v", n, time.Since(start).Round(time.Second))
	return env
}

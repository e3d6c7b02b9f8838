package rest

import (
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/domain/search"
	"payline/storage"
	"payline/storage/storagetest"
)

// The benchmarks run the real handler (auth, version, JSON) in process,
// and next to it, in the same run, the plain SQL a hand-written endpoint
// would send, so docs/benchmarks.md can report ratios that do not depend
// on the machine. Run them with:
//
//	PAYLINE_TEST_DATABASE_URL=... go test ./rest -run '^$' -bench . -benchtime 3s

const benchDirectorySize = 100_000

type benchEnv struct {
	db        *storage.DB
	server    *Server
	secret    string
	employers []domain.Employer
	platforms []domain.Platform
}

func newBenchEnv(b *testing.B, d storage.Dialect) *benchEnv {
	b.Helper()
	return newBenchEnvWith(b, d, func() ([]domain.Platform, []domain.Employer) { return sandbox.Directory(benchDirectorySize) })
}

// newBenchEnvWith seeds the directory directory returns.
func newBenchEnvWith(b *testing.B, d storage.Dialect, directory func() ([]domain.Platform, []domain.Employer)) *benchEnv {
	b.Helper()
	ctx := context.Background()
	db := storagetest.Open(b, d, storagetest.Empty)
	platforms, employers := directory()
	dir := domain.NewDirectoryService(storage.NewDirectoryStore(db), domain.NoRelay{}, search.Build)
	if err := dir.Seed(ctx, platforms, employers); err != nil {
		b.Fatal(err)
	}
	ks := storage.NewKeyStore(db)
	keys := domain.NewKeyService(ks, ks, domain.SystemClock{})
	created, err := keys.CreateKey(ctx, "bench", domain.ModeSandbox)
	if err != nil {
		b.Fatal(err)
	}
	s := NewServer(Config{Mode: domain.ModeSandbox, Keys: keys, Directory: dir, RateLimit: -1,
		Logger: slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelError}))})
	return &benchEnv{db: db, server: s, secret: created.Secret, employers: employers, platforms: platforms}
}

func (e *benchEnv) serve(b *testing.B, path string) {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header.Set("x-api-secret", e.secret)
	req.Header.Set("Service-Version", domain.LatestVersion)
	rec := httptest.NewRecorder()
	e.server.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		b.Fatalf("%s: %d %s", path, rec.Code, rec.Body.String())
	}
}

// latencies records each operation and reports p50 and p99 in µs.
type latencies []time.Duration

func (l *latencies) time(fn func()) {
	start := time.Now()
	fn()
	*l = append(*l, time.Since(start))
}

func (l latencies) report(b *testing.B) {
	slices.Sort(l)
	if len(l) == 0 {
		return
	}
	b.ReportMetric(float64(l[len(l)/2].Nanoseconds())/1e3, "p50-µs")
	b.ReportMetric(float64(l[len(l)*99/100].Nanoseconds())/1e3, "p99-µs")
}

// searchQueries mixes what people type: one or two letters, word
// prefixes, whole names, words in the middle, typos that match nothing.
func searchQueries(employers []domain.Employer) []string {
	qs := []string{"a", "s", "me", "ban", "summit", "medical", "logistics", "holdings", "zzqx", "of ohio", "st claire", "at&t"}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 52; i++ {
		name := employers[r.IntN(len(employers))].Name
		qs = append(qs, name[:min(len(name), 3+r.IntN(10))])
	}
	return qs
}

func BenchmarkSearch(b *testing.B) {
	for _, d := range []storage.Dialect{storage.SQLite, storage.Postgres} {
		b.Run(string(d), func(b *testing.B) {
			env := newBenchEnv(b, d)
			queries := searchQueries(env.employers)
			if err := env.server.directory.RefreshSearchIndex(context.Background()); err != nil {
				b.Fatal(err)
			}
			b.Run("api", func(b *testing.B) {
				var l latencies
				for i := 0; b.Loop(); i++ {
					q := queries[i%len(queries)]
					l.time(func() { env.serve(b, "/v1/search?q="+url.QueryEscape(q)) })
				}
				l.report(b)
			})
			// The baseline: a case-insensitive substring scan of both
			// tables, the query a search endpoint without an index sends.
			query := env.db.Rebind(`SELECT id, name FROM (
				SELECT id, name FROM employers WHERE lower(name) LIKE ?
				UNION ALL SELECT id, name FROM platforms WHERE esp = ? AND lower(name) LIKE ?) AS hits
				ORDER BY name LIMIT 25`)
			b.Run("baseline-sql", func(b *testing.B) {
				var l latencies
				for i := 0; b.Loop(); i++ {
					pattern := "%" + strings.ToLower(queries[i%len(queries)]) + "%"
					var rows []struct {
						ID   string `db:"id"`
						Name string `db:"name"`
					}
					l.time(func() {
						if err := env.db.Select(&rows, query, pattern, false, pattern); err != nil {
							b.Fatal(err)
						}
					})
				}
				l.report(b)
			})
		})
	}
}

func BenchmarkGetEmployer(b *testing.B) {
	for _, d := range []storage.Dialect{storage.SQLite, storage.Postgres} {
		b.Run(string(d), func(b *testing.B) {
			env := newBenchEnv(b, d)
			r := rand.New(rand.NewPCG(3, 4))
			ids := make([]string, 1024)
			for i := range ids {
				ids[i] = env.employers[r.IntN(len(env.employers))].ID
			}
			b.Run("api", func(b *testing.B) {
				var l latencies
				for i := 0; b.Loop(); i++ {
					l.time(func() { env.serve(b, "/v1/employers/"+ids[i%len(ids)]) })
				}
				l.report(b)
			})
			query := env.db.Rebind(`SELECT ` + benchEmployerColumns + ` FROM employers WHERE id = ?`)
			b.Run("baseline-sql", func(b *testing.B) {
				var l latencies
				for i := 0; b.Loop(); i++ {
					var row benchEmployerRow
					l.time(func() {
						if err := env.db.Get(&row, query, ids[i%len(ids)]); err != nil {
							b.Fatal(err)
						}
					})
				}
				l.report(b)
			})
		})
	}
}

const benchEmployerColumns = `id, name, ein, platform_id, last_updated, logo_url, supported_jobs, amount_supported,
	fractional_amount_supported, min_amount, max_amount, percentage_supported, min_percentage, max_percentage`

type benchEmployerRow struct {
	ID                        string    `db:"id"`
	Name                      string    `db:"name"`
	EIN                       string    `db:"ein"`
	PlatformID                string    `db:"platform_id"`
	LastUpdated               time.Time `db:"last_updated"`
	LogoURL                   *string   `db:"logo_url"`
	SupportedJobs             string    `db:"supported_jobs"`
	AmountSupported           bool      `db:"amount_supported"`
	FractionalAmountSupported bool      `db:"fractional_amount_supported"`
	MinAmount                 *int64    `db:"min_amount"`
	MaxAmount                 *int64    `db:"max_amount"`
	PercentageSupported       bool      `db:"percentage_supported"`
	MinPercentage             int       `db:"min_percentage"`
	MaxPercentage             int       `db:"max_percentage"`
}

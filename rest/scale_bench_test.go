package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/domain/search"
	"payline/storage"
	"payline/storage/storagetest"
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
			idx := search.New(env.employers, env.platforms)
			runtime.GC()
			runtime.ReadMemStats(&after)
			indexBytes := float64(after.HeapAlloc) - float64(before.HeapAlloc)
			runtime.KeepAlive(idx)
			idx = nil

			// Rebuild: read the directory from the database and index it,
			// what an instance does when the directory changes.
			dir := domain.NewDirectoryService(storage.NewDirectoryStore(env.db), domain.NoRelay{}, search.Build)
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

// BenchmarkDataScale measures reads as the data grows tenfold: 1,000 and
// then 10,000 end users, each with an account holding two years of
// paystubs (written by the sandbox's generator through the real stores),
// identity, income and five jobs. It reports GET
// /v1/accounts/{id}/paystubs (the first page) and the GraphQL dashboard
// query (dashboardQuery: an end user's accounts with platform, jobs,
// twelve paystubs, identity and income) for random end users, on
// PostgreSQL:
//
//	PAYLINE_SCALE=1 PAYLINE_TEST_DATABASE_URL=... go test ./rest -run '^$' -bench DataScale -benchtime 5000x -timeout 60m
func BenchmarkDataScale(b *testing.B) {
	if os.Getenv("PAYLINE_SCALE") != "1" {
		b.Skip("set PAYLINE_SCALE=1 to seed 1,000 and 10,000 end users")
	}
	for _, users := range scaleUsers() {
		b.Run("end_users="+strconv.Itoa(users/1000)+"k", func(b *testing.B) {
			db := storagetest.Open(b, storage.Postgres, storagetest.Seeded)
			f := newFixture(b, db)
			p := switchPlatform(b)
			start := time.Now()
			accounts, stubs := f.seedEndUsers(users, p.ID)
			b.Logf("seeded %d end users, %d paystubs in %v", users, stubs, time.Since(start).Round(time.Second))
			r := rand.New(rand.NewPCG(7, 8))
			b.Run("rest=paystubs", func(b *testing.B) {
				var l latencies
				for b.Loop() {
					path := "/v1/accounts/" + accounts[r.IntN(len(accounts))] + "/paystubs"
					l.time(func() {
						req := httptest.NewRequest(http.MethodGet, path, nil)
						req.Header.Set("x-api-secret", f.secret)
						req.Header.Set("Service-Version", domain.LatestVersion)
						rec := httptest.NewRecorder()
						f.server.ServeHTTP(rec, req)
						if rec.Code != 200 {
							b.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
						}
					})
				}
				l.report(b)
			})
			b.Run("graphql=dashboard", func(b *testing.B) {
				var l latencies
				for b.Loop() {
					body, _ := json.Marshal(map[string]any{"query": dashboardQuery,
						"variables": map[string]any{"id": fmt.Sprintf("scale-%d", r.IntN(users)), "first": 10}})
					l.time(func() {
						req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
						req.Header.Set("x-api-secret", f.secret)
						req.Header.Set("Content-Type", "application/json")
						rec := httptest.NewRecorder()
						f.server.ServeHTTP(rec, req)
						if rec.Code != 200 || bytes.Contains(rec.Body.Bytes(), []byte(`"errors"`)) {
							b.Fatalf("%d %s", rec.Code, rec.Body)
						}
					})
				}
				l.report(b)
			})
		})
	}
}

// seedEndUsers writes n end users (scale-0 ...) with one account each,
// like seedEndUser, a hundred to a transaction, and returns the account
// ids and how many paystubs were written.
func (f *fixture) seedEndUsers(n int, platformID string) (accounts []string, stubs int) {
	f.t.Helper()
	ctx, sc := context.Background(), f.key.Scope()
	tx := storage.NewTransactor(f.db, nil)
	now := f.clock.Now()
	for from := 0; from < n; from += 100 {
		err := tx.InTx(ctx, func(ctx context.Context, t domain.Tx) error {
			for i := from; i < min(from+100, n); i++ {
				endUser := fmt.Sprintf("scale-%d", i)
				tok := domain.LinkToken{ID: domain.NewID(), CustomerID: sc.CustomerID, Mode: sc.Mode, TokenHash: []byte(domain.NewID()),
					CreatedAt: now, Expires: now, APIVersion: domain.LatestVersion, OrgName: "Acme", EndUserID: endUser}
				a := domain.Account{ID: domain.NewID(), CustomerID: sc.CustomerID, Mode: sc.Mode, CreatedAt: now,
					LinkTokenID: tok.ID, PlatformID: platformID, EndUserID: endUser, EmployerName: "Seeded", Connected: true,
					MonitoringStatus: domain.MonitoringActive, Connection: "good",
					DataUpdatedAt: map[string]time.Time{}, DataRefreshedAt: map[string]time.Time{}}
				for _, product := range []string{domain.ProductIdentity, domain.ProductIncome, domain.ProductPaystubs} {
					a.DataUpdatedAt[product], a.DataRefreshedAt[product] = now, now
				}
				person := sandbox.NewPerson(a)
				paystubs := person.Paystubs(now.Add(-domain.PaystubHistory), now, now)
				if err := t.LinkTokens().CreateLinkToken(ctx, sc, tok); err != nil {
					return err
				}
				if err := t.Accounts().CreateAccount(ctx, sc, a); err != nil {
					return err
				}
				identity := person.Identity()
				if _, err := t.Data().PutProduct(ctx, sc, a.ID, domain.ProductIdentity, domain.ProductData{Identity: &identity}, now); err != nil {
					return err
				}
				income := person.Income()
				if _, err := t.Data().PutProduct(ctx, sc, a.ID, domain.ProductIncome, domain.ProductData{Income: &income}, now); err != nil {
					return err
				}
				if _, err := t.Data().PutPaystubs(ctx, sc, a.ID, paystubs); err != nil {
					return err
				}
				for j := range 5 {
					at := now.Add(time.Duration(j) * time.Minute)
					job := domain.Job{ID: domain.NewID(), CustomerID: sc.CustomerID, Mode: sc.Mode, AccountID: a.ID, PlatformID: platformID,
						PlatformName: "Seeded", EndUserID: endUser, LinkTokenID: tok.ID, Name: domain.JobPaystubs, CreatedAt: at,
						Timestamp: &at, Outcome: domain.OutcomeSuccess}
					if err := t.Jobs().CreateJob(ctx, sc, job); err != nil {
						return err
					}
				}
				accounts = append(accounts, a.ID)
				stubs += len(paystubs)
			}
			return nil
		})
		if err != nil {
			f.t.Fatal(err)
		}
	}
	return accounts, stubs
}

// scaleUsers are the sizes BenchmarkDataScale seeds (PAYLINE_SCALE_USERS
// picks one, for profiling).
func scaleUsers() []int {
	if n, err := strconv.Atoi(os.Getenv("PAYLINE_SCALE_USERS")); err == nil && n > 0 {
		return []int{n}
	}
	return []int{1_000, 10_000}
}

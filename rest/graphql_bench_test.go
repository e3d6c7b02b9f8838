package rest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// BenchmarkDashboard compares the dashboard query (an end user's 10
// accounts, each with its platform, last 5 jobs, last 12 paystubs,
// identity and income) in one GraphQL request with the 51 REST calls that
// return the same data, made one after another by one client, as a
// dashboard without GraphQL would. Both go through the whole server
// (authentication, versions, envelopes) in process. The bar is GraphQL at
// most 1.5x the REST calls' time; docs/benchmarks.md records the ratio:
//
//	benchstat -col /api results.txt
func BenchmarkDashboard(b *testing.B) {
	for _, d := range []storage.Dialect{storage.SQLite, storage.Postgres} {
		b.Run("db="+string(d), func(b *testing.B) {
			db := storagetest.Open(b, d, storagetest.Seeded)
			f := newFixture(b, db)
			p := switchPlatform(b)
			const user, accounts = "dashboard", 10
			f.seedEndUser(user, accounts, p.ID)

			body, _ := json.Marshal(map[string]any{"query": dashboardQuery, "variables": map[string]any{"id": user, "first": accounts}})
			b.Run("api=graphql", func(b *testing.B) {
				for b.Loop() {
					req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
					req.Header.Set("x-api-secret", f.secret)
					req.Header.Set("Content-Type", "application/json")
					rec := httptest.NewRecorder()
					f.server.ServeHTTP(rec, req)
					var res struct {
						Data struct {
							EndUser struct {
								Accounts struct{ Edges []json.RawMessage }
							}
						}
						Errors []json.RawMessage
					}
					if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil || rec.Code != 200 || len(res.Errors) > 0 ||
						len(res.Data.EndUser.Accounts.Edges) != accounts {
						b.Fatalf("%d %s", rec.Code, rec.Body)
					}
				}
			})

			get := func(b *testing.B, path string, into any) {
				req := httptest.NewRequest(http.MethodGet, path, nil)
				req.Header.Set("x-api-secret", f.secret)
				req.Header.Set("Service-Version", domain.LatestVersion)
				rec := httptest.NewRecorder()
				f.server.ServeHTTP(rec, req)
				if rec.Code != 200 {
					b.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
				}
				if err := json.Unmarshal(rec.Body.Bytes(), into); err != nil {
					b.Fatal(err)
				}
			}
			b.Run("api=rest-sequential", func(b *testing.B) {
				for b.Loop() {
					var list struct {
						Data []struct {
							ID         string `json:"id"`
							PlatformID string `json:"platform_id"`
						}
					}
					get(b, fmt.Sprintf("/v1/end_users/%s/accounts?limit=%d", user, accounts), &list)
					if len(list.Data) != accounts {
						b.Fatalf("%d accounts", len(list.Data))
					}
					for _, a := range list.Data {
						var platform, jobs, stubs, identity, income struct{ Data json.RawMessage }
						get(b, "/v1/platforms/"+a.PlatformID, &platform)
						get(b, "/v1/jobs?limit=5&account_id="+a.ID, &jobs)
						get(b, "/v1/accounts/"+a.ID+"/paystubs?limit=12", &stubs)
						get(b, "/v1/accounts/"+a.ID+"/identity", &identity)
						get(b, "/v1/accounts/"+a.ID+"/income", &income)
					}
				}
			})
		})
	}
}

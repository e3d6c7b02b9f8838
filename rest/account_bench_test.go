package rest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	jsonv2 "github.com/go-json-experiment/json"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/internal/testwait"
	"payline/rest/wire"
	"payline/storage"
	"payline/storage/storagetest"
)

// BenchmarkGetAccount compares GET /v1/accounts/{id} through Payline's
// whole pipeline with a bare net/http + sqlx handler that runs the same
// query and encodes the row, no auth, no version, no envelope. The
// architecture's bar is 0.7x the baseline's throughput on PostgreSQL.
func BenchmarkGetAccount(b *testing.B) {
	for _, d := range []storage.Dialect{storage.SQLite, storage.Postgres} {
		b.Run(string(d), func(b *testing.B) {
			db := storagetest.Open(b, d, storagetest.Seeded)
			f := newFixture(b, db)
			p := switchPlatform(b)
			var ids, tokenIDs []string
			for i := 0; i < 50; i++ {
				tokenID, token := f.createToken(`{"org_name": "Acme", "end_user_id": "bench"}`)
				tokenIDs = append(tokenIDs, tokenID)
				ids = append(ids, f.linkSession(sessionBody(token, p.ID, sandbox.UserGood, "")).data(b)["account_id"].(string))
			}
			for _, tokenID := range tokenIDs { // measure reads, not reads racing the login jobs' writes
				waitAllFinal(f, tokenID)
			}
			r := rand.New(rand.NewPCG(5, 6))
			b.Run("api", func(b *testing.B) {
				var l latencies
				for b.Loop() {
					id := ids[r.IntN(len(ids))]
					req := httptest.NewRequest(http.MethodGet, "/v1/accounts/"+id, nil)
					req.Header.Set("x-api-secret", f.secret)
					req.Header.Set("Service-Version", domain.LatestVersion)
					l.time(func() {
						rec := httptest.NewRecorder()
						f.server.ServeHTTP(rec, req)
						if rec.Code != 200 {
							b.Fatalf("%d %s", rec.Code, rec.Body)
						}
					})
				}
				l.report(b)
			})
			query := db.Rebind(`SELECT id, customer_id, mode, created_at, link_token_id, platform_id, employer_id, end_user_id,
				connected, monitoring_status, data_updated_at, data_refreshed_at, connection, employer_name
				FROM accounts WHERE id = ? AND customer_id = ? AND mode = ?`)
			// The baseline answers with the very bytes the API does (checked
			// below): the same query, the same decoding of the row and the
			// same JSON, so the difference is the pipeline alone (routing,
			// request id, Service-Version, auth, rate limiter, logging, the
			// domain layers).
			bare := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				var row struct {
					ID               string    `db:"id"`
					CustomerID       string    `db:"customer_id"`
					Mode             string    `db:"mode"`
					CreatedAt        time.Time `db:"created_at"`
					LinkTokenID      string    `db:"link_token_id"`
					PlatformID       string    `db:"platform_id"`
					EmployerID       *string   `db:"employer_id"`
					EndUserID        string    `db:"end_user_id"`
					Connected        bool      `db:"connected"`
					MonitoringStatus string    `db:"monitoring_status"`
					DataUpdatedAt    string    `db:"data_updated_at"`
					DataRefreshedAt  string    `db:"data_refreshed_at"`
					Connection       string    `db:"connection"`
					EmployerName     string    `db:"employer_name"`
				}
				if err := db.GetContext(req.Context(), &row, query, req.PathValue("id"), f.key.CustomerID, string(f.key.Mode)); err != nil {
					http.Error(w, err.Error(), 500)
					return
				}
				var updated, refreshed map[string]time.Time
				if jsonv2.Unmarshal([]byte(row.DataUpdatedAt), &updated) != nil || jsonv2.Unmarshal([]byte(row.DataRefreshedAt), &refreshed) != nil {
					http.Error(w, "bad time map", 500)
					return
				}
				body := struct {
					Data accountJSON `json:"data"`
				}{accountJSON{ID: row.ID, CreatedAt: wire.Time(row.CreatedAt.UTC()), LinkTokenID: row.LinkTokenID, PlatformID: row.PlatformID,
					EndUserID: row.EndUserID, Connected: row.Connected, MonitoringStatus: domain.MonitoringStatus(row.MonitoringStatus),
					DataUpdatedAt: apiTimes(updated), DataRefreshedAt: apiTimes(refreshed)}}
				w.Header().Set("Content-Type", "application/json")
				enc := json.NewEncoder(w)
				enc.SetEscapeHTML(false)
				_ = enc.Encode(body)
			})
			mux := http.NewServeMux()
			mux.Handle("GET /accounts/{id}", bare)
			for _, id := range ids[:5] {
				api := httptest.NewRecorder()
				req := httptest.NewRequest(http.MethodGet, "/v1/accounts/"+id, nil)
				req.Header.Set("x-api-secret", f.secret)
				req.Header.Set("Service-Version", domain.LatestVersion)
				f.server.ServeHTTP(api, req)
				base := httptest.NewRecorder()
				mux.ServeHTTP(base, httptest.NewRequest(http.MethodGet, "/accounts/"+id, nil))
				if api.Body.String() != base.Body.String() {
					b.Fatalf("the baseline does not answer what the API does:\napi:      %s\nbaseline: %s", api.Body, base.Body)
				}
			}
			b.Run("baseline-bare-handler", func(b *testing.B) {
				var l latencies
				for b.Loop() {
					req := httptest.NewRequest(http.MethodGet, "/accounts/"+ids[r.IntN(len(ids))], nil)
					l.time(func() {
						rec := httptest.NewRecorder()
						mux.ServeHTTP(rec, req)
						if rec.Code != 200 {
							b.Fatalf("%d %s", rec.Code, rec.Body)
						}
					})
				}
				l.report(b)
			})
		})
	}
}

// waitAllFinal waits until every job of the token has a final outcome.
func waitAllFinal(f *fixture, tokenID string) {
	f.t.Helper()
	testwait.Every(100*time.Millisecond).Until(f.t, 20*time.Second, func() error {
		jobs := f.get("/v1/jobs?limit=100&link_token_id=" + tokenID).list(f.t)
		for _, j := range jobs {
			if j["outcome"] != "success" && j["outcome"] != "error" {
				return fmt.Errorf("jobs of %s not final: %v", tokenID, jobs)
			}
		}
		if len(jobs) == 0 {
			return fmt.Errorf("no jobs of %s yet", tokenID)
		}
		return nil
	})
}

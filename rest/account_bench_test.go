package rest

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
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
			var ids []string
			for i := 0; i < 50; i++ {
				_, token := f.createToken(`{"org_name": "Acme", "end_user_id": "bench"}`)
				ids = append(ids, f.linkSession(sessionBody(token, p.ID, sandbox.UserGood, "")).data(b)["account_id"].(string))
			}
			time.Sleep(time.Second) // let the login jobs settle
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
			bare := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				var row struct {
					ID               string    `db:"id" json:"id"`
					CustomerID       string    `db:"customer_id" json:"-"`
					Mode             string    `db:"mode" json:"-"`
					CreatedAt        time.Time `db:"created_at" json:"created_at"`
					LinkTokenID      string    `db:"link_token_id" json:"link_token_id"`
					PlatformID       string    `db:"platform_id" json:"platform_id"`
					EmployerID       *string   `db:"employer_id" json:"-"`
					EndUserID        string    `db:"end_user_id" json:"end_user_id"`
					Connected        bool      `db:"connected" json:"connected"`
					MonitoringStatus string    `db:"monitoring_status" json:"monitoring_status"`
					DataUpdatedAt    string    `db:"data_updated_at" json:"data_updated_at"`
					DataRefreshedAt  string    `db:"data_refreshed_at" json:"data_refreshed_at"`
					Connection       string    `db:"connection" json:"-"`
					EmployerName     string    `db:"employer_name" json:"-"`
				}
				if err := db.GetContext(req.Context(), &row, query, req.PathValue("id"), f.key.CustomerID, string(f.key.Mode)); err != nil {
					http.Error(w, err.Error(), 500)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				_ = json.NewEncoder(w).Encode(row)
			})
			mux := http.NewServeMux()
			mux.Handle("GET /accounts/{id}", bare)
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

package rest

import (
	"embed"
	"net/http"
	"strings"

	"payline/domain"
)

//go:embed dashboard
var dashboardFiles embed.FS

// dashboardCSP lets the dashboard run only its own scripts and styles,
// talk only to this server (fetch and the GraphQL websocket), and frame
// only Link, which this server also serves.
const dashboardCSP = "default-src 'self'; img-src 'self' data:; connect-src 'self'; frame-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"

// dashboardRoutes serves the dashboard's page and assets, embedded in the
// binary: no CDN and no build step.
func (s *Server) dashboardRoutes() {
	if s.members == nil {
		return
	}
	index, err := dashboardFiles.ReadFile("dashboard/index.html")
	if err != nil {
		panic(err) // embedded at build time
	}
	page := strings.NewReplacer("{{SERVICE_VERSION}}", domain.LatestVersion,
		"{{WEBHOOK_EVENTS}}", strings.Join(domain.EventNames(), ",")).Replace(string(index))
	s.mux.HandleFunc("GET /dashboard", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/dashboard/", http.StatusFound)
	})
	s.mux.HandleFunc("GET /dashboard/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", dashboardCSP)
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write([]byte(page)) // a failed write is a client gone: no one left to tell
	})
	s.mux.HandleFunc("GET /dashboard/assets/{name}", func(w http.ResponseWriter, r *http.Request) {
		name := r.PathValue("name")
		if name != "app.js" && name != "review.js" && name != "outbox.js" && name != "orders.js" && name != "disputes.js" && name != "app.css" {
			http.NotFound(w, r)
			return
		}
		b, err := dashboardFiles.ReadFile("dashboard/" + name)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", map[string]string{"app.js": "text/javascript; charset=utf-8", "review.js": "text/javascript; charset=utf-8",
			"outbox.js": "text/javascript; charset=utf-8", "orders.js": "text/javascript; charset=utf-8",
			"disputes.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8"}[name])
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(b) // a failed write is a client gone: no one left to tell
	})
}

package rest

import (
	"bytes"
	"fmt"
	"net/http"
	"path"
	"slices"
	"strings"

	"payline/docs"
	"payline/domain"
	"payline/rest/link"
	"payline/rest/wire"
)

func (s *Server) routes() {
	s.handle("GET /v1/employers", s.listEmployers)
	s.handle("GET /v1/employers/lookup", s.lookupEmployer)
	s.handle("GET /v1/employers/{employer_id}", s.getEmployer)
	s.handle("GET /v1/platforms", s.listPlatforms)
	s.handle("GET /v1/platforms/{platform_id}", s.getPlatform)
	s.handle("GET /v1/search", s.search)
	if s.link != nil && s.accounts != nil {
		lh := link.NewHandler(s.link, s.directory, s.log, s.privacyURL, s.upstreamLinkOrigins)
		lh.SetPublicURL(s.publicURL) // the phone hand-off's QR code
		lh.SetPortal(s.portal)       // the receipt
		s.mux.Handle("/link/", lh)
		// Link's API is guarded by the link token: checked before a body
		// is read (an upload is up to 100 MB), which then comes in whole
		// before the work takes a slot (admission.go).
		s.mux.Handle("/link/v1/api/", lh.TokenFirst(s.unvouched(lh)))
		s.handle("POST /v1/link_tokens", s.createLinkToken)
		s.handle("POST /v1/sites", s.createSite)
		s.handle("GET /v1/jobs", s.listJobs)
		s.handle("GET /v1/link_tokens/{token_id}/jobs", s.legacyTokenJobs)
		s.handle("GET /v1/accounts", s.listAccounts)
		s.handle("GET /v1/accounts/{account_id}", s.getAccount)
		s.handle("GET /v1/end_users/{end_user_id}/accounts", s.listEndUserAccounts)
		s.handle("POST /v1/sandbox/link_sessions", s.sandboxLinkSession)
		s.handle("PATCH /v1/sandbox/accounts/{account_id}", s.sandboxPatchAccount)
		for _, product := range []string{domain.ProductIdentity, domain.ProductEmployment, domain.ProductIncome, domain.ProductAllocations} {
			s.handle("GET /v1/accounts/{account_id}/"+product, s.productHandler(product))
		}
		s.handle("GET /v1/accounts/{account_id}/paystubs", s.listPaystubs)
		s.handle("GET /v1/accounts/{account_id}/paystubs/{paystub_id}", s.getPaystub)
		s.handle("POST /v1/accounts/{account_id}/disconnect", s.disconnect)
		s.handle("POST /v1/accounts/{account_id}/disable_monitoring", s.disableMonitoring)
		s.handle("GET /v1/accounts/{account_id}/tax_forms", s.accountRecords(domain.RecordTaxForm, domain.ProductTaxForms))
		s.handle("GET /v1/accounts/{account_id}/tax_forms/{tax_form_id}", s.getTaxForm)
		s.handle("GET /v1/accounts/{account_id}/shifts", s.accountRecords(domain.RecordShift, domain.ProductShifts))
		s.handle("GET /v1/end_users/{end_user_id}/documents", s.listDocuments)
		s.handle("GET /v1/end_users/{end_user_id}/documents/{document_id}", s.getDocument)
		s.handle("GET /v1/end_users/{end_user_id}/earnings_stream/payouts", s.earningsStream)
		s.handle("PUT /v1/end_users/{end_user_id}/bill_navigator/status", s.billNavigatorStatus)
	}
	if s.reports != nil {
		s.handle("GET /v1/end_users/{end_user_id}/verification_reports/voie", s.verificationReport(domain.ReportVOIE))
		s.handle("GET /v1/end_users/{end_user_id}/verification_reports/voe", s.verificationReport(domain.ReportVOE))
		s.mux.Handle("GET /files/{document_id}", s.unvouched(http.HandlerFunc(s.download)))
	}
	if s.webhooks != nil {
		s.mux.HandleFunc("GET /v1/webhook_listeners", s.webhookListener)
		s.handle("GET /v1/webhooks", s.listWebhooks)
		s.handle("POST /v1/webhooks", s.createWebhook)
		s.handle("GET /v1/webhooks/{webhook_id}", s.getWebhook)
		s.handle("PUT /v1/webhooks/{webhook_id}", s.updateWebhook)
		s.handle("DELETE /v1/webhooks/{webhook_id}", s.deleteWebhook)
		s.handle("GET /v1/webhooks/{webhook_id}/deliveries", s.listDeliveries)
		s.handle("POST /v1/sandbox/webhooks/{webhook_id}/test", s.sandboxTestWebhook)
	}
	if len(s.relays) > 0 {
		// The upstream's deliveries carry its signature, not an API secret.
		s.mux.Handle("POST /v1/upstream/webhooks", s.unvouched(http.HandlerFunc(s.upstreamWebhook)))
	}
	s.adminRoutes()
	s.reviewRoutes()
	s.linkOrderRoutes()
	s.disputeRoutes()
	s.personDisputeRoutes()
	s.portalRoutes()
	s.dashboardRoutes()
	s.messageHookRoutes()
	s.handle("/v1/", s.noRoute)
	// The API's OpenAPI description needs no secret: tools and people
	// read it before they have one.
	s.mux.HandleFunc("GET /v1/openapi.yaml", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/yaml; charset=utf-8")
		w.Header().Set("Cache-Control", "public, max-age=300")
		_, _ = w.Write(s.openAPI()) // a failed write is a client gone: no one left to tell
	})
	s.mux.HandleFunc("GET /v1/connector-protocol.yaml", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/yaml; charset=utf-8")
		w.Header().Set("Cache-Control", "public, max-age=300")
		_, _ = w.Write(docs.ConnectorProtocol) // as above
	})
	s.mux.HandleFunc("GET /readyz", s.readyz)
	s.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		wire.Write(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	// Outside /v1 nothing is secret, so unknown paths answer at once, but
	// still in the spec's error shape.
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Service-Version", domain.LatestVersion)
		s.writeError(w, r, domain.Errorf(domain.KindNotFound, domain.CodeRouteNotFound,
			"no endpoint %s %s; the API lives under /v1", r.Method, r.URL.Path))
	})
}

// pathWildcards are the {names} of a route pattern.
func pathWildcards(pattern string) []string {
	var out []string
	for _, seg := range strings.Split(pattern, "/") {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			out = append(out, strings.TrimSuffix(seg[1:len(seg)-1], "..."))
		}
	}
	return out
}

// loggedPath is the request's path as the log may keep it: a path value
// that is not one of Payline's UUIDs (a customer's end_user_id, which may
// be an e-mail address, or anything a caller typed) shows as its name,
// and a path no route matched shows only its first two segments. Logs
// must not become a copy of people's identifiers.
func loggedPath(r *http.Request) string {
	if r.Pattern == "" {
		segs := strings.SplitN(strings.TrimPrefix(r.URL.Path, "/"), "/", 3)
		return "/" + strings.Join(segs[:min(2, len(segs))], "/") + "/..."
	}
	_, pattern, found := strings.Cut(r.Pattern, " ")
	if !found {
		pattern = r.Pattern
	}
	segs := strings.Split(pattern, "/")
	for i, seg := range segs {
		if name, ok := strings.CutPrefix(seg, "{"); ok {
			name = strings.TrimSuffix(strings.TrimSuffix(name, "}"), "...")
			if v := r.PathValue(name); domain.ValidID(v) {
				segs[i] = v
			}
		}
	}
	return strings.Join(segs, "/")
}

// cleanPath is the path ServeMux would redirect to: no empty, . or ..
// segments (a trailing slash is kept).
func cleanPath(p string) string {
	if p == "" || p[0] != '/' {
		p = "/" + p
	}
	np := path.Clean(p)
	if strings.HasSuffix(p, "/") && np != "/" {
		np += "/"
	}
	return np
}

// noRoute answers /v1 paths no route matches: 405 when another method
// would match, 404 otherwise. It runs behind auth like any API route, so an
// unauthenticated caller learns nothing about which paths exist.
func (s *Server) noRoute(r *http.Request) (response, error) {
	var allowed []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := s.mux.Handler(probe); pattern != "" && pattern != "/v1/" {
			allowed = append(allowed, m)
		}
	}
	if len(allowed) > 0 && !slices.Contains(allowed, r.Method) {
		return response{}, &domain.Error{Kind: domain.KindInvalid, Code: domain.CodeMethodNotAllowed,
			Message: fmt.Sprintf("%s is not allowed on %s; use %s", r.Method, r.URL.Path, strings.Join(allowed, " or "))}
	}
	return response{}, domain.Errorf(domain.KindNotFound, domain.CodeRouteNotFound, "no endpoint %s %s; see docs/openapi.yaml", r.Method, r.URL.Path)
}

// openAPI is docs/openapi.yaml with its servers entry naming this server
// (its --public-url), so a tool that loads the served document calls the
// server that served it.
func (s *Server) openAPI() []byte {
	const local = "  - url: http://127.0.0.1:8080/v1\n    description: a local sandbox started with `go run ./cmd/payline serve`\n"
	if s.publicURL == "" || !bytes.Contains(docs.OpenAPI, []byte(local)) {
		return docs.OpenAPI
	}
	base := strings.TrimRight(s.publicURL, "/")
	here := fmt.Sprintf("  - url: %s/v1\n    description: this server (%s mode)\n", base, s.mode)
	out := bytes.Replace(docs.OpenAPI, []byte(local), []byte(here), 1)
	// Downloads live outside /v1 and name the server without it.
	return bytes.ReplaceAll(out, []byte("      - url: http://127.0.0.1:8080\n"), []byte("      - url: "+base+"\n"))
}

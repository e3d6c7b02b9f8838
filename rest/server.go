package rest

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"path"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
	"golang.org/x/time/rate"

	"payline/docs"
	"payline/domain"
	"payline/rest/link"
	"payline/rest/wire"
)

// MaxBodyBytes bounds every request body.
const MaxBodyBytes = 1 << 20

// Config is what a Server needs.
type Config struct {
	Mode      domain.Mode
	Keys      *domain.KeyService
	Directory *domain.DirectoryService
	Link      *domain.LinkService
	Accounts  *domain.AccountService
	Webhooks  *domain.WebhookService
	// Relays, in a relayed mode, receive the upstreams' webhooks at
	// POST /v1/upstream/webhooks (empty: the route is not served);
	// UpstreamLinkOrigins are where the upstreams' Link SDKs come from,
	// which the modal loads.
	Relays              domain.Relays
	UpstreamLinkOrigins []string
	// Reports serves verification reports and document downloads.
	Reports domain.Reporter
	// GraphQL, when set, is served at /graphql behind the same API-secret
	// authentication and rate limit as /v1, except for the requests
	// GraphQLPublic says authenticate otherwise or need nothing (the
	// GraphiQL page and its assets, the SDL, websockets that authenticate in
	// connection_init).
	GraphQL       http.Handler
	GraphQLPublic func(r *http.Request) bool
	Logger        *slog.Logger
	// RateLimit is requests per second per customer and mode, across all
	// of the customer's keys and endpoints; zero picks the spec's
	// limit for the mode (50 in production, 10 otherwise), negative turns
	// limiting off (benchmarks only).
	RateLimit float64
	// PublicURL is where browsers reach this server (legacy site URLs).
	PublicURL string
	// PrivacyURL is the privacy notice Link's consent screen links to;
	// empty is Payline's own at /link/v1/privacy.
	PrivacyURL string
	// Metrics records requests and rate-limit refusals (nil: none).
	Metrics *Metrics
	// Ready runs the readiness checks of GET /readyz (nil: always ready).
	Ready func(ctx context.Context) []Check
	// Redis, when set, holds the rate limit's buckets, so every instance
	// on it shares one limit per customer; without it each process counts
	// alone (run one instance then).
	Redis *redis.Client
	// RateLimitClock times the rate limit's buckets (the system clock
	// when nil); tests hold it still so a slow machine refills nothing.
	RateLimitClock domain.Clock
	// Members signs workspace members in to the admin API and the
	// dashboard (nil: neither is served).
	Members *domain.MemberService
	// SecureCookies marks the dashboard's cookie Secure even when this
	// server sees plain HTTP (TLS ends at a proxy in front of it).
	SecureCookies bool
	// TrustProxy (outside the sandbox) refuses API requests that did not
	// reach the proxy in front over HTTPS, as X-Forwarded-Proto tells, and
	// marks cookies Secure for those that did.
	TrustProxy bool
	// MaxConcurrent caps the requests this instance serves at once (zero:
	// DefaultMaxConcurrent; negative: no cap). A request takes its slot
	// once a credential vouches for it, or once the whole body of a route
	// no credential guards has arrived (admission.go); websockets and the
	// public routes (health probes, documents, pages) take none.
	MaxConcurrent int
	// MaxConcurrentPerKey caps the requests one API key or member session
	// has in flight on this instance (zero: DefaultMaxConcurrentPerKey;
	// negative: no cap).
	MaxConcurrentPerKey int
	// MaxConcurrentPerAddress caps the requests one client address (the
	// peer, or behind TrustProxy the forwarded address) has at the door of
	// this instance: before a credential is checked or, on a route none
	// guards, before the whole body has arrived (zero:
	// DefaultMaxConcurrentPerAddress; negative: no cap).
	MaxConcurrentPerAddress int
	// BodyTimeout bounds reading a request's whole body, however fast it
	// keeps coming (zero: no bound beyond MinBodyRate); serve passes its
	// read timeout.
	BodyTimeout time.Duration
}

// DefaultMaxConcurrent is the requests an instance serves at once before
// it answers 429 SERVER_BUSY.
const DefaultMaxConcurrent = 512

// MaxHeaderBytes is the most header bytes a request may carry; net/http's
// own limit (http.Server.MaxHeaderBytes, 1 MiB) sits above it, so all but
// the most oversized headers get the API's error body.
const MaxHeaderBytes = 64 << 10

// Server serves the REST API.
type Server struct {
	mode      domain.Mode
	keys      *domain.KeyService
	directory *domain.DirectoryService
	link      *domain.LinkService
	accounts  *domain.AccountService
	webhooks  *domain.WebhookService
	reports   domain.Reporter
	relays    domain.Relays
	// upstreamLinkOrigins: see Config.UpstreamLinkOrigins.
	upstreamLinkOrigins []string
	log                 *slog.Logger

	graphQLPublic func(r *http.Request) bool
	limiter       limiter
	mux           *http.ServeMux
	privacyURL    string
	publicURL     string
	metrics       *Metrics
	ready         func(ctx context.Context) []Check
	members       *domain.MemberService
	secureCookies bool
	trustProxy    bool
	crossOrigin   *http.CrossOriginProtection
	slots         chan struct{} // nil: no cap
	inFlight      *inFlight     // per credential
	perAddress    *inFlight     // per client address, before a credential vouches
	bodyTimeout   time.Duration
}

// NewServer builds the server and its routes.
func NewServer(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Ready == nil {
		cfg.Ready = func(context.Context) []Check { return nil }
	}
	s := &Server{
		mode: cfg.Mode, keys: cfg.Keys, directory: cfg.Directory, link: cfg.Link, accounts: cfg.Accounts, webhooks: cfg.Webhooks,
		reports: cfg.Reports, relays: cfg.Relays, upstreamLinkOrigins: cfg.UpstreamLinkOrigins, log: cfg.Logger, graphQLPublic: cfg.GraphQLPublic, privacyURL: cfg.PrivacyURL,
		publicURL: cfg.PublicURL, metrics: cfg.Metrics, ready: cfg.Ready,
		members: cfg.Members, secureCookies: cfg.SecureCookies || strings.HasPrefix(cfg.PublicURL, "https://"), trustProxy: cfg.TrustProxy,
		crossOrigin: http.NewCrossOriginProtection(),
		limiter:     newKeyLimiter(limitFor(cfg.Mode, cfg.RateLimit), cfg.RateLimitClock),
		mux:         http.NewServeMux(),
	}
	if cfg.Redis != nil {
		s.limiter = newRedisLimiter(cfg.Redis, limitFor(cfg.Mode, cfg.RateLimit), s.log)
	}
	perKey := cfg.MaxConcurrentPerKey
	if perKey == 0 {
		perKey = DefaultMaxConcurrentPerKey
	}
	s.inFlight = newInFlight(perKey, tooManyForKey)
	s.perAddress = newInFlight(cmp.Or(cfg.MaxConcurrentPerAddress, DefaultMaxConcurrentPerAddress), tooManyFromAddress)
	s.bodyTimeout = cfg.BodyTimeout
	if n := cfg.MaxConcurrent; n >= 0 {
		if n == 0 {
			n = DefaultMaxConcurrent
		}
		s.slots = make(chan struct{}, n)
	}
	s.routes()
	if cfg.GraphQL != nil {
		s.mux.Handle("/graphql", s.graphQL(cfg.GraphQL))
		s.mux.Handle("/graphql/", s.graphQL(cfg.GraphQL))
	}
	return s
}

func limitFor(mode domain.Mode, configured float64) rate.Limit {
	switch {
	case configured < 0:
		return rate.Inf
	case configured > 0:
		return rate.Limit(configured)
	case mode == domain.ModeProduction:
		return 50
	}
	return 10
}

func (s *Server) routes() {
	s.handle("GET /v1/employers", s.listEmployers)
	s.handle("GET /v1/employers/lookup", s.lookupEmployer)
	s.handle("GET /v1/employers/{employer_id}", s.getEmployer)
	s.handle("GET /v1/platforms", s.listPlatforms)
	s.handle("GET /v1/platforms/{platform_id}", s.getPlatform)
	s.handle("GET /v1/search", s.search)
	if s.link != nil && s.accounts != nil {
		lh := link.NewHandler(s.link, s.directory, s.log, s.privacyURL, s.upstreamLinkOrigins)
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
	s.dashboardRoutes()
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

// ServeHTTP runs the outer pipeline: request id and panic recovery wrap
// every route, API or not.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := uuid.NewString()
	w.Header().Set("x-service-request-id", id)
	s.securityHeaders(w.Header(), r)
	ctx := domain.WithClientAddress(domain.WithRequestID(r.Context(), id), s.clientAddr(r))
	r = r.WithContext(ctx)
	rec := &statusRecorder{ResponseWriter: w}
	start := time.Now()
	defer func() {
		if p := recover(); p != nil {
			s.log.ErrorContext(ctx, "panic", slog.String("request_id", id), slog.Any("panic", p), slog.String("stack", string(debug.Stack())))
			if rec.status == 0 {
				s.writeError(rec, r, fmt.Errorf("panic: %v", p))
			}
		}
		elapsed := time.Since(start)
		s.metrics.request(r.Pattern, r.Method, rec.status, elapsed)
		if s.log.Enabled(ctx, slog.LevelInfo) {
			s.log.LogAttrs(ctx, slog.LevelInfo, "request", slog.String("request_id", id), slog.String("method", r.Method),
				slog.String("route", r.Pattern), slog.String("path", loggedPath(r)), slog.Int("status", rec.status),
				slog.Duration("duration", elapsed), slog.String("key_id", rec.keyID))
		}
	}()
	if headerBytes(r.Header) > MaxHeaderBytes {
		rec.Header().Set("Service-Version", domain.LatestVersion)
		s.writeError(rec, r, domain.Errorf(domain.KindInvalid, domain.CodeHeadersTooLarge,
			"the request's headers are over %d KiB; send fewer or shorter headers", MaxHeaderBytes>>10))
		return
	}
	if s.trustProxy && !s.overHTTPS(r) && r.URL.Path != "/healthz" && r.URL.Path != "/readyz" {
		rec.Header().Set("Service-Version", domain.LatestVersion)
		s.writeError(rec, r, domain.Errorf(domain.KindInvalid, domain.CodeHTTPSRequired,
			"this server takes requests over HTTPS only: call https:// (the proxy in front reported X-Forwarded-Proto %q)",
			r.Header.Get("X-Forwarded-Proto")))
		return
	}
	limit := int64(MaxBodyBytes)
	if r.URL.Path == "/link/v1/api/uploads" { // Link's document uploads: up to ten files of 10 MB
		limit = domain.MaxUploadRequestBytes
	}
	r.Body = http.MaxBytesReader(rec, r.Body, limit)
	adm := &admission{}
	if r.ContentLength != 0 {
		adm.body = newPacedBody(rec, r, s.bodyTimeout)
		r.Body = adm.body
	}
	defer s.leave(adm)
	if err := s.admit(r, adm); err != nil {
		rec.Header().Set("Service-Version", domain.LatestVersion)
		s.writeError(rec, r, err)
		return
	}
	r = r.WithContext(context.WithValue(ctx, admissionKey{}, adm))
	if clean := cleanPath(r.URL.Path); clean != r.URL.Path {
		// ServeMux would answer 307 to the cleaned path; an API names no
		// such paths, so it answers 404 in its own shape instead.
		rec.Header().Set("Service-Version", domain.LatestVersion)
		s.writeError(rec, r, domain.Errorf(domain.KindNotFound, domain.CodeRouteNotFound,
			"no endpoint %s %s: paths have no empty, . or .. segments", r.Method, strings.ToValidUTF8(r.URL.Path, "?")))
		return
	}
	s.mux.ServeHTTP(rec, r)
}

// securityHeaders go on every response. Answers carry people's data
// unless a handler says otherwise (static assets and the directory's
// documents set their own Cache-Control), so nothing is stored by a
// browser or proxy; no page leaks its URL (link tokens, signed download
// links) as a referrer; no response is sniffed into another type; and a
// client that reached the server over HTTPS keeps to it (HSTS, also
// behind a trusted TLS proxy).
func (s *Server) securityHeaders(h http.Header, r *http.Request) {
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	if s.overHTTPS(r) {
		h.Set("Strict-Transport-Security", "max-age=63072000; includeSubDomains")
	}
}

// overHTTPS reports whether the caller used HTTPS: to this server, or to
// the trusted proxy in front of it (X-Forwarded-Proto, set by the proxy).
func (s *Server) overHTTPS(r *http.Request) bool {
	return r.TLS != nil || s.trustProxy && strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}

// response is what an API handler returns: a status, and data tagged with
// its resource kind for the version transforms. A list carries next.
type response struct {
	status   int
	resource string
	data     any
	list     bool
	meta     map[string]any
	// raw writes data as the whole body, without the data envelope.
	raw bool
	// header is set on the response.
	header map[string]string
}

func object(resource string, data any) response {
	return response{status: http.StatusOK, resource: resource, data: data}
}

func page[T any](resource string, items []T, next *domain.Cursor) response {
	var cursor any // null on the last page
	if next != nil {
		cursor = next.Encode()
	}
	if items == nil {
		items = []T{}
	}
	return response{status: http.StatusOK, resource: resource, data: items, list: true,
		meta: map[string]any{"count": len(items), "next_cursor": cursor}}
}

type apiHandler func(r *http.Request) (response, error)

// handle registers an API route behind the inner pipeline: auth,
// Service-Version, rate limit, path values, handler, version transform.
func (s *Server) handle(pattern string, h apiHandler) {
	wildcards := pathWildcards(pattern)
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		version, versionErr := parseVersion(r.Header.Get("Service-Version"))
		w.Header().Set("Service-Version", version)
		key, err := s.authenticate(w, r)
		if err == nil {
			err = versionErr
		}
		if err == nil {
			err = s.rateLimit(r.Context(), w, key)
		}
		release := func() {}
		if err == nil {
			release, err = s.inFlight.take("key:" + key.ID)
		}
		defer release()
		if err == nil {
			err = s.enter(r)
		}
		for _, name := range wildcards {
			if err == nil {
				err = wire.CheckIDText(name, r.PathValue(name)) // every path value is an id
			}
		}
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		ctx := context.WithValue(domain.WithAPIKey(r.Context(), key), versionKey{}, version)
		resp, err := h(r.WithContext(ctx))
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		s.write(w, r, version, resp)
	})
}

// authenticate checks x-api-secret and notes the key for the access log.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) (domain.APIKey, error) {
	key, err := s.keys.Authenticate(r.Context(), apiSecret(r), s.mode)
	if err != nil {
		return key, err
	}
	if rec, ok := w.(*statusRecorder); ok {
		rec.keyID = key.ID
	}
	return key, nil
}

// rateLimit takes a token from the tenant's bucket or says when to retry
// (Retry-After).
func (s *Server) rateLimit(ctx context.Context, w http.ResponseWriter, key domain.APIKey) error {
	err := s.allow(ctx, key.Scope())
	if e, ok := err.(*domain.Error); ok && e.RetryAfter > 0 {
		w.Header().Set("Retry-After", retryAfterSeconds(e.RetryAfter))
	}
	return err
}

// allow takes one request from the tenant's rate: RATE_LIMIT_EXCEEDED,
// with the wait in RetryAfter, when there is none left. It is the
// domain.RateLimiter websockets count their operations with.
func (s *Server) allow(ctx context.Context, sc domain.Scope) error {
	wait, ok := s.limiter.allow(ctx, sc.CustomerID+"/"+string(sc.Mode))
	if ok {
		return nil
	}
	s.metrics.rateLimited(sc.Mode)
	return &domain.Error{Kind: domain.KindRateLimited, Code: domain.CodeRateLimitExceeded, RetryAfter: wait,
		Message: fmt.Sprintf("more than %s requests per second for this customer; retry after %s with exponential backoff",
			s.limiter.describe(), wait.Round(time.Millisecond))}
}

// rateStatus reads what is left of the tenant's rate, for GraphQL's
// rateLimit and extensions.cost.throttleStatus.
func (s *Server) rateStatus(ctx context.Context, sc domain.Scope) (domain.RateStatus, bool) {
	return s.limiter.status(ctx, sc.CustomerID+"/"+string(sc.Mode))
}

// headerBytes is the size of a request's headers as sent: names, values
// and the ": " and CRLF around each.
func headerBytes(h http.Header) int {
	n := 0
	for k, vs := range h {
		for _, v := range vs {
			n += len(k) + len(v) + 4
		}
	}
	return n
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

// retryAfterSeconds is a Retry-After value: whole seconds, rounded up.
var retryAfterSeconds = wire.RetryAfter

// graphQL puts the GraphQL handler behind authentication and the rate
// limit: an API secret, or a dashboard member's session cookie (whose
// writes must come from this site). Refusals keep the status REST would
// use but take GraphQL's error shape, with the REST code and type in
// extensions. The credential goes with the request, so a websocket can
// check it again for as long as it stays open, and so does the rate
// limit, which every operation on a websocket counts against.
func (s *Server) graphQL(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
			ctx = domain.WithRateLimiter(ctx, s.allow)
		}
		ctx = domain.WithRateStatus(ctx, s.rateStatus)
		if s.graphQLPublic != nil && s.graphQLPublic(r) {
			if s.members != nil && s.graphWebsocketCookie(r) {
				// The dashboard's websocket: its cookie came with the
				// upgrade, and coder/websocket refuses other origins.
				if sess, err := s.sessionOf(r); err == nil {
					ctx = domain.WithCredential(domain.WithSession(ctx, sess), s.members.SessionCredential(sess, s.sessionToken(r)))
				}
			}
			h.ServeHTTP(w, r.WithContext(ctx))
			return
		}
		var cred domain.Credential
		var sc domain.Scope
		var err error
		if _, cookie := s.sessionCookie(r); s.members != nil && apiSecret(r) == "" && cookie == nil {
			var sess domain.Session
			if sess, err = s.sessionOf(r); err == nil {
				cred, sc = s.members.SessionCredential(sess, s.sessionToken(r)), sess.Scope()
				ctx = domain.WithSession(ctx, sess)
			}
		} else {
			var key domain.APIKey
			if key, err = s.authenticate(w, r); err == nil {
				cred, sc = s.keys.KeyCredential(key, apiSecret(r), s.mode), key.Scope()
				ctx = domain.WithAPIKey(ctx, key)
			}
		}
		if err == nil {
			err = s.allow(ctx, sc)
		}
		release := func() {}
		if err == nil && !strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
			release, err = s.inFlight.take(cred.Holder)
			if err == nil {
				err = s.enter(r)
			}
		}
		if err != nil {
			e := domain.AsError(err)
			if e.RetryAfter > 0 {
				w.Header().Set("Retry-After", retryAfterSeconds(e.RetryAfter))
			}
			wire.Write(w, wire.Status(e.Kind), map[string]any{"errors": []map[string]any{{
				"message": e.Message, "extensions": map[string]any{"code": e.Code, "type": e.Kind.Type()},
			}}})
			return
		}
		defer release()
		h.ServeHTTP(w, r.WithContext(domain.WithCredential(ctx, cred)))
	})
}

// sessionToken is the member's token a request presents: the Bearer
// token, or the dashboard's cookie.
func (s *Server) sessionToken(r *http.Request) string {
	if token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return strings.TrimSpace(token)
	}
	if c, err := s.sessionCookie(r); err == nil {
		return c.Value
	}
	return ""
}

// graphWebsocketCookie reports whether a request opens a websocket with
// the dashboard's session cookie.
func (s *Server) graphWebsocketCookie(r *http.Request) bool {
	_, err := s.sessionCookie(r)
	return err == nil && strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}

func (s *Server) write(w http.ResponseWriter, r *http.Request, version string, resp response) {
	if resp.status == http.StatusNoContent {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	data, err := domain.ShapeForVersion(resp.resource, version, resp.data)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	for k, v := range resp.header {
		w.Header().Set(k, v)
	}
	if resp.raw {
		wire.Write(w, resp.status, data)
		return
	}
	body := envelope{Data: data}
	if resp.meta != nil {
		body.Meta = resp.meta
	}
	wire.Write(w, resp.status, body)
}

// envelope is the body of every API answer: {"data": ..., "meta": ...},
// meta only on lists and where a handler sets it. A struct, not a map,
// so encoding it reflects no map and sorts no keys.
type envelope struct {
	Data any `json:"data"`
	Meta any `json:"meta,omitempty"`
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

// parseVersion validates Service-Version. It always returns the version to
// echo: the one asked for, or the latest when it is missing or unknown.
func parseVersion(v string) (string, error) {
	if v == "" {
		return domain.LatestVersion, domain.Errorf(domain.KindInvalid, domain.CodeMissingServiceVersion,
			"missing Service-Version header; send one of %s", strings.Join(domain.Versions, ", "))
	}
	if !domain.KnownVersion(v) {
		return domain.LatestVersion, domain.Errorf(domain.KindInvalid, domain.CodeInvalidServiceVersion,
			"Service-Version %q is not supported; send one of %s", v, strings.Join(domain.Versions, ", "))
	}
	return v, nil
}

// apiSecret reads x-api-secret; net/http canonicalises header names, so
// any capitalisation works.
func apiSecret(r *http.Request) string { return strings.TrimSpace(r.Header.Get("x-api-secret")) }

type versionKey struct{}

// scopeOf is the tenant of an authenticated API request. A request no
// credential authenticated has none: a handler that asks is mounted
// without authentication, a bug that must fail (the recovery middleware
// answers 500 and logs it) rather than read or write an empty tenant.
func scopeOf(r *http.Request) domain.Scope {
	k, ok := domain.APIKeyFrom(r.Context())
	if !ok || k.CustomerID == "" {
		panic(errNoIdentity)
	}
	return k.Scope()
}

var errNoIdentity = errors.New("rest: a handler asked for the tenant of a request no API key authenticated; mount it behind authentication")

// versionOf is the Service-Version of an API request.
func versionOf(r *http.Request) string {
	v, _ := r.Context().Value(versionKey{}).(string)
	return v
}

// statusRecorder remembers the status and the authenticated key for the
// access log.
type statusRecorder struct {
	http.ResponseWriter
	status int
	keyID  string
}

func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// limiter decides whether a tenant may make one more request now.
type limiter interface {
	allow(ctx context.Context, tenant string) (wait time.Duration, ok bool)
	// status reads the tenant's bucket without taking from it; ok is
	// false when nothing limits the rate or the bucket cannot be read.
	status(ctx context.Context, tenant string) (st domain.RateStatus, ok bool)
	describe() string
}

// keyLimiter is a token bucket per tenant (customer and mode): the spec's
// limit is across all endpoints, so a second key buys no extra rate.
type keyLimiter struct {
	limit rate.Limit
	clock domain.Clock
	mu    sync.Mutex
	keys  map[string]*rate.Limiter
}

func newKeyLimiter(limit rate.Limit, clock domain.Clock) *keyLimiter {
	if clock == nil {
		clock = domain.SystemClock{}
	}
	return &keyLimiter{limit: limit, clock: clock, keys: map[string]*rate.Limiter{}}
}

// allow takes a token for the key, or says how long until one is free.
func (l *keyLimiter) allow(_ context.Context, keyID string) (time.Duration, bool) {
	if l.limit == rate.Inf {
		return 0, true
	}
	l.mu.Lock()
	lim, ok := l.keys[keyID]
	if !ok {
		lim = rate.NewLimiter(l.limit, int(math.Max(1, float64(l.limit))))
		l.keys[keyID] = lim
	}
	l.mu.Unlock()
	now := l.clock.Now()
	res := lim.ReserveN(now, 1)
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		return d, false
	}
	return 0, true
}

// status reads the key's bucket as allow would find it now.
func (l *keyLimiter) status(_ context.Context, keyID string) (domain.RateStatus, bool) {
	if l.limit == rate.Inf {
		return domain.RateStatus{}, false
	}
	burst := int(math.Max(1, float64(l.limit)))
	now := l.clock.Now()
	tokens := float64(burst)
	l.mu.Lock()
	if lim, ok := l.keys[keyID]; ok {
		tokens = lim.TokensAt(now)
	}
	l.mu.Unlock()
	missing := float64(burst) - math.Max(0, tokens)
	return domain.RateStatus{Limit: burst, Remaining: int(math.Max(0, math.Floor(tokens))), PerSecond: float64(l.limit),
		ResetAt: now.Add(time.Duration(missing / float64(l.limit) * float64(time.Second)))}, true
}

func (l *keyLimiter) describe() string { return strconv.FormatFloat(float64(l.limit), 'f', -1, 64) }

package rest

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/google/uuid"

	"payline/domain"
	"payline/rest/wire"
)

// Server serves the REST API.
type Server struct {
	mode      domain.Mode
	keys      *domain.KeyService
	directory *domain.DirectoryService
	link      *domain.LinkService
	accounts  *domain.AccountService
	jobs      *domain.AccountJobService
	products  *domain.ProductService
	documents *domain.DocumentService
	endUsers  *domain.EndUserService
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
	reviews       *domain.DocumentReviewService
	linkOrders    *domain.LinkOrderService
	disputes      *domain.DisputeService
	secureCookies bool
	trustProxy    bool
	crossOrigin   *http.CrossOriginProtection
	slots         chan struct{} // nil: no cap
	inFlight      *inFlight     // per credential
	perAddress    *inFlight     // per client address, before a credential vouches
	strangers     *inFlight     // per client address, at work with no credential
	tarpit        *tarpit       // flooding addresses wait
	bodyTimeout   time.Duration

	// inboundMessages: see Config.InboundMessages.
	inboundMessages domain.InboundMessageHook

	// portal: see Config.Portal.
	portal *domain.PortalService
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
		jobs: cfg.Jobs, products: cfg.Products, documents: cfg.Documents, endUsers: cfg.EndUsers,
		reports: cfg.Reports, relays: cfg.Relays, upstreamLinkOrigins: cfg.UpstreamLinkOrigins, log: cfg.Logger, graphQLPublic: cfg.GraphQLPublic, privacyURL: cfg.PrivacyURL,
		publicURL: cfg.PublicURL, metrics: cfg.Metrics, ready: cfg.Ready,
		members: cfg.Members, reviews: cfg.Reviews, linkOrders: cfg.LinkOrders, disputes: cfg.Disputes, secureCookies: cfg.SecureCookies || strings.HasPrefix(cfg.PublicURL, "https://"), trustProxy: cfg.TrustProxy,
		crossOrigin: http.NewCrossOriginProtection(),
		limiter:     newKeyLimiter(limitFor(cfg.Mode, cfg.RateLimit), cfg.RateLimitClock),
		mux:         http.NewServeMux(),
	}
	s.inboundMessages = cfg.InboundMessages
	s.portal = cfg.Portal
	if cfg.Redis != nil {
		s.limiter = newRedisLimiter(cfg.Redis, limitFor(cfg.Mode, cfg.RateLimit), s.log)
	}
	perKey := cfg.MaxConcurrentPerKey
	if perKey == 0 {
		perKey = DefaultMaxConcurrentPerKey
	}
	s.inFlight = newInFlight(perKey, tooManyForKey)
	s.perAddress = newInFlight(cmp.Or(cfg.MaxConcurrentPerAddress, DefaultMaxConcurrentPerAddress), tooManyFromAddress)
	s.strangers = newInFlight(cmp.Or(cfg.MaxConcurrentPerAddress, DefaultMaxConcurrentPerAddress), tooManyUnvouched)
	s.bodyTimeout = cfg.BodyTimeout
	s.tarpit = newTarpit(cfg.FloodDelay, cfg.floodRule)
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
		if rec.keyID == "" && (rec.status == http.StatusTooManyRequests || rec.status == http.StatusUnauthorized) {
			s.tarpit.refused(domain.ClientAddress(ctx))
		}
		s.metrics.request(r.Pattern, r.Method, rec.status, elapsed)
		if s.log.Enabled(ctx, slog.LevelInfo) {
			s.log.LogAttrs(ctx, slog.LevelInfo, "request", slog.String("request_id", id), slog.String("method", r.Method),
				slog.String("route", r.Pattern), slog.String("path", loggedPath(r)), slog.Int("status", rec.status),
				slog.Duration("duration", elapsed), slog.String("key_id", rec.keyID))
		}
	}()
	if len(r.RequestURI) > MaxURLBytes {
		refuseOversized(rec, http.StatusRequestURITooLong, domain.CodeURITooLong,
			fmt.Sprintf("the request's target (path and query) is over %d KiB; send long input in a JSON body", MaxURLBytes>>10))
		return
	}
	if headerBytes(r.Header) > MaxHeaderBytes {
		refuseOversized(rec, http.StatusRequestHeaderFieldsTooLarge, domain.CodeHeadersTooLarge,
			fmt.Sprintf("the request's headers are over %d KiB; send fewer or shorter headers", MaxHeaderBytes>>10))
		return
	}
	if s.trustProxy && !s.overHTTPS(r) && r.URL.Path != "/healthz" && r.URL.Path != "/readyz" {
		rec.Header().Set("Service-Version", domain.LatestVersion)
		s.writeError(rec, r, domain.Errorf(domain.KindInvalid, domain.CodeHTTPSRequired,
			"this server takes requests over HTTPS only: call https:// (the proxy in front reported X-Forwarded-Proto %q)",
			r.Header.Get("X-Forwarded-Proto")))
		return
	}
	if !s.slowFlood(rec, r) {
		return
	}
	limit := int64(MaxBodyBytes)
	if r.URL.Path == "/link/v1/api/uploads" || r.URL.Path == "/link/v1/api/uploads/preview" { // Link's document uploads and their preview: up to ten files of 10 MB
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

// refuseOversized answers a request over the API's size limits with
// HTTP's own status for it (414, 431) in the spec's error body. They are
// the transport's limits, not a domain rule, so no error kind carries
// them; their type is the one every request the caller must fix has.
func refuseOversized(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Service-Version", domain.LatestVersion)
	wire.Write(w, status, errorBody{Error: errorJSON{Type: domain.KindInvalid.Type(), Code: code, Message: message, StatusCode: status}})
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

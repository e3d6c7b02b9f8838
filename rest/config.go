package rest

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"

	"payline/domain"
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
	// The account's concepts, each its own service (domain.NewAccountService
	// wires them together).
	Jobs      *domain.AccountJobService
	Products  *domain.ProductService
	Documents *domain.DocumentService
	EndUsers  *domain.EndUserService
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
	// Reviews keeps the queue of uploaded documents a person reviews
	// (nil: no review routes).
	Reviews *domain.DocumentReviewService
	// LinkOrders sends Link to people and serves the orders' short links
	// (nil: no order routes).
	LinkOrders *domain.LinkOrderService
	// Portal serves the person's own page and its links (nil: not
	// served).
	Portal *domain.PortalService
	// Disputes keeps people's disputes (nil: no dispute routes).
	Disputes *domain.DisputeService
	// InboundMessages receives the SMS provider's webhook at
	// POST /v1/hooks/twilio/inbound (nil: the route is not served).
	InboundMessages domain.InboundMessageHook
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
	// guards, before the whole body has arrived; and, apart, the requests
	// of routes none guards it has at work (zero:
	// DefaultMaxConcurrentPerAddress; negative: no cap).
	MaxConcurrentPerAddress int
	// FloodDelay is how long a flooding address's requests wait before
	// they are looked at (tarpit.go; zero: DefaultFloodDelay; negative:
	// off).
	FloodDelay time.Duration
	// floodRule replaces the package's floodRule (tests).
	floodRule domain.ThrottleRule
	// BodyTimeout bounds reading a request's whole body, however fast it
	// keeps coming (zero: no bound beyond MinBodyRate); serve passes its
	// read timeout.
	BodyTimeout time.Duration
}

// DefaultMaxConcurrent is the requests an instance serves at once before
// it answers 429 SERVER_BUSY.
const DefaultMaxConcurrent = 512

// MaxHeaderBytes is the most header bytes a request may carry (over it:
// 431 HEADERS_TOO_LARGE), and MaxURLBytes the longest request target, path
// and query (over it: 414 URI_TOO_LONG). net/http's own limit on the two
// together (http.Server.MaxHeaderBytes, 1 MiB, serve's) sits far above
// both, so all but the most oversized requests get the API's error body;
// beyond it net/http answers a plain 431 itself.
const (
	MaxHeaderBytes = 64 << 10
	MaxURLBytes    = 64 << 10
)

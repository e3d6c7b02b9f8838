package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"payline/connectors/upstream"
	"payline/domain"
	"payline/domain/sandbox"
	"payline/reports"
	"payline/rest"
	"payline/storage"

	"github.com/redis/go-redis/v9"
)

// ServeConfig is everything `payline serve` is configured with.
type ServeConfig struct {
	Addr          string
	DatabaseURL   string
	MasterKeyFile string
	// PreviousMasterKeyFile is the key a rotation moves away from.
	PreviousMasterKeyFile string
	Mode                  domain.Mode
	// PublicURL is where integrators and browsers reach the server;
	// empty is http:// and the address it listens on.
	PublicURL string
	// RateLimit overrides the per-key request rate; see rest.Config.
	RateLimit float64
	// SearchRefresh is how often the search index checks for a changed
	// directory.
	SearchRefresh time.Duration
	// SandboxPendingDelay is how long user_pending jobs stay pending.
	SandboxPendingDelay time.Duration
	// QueuePollInterval is how often idle job workers look for work.
	QueuePollInterval time.Duration
	// WebhookCAFile is a PEM bundle of extra CAs webhook deliveries trust.
	WebhookCAFile string
	// MonitoringInterval is how often monitored accounts are refreshed.
	MonitoringInterval time.Duration
	// WebhookRetry spaces delivery retries; zero is the spec's schedule.
	WebhookRetry storage.RetrySchedule
	// DownloadURLTTL is how long document download links work.
	DownloadURLTTL time.Duration
	// Console serves GraphiQL at GET /graphql.
	Console bool
	// NoIntrospection turns GraphQL introspection off.
	NoIntrospection bool
	// PrivacyURL is the privacy notice Link's consent screen links to.
	PrivacyURL string
	// DisputeContact is whom a verification report's FCRA notice tells
	// the consumer to contact to dispute its data.
	DisputeContact string
	// MaxConcurrent caps the requests served at once, and
	// MaxConcurrentPerKey those of one key; see rest.Config.
	MaxConcurrent, MaxConcurrentPerKey int
	// MaxConcurrentPerAddress caps one client address's requests at the
	// door, before a credential or a whole body (rest.Config), and
	// MaxConnsPerAddress one peer's open connections
	// (rest.LimitConnsPerAddress; not behind --trust-proxy, where the
	// peer is the proxy). Zero: the defaults; negative: no cap.
	MaxConcurrentPerAddress, MaxConnsPerAddress int
	// FloodDelay is how long a flooding address's requests wait
	// (rest.Config.FloodDelay; zero: the default; negative: off).
	FloodDelay time.Duration
	// RedisURL, when set, shares the rate limit and the count of failed
	// sign-ins among every instance that uses the same Redis (the
	// database holds the count otherwise).
	RedisURL string
	// MetricsAddr serves Prometheus /metrics when set.
	MetricsAddr string
	// InstanceID names this process in logs and metrics (generated when
	// empty).
	InstanceID string
	// HeartbeatEvery and DeadAfter tune how soon the jobs of a crashed
	// instance run again (storage.QueueConfig); zero is the default.
	HeartbeatEvery, DeadAfter time.Duration
	// TLSCert and TLSKey are PEM files: when set, the server speaks HTTPS
	// (TLS 1.2 or later) on Addr.
	TLSCert, TLSKey string
	// TrustProxy says a TLS-terminating proxy is in front: outside the
	// sandbox, plain HTTP is then accepted from it, and a request is taken
	// as HTTPS when X-Forwarded-Proto says so (and refused otherwise).
	TrustProxy bool
	// ReadTimeout bounds reading one request, body included, so a client
	// that trickles its body (slow loris) cannot hold a connection; zero
	// is 30 s.
	ReadTimeout time.Duration
	// UpstreamURL, in development and production, relays to this
	// Pinwheel-compatible API (its secret from PAYLINE_UPSTREAM_SECRET);
	// UpstreamVersion and UpstreamLinkJS as docs/upstreams.md says.
	UpstreamURL, UpstreamVersion, UpstreamLinkJS string
	// UpstreamDocumentOrigins are origins besides the upstream's own that
	// its documents' download_url may name (its file store).
	UpstreamDocumentOrigins []string
	// UpstreamCAFile is a PEM bundle of extra CAs the upstream's
	// certificate may chain to.
	UpstreamCAFile string
	// UpstreamRate is the requests a second this relay sends its upstream,
	// all of them together (zero: upstream.DefaultRate).
	UpstreamRate float64
	// ConnectorURL routes every platform to this connector protocol
	// server (its secret from PAYLINE_CONNECTOR_SECRET) instead of the
	// compiled-in connector, in any mode; ConnectorCAFile is a PEM bundle
	// of extra CAs its certificate may chain to.
	ConnectorURL, ConnectorCAFile string
	// ConnectorsFile routes platforms to several connectors by id or type
	// (docs/connectors.md); platforms none takes stay with the mode's
	// compiled-in connector.
	ConnectorsFile string
	// ReconcileInterval is how often a relayed mode reconciles with its
	// upstream (zero: DefaultReconcileInterval).
	ReconcileInterval time.Duration
	// AuthCacheTTL is how long a successful authentication is remembered
	// (zero: domain.AuthCacheTTL). Other instances' revocations arrive by
	// notification at once; this bounds one whose notification was lost.
	AuthCacheTTL time.Duration
	// SocketRecheck is how often a GraphQL websocket's credential is
	// checked again (zero: graph.DefaultRecheckEvery). Revoked keys and
	// ended sessions close sockets at once, by notification (an SQLite
	// server reads its notices every 200 ms); this bounds a notification
	// that was lost.
	SocketRecheck time.Duration
	// Retention is how long events, delivery attempts and superseded
	// report PDFs are kept (domain.DefaultRetention unless set).
	Retention *domain.RetentionPolicy
	// Delivery is how messages to people are sent (docs/delivery.md).
	Delivery DeliveryConfig
	// NoWorkers leaves queued work (Link jobs, webhook deliveries,
	// monitoring) to other processes on the same database: this one
	// serves requests and queues work but runs none.
	NoWorkers bool
}

// Main is the running service. `payline serve` and the end-to-end tests
// both start it through Start, so tests exercise the real wiring.
type Main struct {
	Config ServeConfig
	Stdout io.Writer
	Logger *slog.Logger
	Getenv func(string) string

	db        *storage.DB
	queue     *storage.Queue
	server    *http.Server
	listener  net.Listener
	directory *domain.DirectoryService
	// relays, in a relayed mode, are the upstreams' use cases.
	relays    domain.Relays
	done      chan struct{}
	stop      context.CancelFunc
	metrics   *http.Server
	metricsLn net.Listener
	redis     *redis.Client
	invalid   *storage.Invalidations
	reindex   *coalesced // reloads of the search index on directory changes
	// afterStep, when set (by tests), runs after each step of Start that
	// succeeded, named as in startSteps; an error fails the start there.
	afterStep func(step string) error
}

// MetricsAddr is the address /metrics is served on, "" when off.
func (m *Main) MetricsAddr() string {
	if m.metricsLn == nil {
		return ""
	}
	return m.metricsLn.Addr().String()
}

// Addr is the address the server listens on (useful with port 0).
func (m *Main) Addr() string { return m.listener.Addr().String() }

// Close stops accepting requests, lets in-flight ones finish (up to the
// context's deadline) and closes the database.
func (m *Main) Close(ctx context.Context) error {
	m.stop()
	err := m.server.Shutdown(ctx)
	if m.metrics != nil {
		err = errors.Join(err, m.metrics.Shutdown(ctx))
	}
	<-m.done
	if m.redis != nil {
		err = errors.Join(err, m.redis.Close())
	}
	err = errors.Join(err, m.invalid.Close())
	m.reindex.Close()
	return errors.Join(err, m.stopQueue(ctx), m.db.Close())
}

// readiness checks what /readyz reports: the database answers, its schema
// is this binary's, and the queue runs here (unless --workers=false).
func (m *Main) readiness(ctx context.Context) []rest.Check {
	var checks []rest.Check
	db := rest.Check{Name: "database"}
	if err := m.db.PingContext(ctx); err != nil {
		db.Problem = "unreachable: " + err.Error()
	}
	checks = append(checks, db)
	mig := rest.Check{Name: "migrations"}
	if db.Problem != "" {
		mig.Problem = "unknown: the database is unreachable"
	} else if current, latest, err := m.db.MigrationVersions(ctx); err != nil {
		mig.Problem = "unknown: " + err.Error()
	} else if current != latest {
		mig.Problem = fmt.Sprintf("the schema is at migration %d, this binary needs %d: run payline migrate", current, latest)
	}
	checks = append(checks, mig)
	if m.redis != nil {
		r := rest.Check{Name: "redis"}
		if err := m.redis.Ping(ctx).Err(); err != nil {
			r.Problem = "unreachable: " + err.Error() + " (the rate limit lets requests through meanwhile)"
		}
		checks = append(checks, r)
	}
	if problem := m.db.Feed().Problem(); problem != "" || m.db.Dialect == storage.Postgres {
		checks = append(checks, rest.Check{Name: "event_feed", Problem: problem})
	}
	if len(m.relays) > 0 {
		d := rest.Check{Name: "upstream_directory"}
		if st, err := m.relays.DirectoryStatus(ctx); err != nil {
			d.Status = "unknown: " + err.Error()
		} else {
			d.Status = st
		}
		checks = append(checks, d) // informative: search falls back to the upstream meanwhile
	}
	if !m.Config.NoWorkers {
		q := rest.Check{Name: "queue"}
		if !m.queue.Running() {
			q.Problem = "the job queue is not running"
		}
		checks = append(checks, q)
	}
	return checks
}

// newInstanceID names a process: its host and a random suffix.
func newInstanceID() string {
	host, _ := os.Hostname()
	suffix, err := domain.RandomHex(3)
	if err != nil {
		// The suffix only tells instances on one host apart in logs; a
		// process that cannot read randomness fails at its master key or
		// first token anyway, with that error.
		suffix = ""
	}
	return strings.TrimSuffix(host+"-"+suffix, "-")
}

// stopQueue waits for this process's running work, if it runs any.
func (m *Main) stopQueue(ctx context.Context) error {
	if m.Config.NoWorkers {
		return nil
	}
	return m.queue.Stop(ctx)
}

// bootstrapSandbox makes a fresh sandbox database usable at once: the
// generated directory if none was ever loaded, and a first customer and
// key, whose secret is printed this once.
func (m *Main) bootstrapSandbox(ctx context.Context, keys *domain.KeyService) error {
	rev, err := storage.NewDirectoryStore(m.db).Revision(ctx)
	if err != nil {
		return err
	}
	if rev == 0 {
		platforms, employers := sandbox.Directory(sandbox.DefaultEmployerCount)
		if err := m.directory.Seed(ctx, platforms, employers); err != nil {
			return err
		}
		m.Logger.Info("loaded the sandbox directory", slog.Int("employers", len(employers)), slog.Int("platforms", len(platforms)))
	}
	customers, err := keys.Customers(ctx)
	if err != nil {
		return err
	}
	// A customer may exist without keys (payline members add made it).
	var withKeys []domain.Customer
	for _, c := range customers {
		if ks, err := keys.Keys(ctx, c); err != nil {
			return err
		} else if len(ks) > 0 {
			withKeys = append(withKeys, c)
		}
	}
	customers = withKeys
	if len(customers) > 0 {
		fmt.Fprintf(m.Stdout, `
Payline sandbox: this database already has API keys; a secret is shown only when its key is made.
To make another: payline keys create --customer '%s' --mode sandbox, with this server's --database-url
(README, "Commands").

`, customers[0].Name)
		return nil
	}
	created, err := keys.CreateKey(ctx, "sandbox", domain.ModeSandbox)
	if err != nil {
		return err
	}
	base := strings.TrimSuffix(m.Config.PublicURL, "/")
	fmt.Fprintf(m.Stdout, `
Payline sandbox: created customer %q with API key %s.
Its secret is shown this once; keep it somewhere safe:

    %s

Try it:
    curl -H 'x-api-secret: %s' -H 'Service-Version: %s' '%s/v1/search?q=a'

Then create a link token (README, "Link, end to end") and open %s/link/v1/demo#token=THE_TOKEN

`, created.Customer.Name, created.Key.ID, created.Secret, created.Secret, domain.LatestVersion, base, base)
	return nil
}

// tls loads the certificate when one is configured, and refuses plain
// HTTP outside the sandbox unless a TLS proxy is said to be in front.
func (c ServeConfig) tls() (*tls.Config, error) {
	switch {
	case (c.TLSCert == "") != (c.TLSKey == ""):
		return nil, errors.New("--tls-cert and --tls-key go together: give both PEM files, or neither")
	case c.TLSCert == "" && c.Mode != domain.ModeSandbox && c.Mode != "" && !c.TrustProxy: // "" is the sandbox default
		return nil, fmt.Errorf("%s mode serves people's financial data and so only over HTTPS: give --tls-cert and --tls-key, "+
			"or --trust-proxy when a proxy in front of Payline ends TLS (README, \"HTTPS\")", c.Mode)
	case c.TLSCert == "":
		return nil, nil
	}
	cert, err := tls.LoadX509KeyPair(c.TLSCert, c.TLSKey)
	if err != nil {
		return nil, fmt.Errorf("load --tls-cert %s and --tls-key %s: %w", c.TLSCert, c.TLSKey, err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12, NextProtos: []string{"h2", "http/1.1"}}, nil
}

// refreshSearch picks up directory changes made by other processes.
func (m *Main) refreshSearch(ctx context.Context) {
	every := m.Config.SearchRefresh
	if every <= 0 {
		every = 30 * time.Second
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := m.directory.RefreshSearchIndex(ctx); err != nil && ctx.Err() == nil {
				m.Logger.Error("refresh search index", slog.Any("error", err))
			}
		}
	}
}

func (e environment) serve(ctx context.Context, args []string) error {
	fs := e.flagSet("serve")
	d := e.addDataFlags(fs)
	addr := fs.String("addr", e.envOr("PAYLINE_ADDR", "127.0.0.1:8080"), "listen address (PAYLINE_ADDR)")
	mode := fs.String("mode", e.envOr("PAYLINE_MODE", "sandbox"), "sandbox, development or production (PAYLINE_MODE)")
	publicURL := fs.String("public-url", e.getenv("PAYLINE_PUBLIC_URL"), "URL integrators and browsers reach this server at (PAYLINE_PUBLIC_URL); default http://ADDR")
	logFormat := fs.String("log-format", e.envOr("PAYLINE_LOG_FORMAT", "text"), "text or json (PAYLINE_LOG_FORMAT)")
	logLevel := fs.String("log-level", e.envOr("PAYLINE_LOG_LEVEL", "info"),
		"debug, info, warn or error (PAYLINE_LOG_LEVEL); the job queue's own lines appear from debug, else only its warnings")
	monitorEvery := fs.Duration("monitoring-interval", e.duration("PAYLINE_MONITORING_INTERVAL", time.Hour),
		"how often connected, monitored accounts are refreshed (PAYLINE_MONITORING_INTERVAL)")
	caFile := fs.String("webhook-ca-file", e.getenv("PAYLINE_WEBHOOK_CA_FILE"),
		"PEM bundle of extra CAs webhook deliveries trust, for receivers with private certificates (PAYLINE_WEBHOOK_CA_FILE)")
	pendingDelay := fs.Duration("sandbox-pending-delay", e.duration("PAYLINE_SANDBOX_PENDING_DELAY", time.Minute),
		"how long user_pending jobs stay pending before they end in error (PAYLINE_SANDBOX_PENDING_DELAY)")
	linkTTL := fs.Duration("download-url-ttl", e.duration("PAYLINE_DOWNLOAD_URL_TTL", reports.DefaultLinkTTL),
		"how long a report's or document's download_url works (PAYLINE_DOWNLOAD_URL_TTL)")
	console := fs.String("graphiql", e.getenv("PAYLINE_GRAPHIQL"),
		"serve GraphiQL, the GraphQL IDE, at GET /graphql: true or false (PAYLINE_GRAPHIQL); default true in the sandbox, false otherwise")
	introspection := fs.Bool("graphql-introspection", e.boolean("PAYLINE_GRAPHQL_INTROSPECTION", true),
		"answer GraphQL introspection (__schema, __type), which tools start from (PAYLINE_GRAPHQL_INTROSPECTION); false refuses it with INTROSPECTION_DISABLED")
	redisURL := fs.String("redis-url", e.getenv("PAYLINE_REDIS_URL"),
		"share the rate limit and the failed sign-in count among instances through this Redis, such as redis://127.0.0.1:6379/0 (PAYLINE_REDIS_URL); without it each process rate-limits alone and the database counts failed sign-ins")
	metricsAddr := fs.String("metrics-addr", e.getenv("PAYLINE_METRICS_ADDR"),
		"serve Prometheus /metrics on this address, such as 127.0.0.1:9090 (PAYLINE_METRICS_ADDR); off when empty")
	instance := fs.String("instance-id", e.getenv("PAYLINE_INSTANCE_ID"),
		"this process's name in logs and metrics (PAYLINE_INSTANCE_ID); default the host name and a random suffix")
	privacy := fs.String("privacy-url", e.getenv("PAYLINE_PRIVACY_URL"),
		"the privacy notice Link's consent screen links to (PAYLINE_PRIVACY_URL); default Payline's own at /link/v1/privacy")
	dispute := fs.String("dispute-contact", e.getenv("PAYLINE_DISPUTE_CONTACT"),
		"whom a verification report's Fair Credit Reporting Act notice tells the consumer to contact to dispute its data, such as \"Acme Verifications, disputes@acme.example, 1-800-555-0199\" (PAYLINE_DISPUTE_CONTACT); default the organization that requested the report")
	maxConcurrent := fs.Int("max-concurrent", e.integer("PAYLINE_MAX_CONCURRENT", rest.DefaultMaxConcurrent),
		"requests this instance serves at once before answering 429 SERVER_BUSY (PAYLINE_MAX_CONCURRENT); websockets do not count; negative for no cap")
	maxPerKey := fs.Int("max-concurrent-per-key", e.integer("PAYLINE_MAX_CONCURRENT_PER_KEY", rest.DefaultMaxConcurrentPerKey),
		"requests one API key or member session may have in flight on this instance before 429 TOO_MANY_CONCURRENT_REQUESTS (PAYLINE_MAX_CONCURRENT_PER_KEY); negative for no cap")
	maxPerAddress := fs.Int("max-concurrent-per-address", e.integer("PAYLINE_MAX_CONCURRENT_PER_ADDRESS", rest.DefaultMaxConcurrentPerAddress),
		"requests one client address may have waiting on this instance before their credential is checked or their body has arrived, before 429 TOO_MANY_CONCURRENT_FROM_ADDRESS (PAYLINE_MAX_CONCURRENT_PER_ADDRESS); negative for no cap")
	maxConnsPerAddress := fs.Int("max-conns-per-address", e.integer("PAYLINE_MAX_CONNS_PER_ADDRESS", rest.DefaultMaxConnsPerAddress),
		"connections one peer address may hold open to this instance; more are closed on accept (PAYLINE_MAX_CONNS_PER_ADDRESS); not applied with --trust-proxy; negative for no cap")
	floodDelay := fs.Duration("flood-delay", e.duration("PAYLINE_FLOOD_DELAY", rest.DefaultFloodDelay),
		"how long each request of a flooding address (refused without a credential more than 256 times at once, then 100 a second) waits before it is looked at, holding no slot (PAYLINE_FLOOD_DELAY); negative: never held")
	tlsCert := fs.String("tls-cert", e.getenv("PAYLINE_TLS_CERT"), "PEM certificate (chain) to serve HTTPS with, together with --tls-key (PAYLINE_TLS_CERT)")
	tlsKey := fs.String("tls-key", e.getenv("PAYLINE_TLS_KEY"), "PEM private key of --tls-cert (PAYLINE_TLS_KEY)")
	trustProxy := fs.Bool("trust-proxy", e.boolean("PAYLINE_TRUST_PROXY", false),
		"a proxy in front ends TLS (PAYLINE_TRUST_PROXY): outside the sandbox, serve plain HTTP to it and refuse requests whose X-Forwarded-Proto is not https")
	upstreamURL := fs.String("upstream-url", e.getenv("PAYLINE_UPSTREAM_URL"),
		"development and production: relay to this Pinwheel-compatible API, its secret in PAYLINE_UPSTREAM_SECRET (PAYLINE_UPSTREAM_URL; docs/upstreams.md)")
	upstreamVersion := fs.String("upstream-version", e.envOr("PAYLINE_UPSTREAM_VERSION", upstream.DefaultVersion),
		"the API version asked of the upstream (PAYLINE_UPSTREAM_VERSION)")
	upstreamLinkJS := fs.String("upstream-link-js", e.getenv("PAYLINE_UPSTREAM_LINK_JS"),
		"the upstream's Link SDK the modal loads (PAYLINE_UPSTREAM_LINK_JS); default {upstream-url}/link/v1/link.js, right for a Payline upstream")
	upstreamDocs := fs.String("upstream-document-origins", e.getenv("PAYLINE_UPSTREAM_DOCUMENT_ORIGINS"),
		"comma-separated https origins besides the upstream's own from which its documents may be downloaded, such as its file store (PAYLINE_UPSTREAM_DOCUMENT_ORIGINS); a download_url elsewhere is refused before any connection")
	upstreamCA := fs.String("upstream-ca-file", e.getenv("PAYLINE_UPSTREAM_CA_FILE"),
		"PEM bundle of extra CAs trusted for an upstream with a private certificate (PAYLINE_UPSTREAM_CA_FILE)")
	connectorURL := fs.String("connector-url", e.getenv("PAYLINE_CONNECTOR_URL"),
		"route every platform to this connector protocol server instead of the compiled-in connector, in any mode; its secret in PAYLINE_CONNECTOR_SECRET (PAYLINE_CONNECTOR_URL; docs/connectors.md)")
	connectorCA := fs.String("connector-ca-file", e.getenv("PAYLINE_CONNECTOR_CA_FILE"),
		"PEM bundle of extra CAs trusted for a connector with a private certificate (PAYLINE_CONNECTOR_CA_FILE)")
	connectorsFile := fs.String("connectors", e.getenv("PAYLINE_CONNECTORS"),
		"a JSON file routing platforms to several connector protocol servers by platform id or type (PAYLINE_CONNECTORS; docs/connectors.md)")
	upstreamRate := fs.Float64("upstream-rate", e.float("PAYLINE_UPSTREAM_RATE", upstream.DefaultRate),
		"requests a second sent to the upstream, all together: keep it below the upstream's own limit (PAYLINE_UPSTREAM_RATE; docs/upstreams.md)")
	reconcileEvery := fs.Duration("upstream-reconcile-interval", e.duration("PAYLINE_UPSTREAM_RECONCILE_INTERVAL", DefaultReconcileInterval),
		"how often a relayed mode lists the upstream's recent accounts for what its webhooks missed (PAYLINE_UPSTREAM_RECONCILE_INTERVAL)")
	keepEvents := fs.Duration("retention-events", e.duration("PAYLINE_RETENTION_EVENTS", domain.DefaultRetention.Events),
		"how long events are kept (PAYLINE_RETENTION_EVENTS); 0 keeps them forever")
	keepDeliveries := fs.Duration("retention-deliveries", e.duration("PAYLINE_RETENTION_DELIVERIES", domain.DefaultRetention.Deliveries),
		"how long webhook delivery attempts are kept (PAYLINE_RETENTION_DELIVERIES); 0 keeps them forever")
	keepReports := fs.Duration("report-retention", e.duration("PAYLINE_REPORT_RETENTION", domain.DefaultRetention.ReportVersions),
		"how long a verification report's earlier versions (their PDFs) stay retrievable (PAYLINE_REPORT_RETENTION; default 25 months, a lender's look-back); 0 keeps them forever")
	delivery := e.addDeliveryFlags(fs)
	workers := fs.Bool("workers", e.boolean("PAYLINE_WORKERS", true),
		"run queued work (Link jobs, webhook deliveries, monitoring) in this process (PAYLINE_WORKERS); false for a request-only instance beside others that run it")
	if err := parse(fs, args); err != nil {
		return err
	}
	m, err := domain.ParseMode(*mode)
	if err != nil {
		fmt.Fprintln(e.stderr, "payline serve:", err)
		return errUsage
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(e.stderr, "payline serve: --log-level %q: must be debug, info, warn or error\n", *logLevel)
		return errUsage
	}
	if *upstreamURL != "" && m == domain.ModeSandbox {
		fmt.Fprintln(e.stderr, "payline serve: --upstream-url relays development or production; the sandbox serves its own simulated data")
		return errUsage
	}
	if n := btoi(*upstreamURL != "") + btoi(*connectorURL != "") + btoi(*connectorsFile != ""); n > 1 {
		fmt.Fprintln(e.stderr, "payline serve: --upstream-url, --connector-url and --connectors are three ways to reach payroll data; give one")
		return errUsage
	}
	consoleOn := m == domain.ModeSandbox
	if *console != "" {
		if consoleOn, err = strconv.ParseBool(*console); err != nil {
			fmt.Fprintln(e.stderr, "payline serve: --graphiql must be true or false")
			return errUsage
		}
	}
	svc := &Main{
		Config: ServeConfig{Addr: *addr, DatabaseURL: d.databaseURL, MasterKeyFile: d.masterKeyFile, PreviousMasterKeyFile: d.previousKeyFile, Mode: m,
			PublicURL: *publicURL, SearchRefresh: e.duration("PAYLINE_SEARCH_REFRESH", 30*time.Second),
			SandboxPendingDelay: *pendingDelay, WebhookCAFile: *caFile, MonitoringInterval: *monitorEvery, DownloadURLTTL: *linkTTL,
			Console: consoleOn, NoIntrospection: !*introspection, NoWorkers: !*workers, PrivacyURL: *privacy, DisputeContact: *dispute, MetricsAddr: *metricsAddr, InstanceID: *instance, RedisURL: *redisURL, MaxConcurrent: *maxConcurrent,
			MaxConcurrentPerKey: *maxPerKey, MaxConcurrentPerAddress: *maxPerAddress, MaxConnsPerAddress: *maxConnsPerAddress, FloodDelay: *floodDelay, TLSCert: *tlsCert, TLSKey: *tlsKey, TrustProxy: *trustProxy,
			UpstreamURL: *upstreamURL, UpstreamVersion: *upstreamVersion, UpstreamLinkJS: *upstreamLinkJS, UpstreamDocumentOrigins: splitList(*upstreamDocs), UpstreamCAFile: *upstreamCA, UpstreamRate: *upstreamRate, ReconcileInterval: *reconcileEvery,
			ConnectorURL: *connectorURL, ConnectorCAFile: *connectorCA, ConnectorsFile: *connectorsFile,
			Retention: &domain.RetentionPolicy{Events: *keepEvents, Deliveries: *keepDeliveries, ReportVersions: *keepReports},
			Delivery:  *delivery},
		Stdout: e.stdout, Logger: e.logger(*logFormat, level), Getenv: e.getenv,
	}
	if err := svc.Start(ctx); err != nil {
		if ctx.Err() != nil {
			return nil // interrupted while starting: Start has undone what it did
		}
		return err
	}
	<-ctx.Done()
	svc.Logger.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	return svc.Close(shutdownCtx)
}

func (e environment) migrate(ctx context.Context, args []string) error {
	fs := e.flagSet("migrate")
	d := e.addDataFlags(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	db, err := openMigrated(ctx, d.databaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	fmt.Fprintf(e.stdout, "%s database is up to date\n", db.Dialect)
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

package main

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"time"

	"payline/connectors/protocol"
	"payline/documents"
	"payline/domain"
	"payline/domain/search"
	"payline/graph"
	"payline/reports"
	"payline/rest"
	"payline/storage"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/redis/go-redis/v9"
)

// queueStartTimeout bounds starting the job queue (its first heartbeat and
// River's first query); the queue then runs until Close.
const queueStartTimeout = 30 * time.Second

// startStep is one step of Main.Start. A step that opens or starts
// something registers how to undo it (starting.onFailure) as soon as it
// holds it, so a failure in that step or any later one leaves nothing
// open.
type startStep struct {
	name string
	run  func(ctx context.Context, s *starting) error
}

// startSteps are Start's steps in order: the database, then stores,
// services and servers.
func (m *Main) startSteps() []startStep {
	return []startStep{
		// Bind first: a busy port must fail before anything is created
		// or printed (a one-time secret printed by a server that then
		// exits is lost).
		{"listen", m.listen},
		{"redis", m.connectRedis},
		// The payroll sources before the database: an upstream or a
		// connector that does not answer stops serve before anything is
		// opened, and the directory is built with the upstreams to fall
		// back on.
		{"sources", m.routeSources},
		{"database", m.openDatabase},
		{"directory", m.prepareDirectory},
		{"invalidations", m.listenInvalidations},
		{"queue", m.newQueue},
		{"relays", m.startRelays},
		{"services", m.buildServices},
		{"api", m.buildAPI},
		{"workers", m.startWorkers},
		{"serve", m.serve},
	}
}

// starting is what Start's steps build and hand on to later ones, and
// the undo of each step taken so far.
type starting struct {
	undo []func()

	tls           *tls.Config
	ln, metricsLn net.Listener
	stores        sealedStores
	tx            *storage.Transactor
	clock         domain.Clock
	connector     domain.Connector
	relay         domain.Relay
	upstreams     []namedUpstream
	capabilities  []protocol.Capabilities
	jobs          *domain.JobService
	webhooks      *domain.WebhookService
	monitoring    *domain.MonitoringService
	registry      *prometheus.Registry
	metrics       *rest.Metrics
	api           http.Handler
	// delivery sends messages to people and hears the SMS provider's
	// webhook (newMessageDelivery).
	delivery messageDelivery
	// orders sends Link to people through delivery's sender; the queue
	// sends their messages and sweeps them (buildAPI, startWorkers).
	orders *domain.LinkOrderService
	// disputes keeps people's disputes; the queue tells sources and
	// raises dispute.overdue (buildAPI, startWorkers).
	disputes *domain.DisputeService
}

// onFailure registers how to undo a step just taken, should it or a later
// one fail.
func (s *starting) onFailure(undo func()) { s.undo = append(s.undo, undo) }

// unwind undoes every step taken, the latest first.
func (s *starting) unwind() {
	for i := len(s.undo) - 1; i >= 0; i-- {
		s.undo[i]()
	}
	s.undo = nil
}

// Start builds everything in order (database, stores, services, server),
// starts listening and returns; the server runs until Close. ctx bounds
// the start, not the run. A start that fails has undone each step it took
// and returns the first step's error.
func (m *Main) Start(ctx context.Context) error {
	if m.Config.InstanceID == "" {
		m.Config.InstanceID = newInstanceID()
	}
	m.Logger = m.Logger.With(slog.String("instance", m.Config.InstanceID))
	s := &starting{clock: domain.SystemClock{}}
	for _, step := range m.startSteps() {
		err := step.run(ctx, s)
		if err == nil && m.afterStep != nil {
			err = m.afterStep(step.name)
		}
		if err != nil {
			s.unwind()
			return err
		}
	}
	return nil
}

// listen binds the API's address and, when configured, the metrics one.
func (m *Main) listen(_ context.Context, s *starting) error {
	tlsConfig, err := m.Config.tls()
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", m.Config.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", m.Config.Addr, err)
	}
	s.onFailure(func() { ln.Close() })
	s.tls, s.ln = tlsConfig, ln
	if m.Config.PublicURL == "" {
		scheme := "http://"
		if tlsConfig != nil {
			scheme = "https://"
		}
		m.Config.PublicURL = scheme + ln.Addr().String()
	}
	if m.Config.MetricsAddr == "" {
		return nil
	}
	metricsLn, err := net.Listen("tcp", m.Config.MetricsAddr)
	if err != nil {
		return fmt.Errorf("listen on %s for metrics: %w", m.Config.MetricsAddr, err)
	}
	s.onFailure(func() { metricsLn.Close() })
	s.metricsLn = metricsLn
	return nil
}

// connectRedis checks the shared Redis answers, when one is configured.
func (m *Main) connectRedis(ctx context.Context, s *starting) error {
	if m.Config.RedisURL == "" {
		return nil
	}
	opts, err := redis.ParseURL(m.Config.RedisURL)
	if err != nil {
		return fmt.Errorf("--redis-url: %w", err)
	}
	client := redis.NewClient(opts)
	s.onFailure(func() { client.Close() })
	pingCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := client.Ping(pingCtx).Err(); err != nil {
		return fmt.Errorf("--redis-url: Redis does not answer: %w", err)
	}
	m.redis = client
	return nil
}

// openDatabase opens and migrates the database and its sealed stores.
func (m *Main) openDatabase(ctx context.Context, s *starting) error {
	env := environment{getenv: m.Getenv, stdout: m.Stdout, stderr: io.Discard}
	stores, err := env.openSealedStores(ctx, &dataFlags{databaseURL: m.Config.DatabaseURL, masterKeyFile: m.Config.MasterKeyFile,
		previousKeyFile: m.Config.PreviousMasterKeyFile})
	if err != nil {
		return err
	}
	s.onFailure(func() { stores.db.Close() })
	if m.Config.AuthCacheTTL > 0 {
		stores.keys.RememberFor(m.Config.AuthCacheTTL)
	}
	s.stores, m.db = stores, stores.db
	m.directory = domain.NewDirectoryService(storage.NewDirectoryStore(stores.db), s.relay, search.Build)
	return nil
}

// prepareDirectory makes a fresh sandbox usable (directory, first key)
// and loads the search index.
func (m *Main) prepareDirectory(ctx context.Context, s *starting) error {
	if m.Config.Mode == domain.ModeSandbox {
		if err := m.bootstrapSandbox(ctx, s.stores.keys); err != nil {
			return err
		}
	} else if m.Config.UpstreamURL == "" && m.Config.ConnectorURL == "" && m.Config.ConnectorsFile == "" {
		m.Logger.Warn("without --upstream-url this mode has no payroll data: the directory is what you load into it and payroll logins are refused (docs/upstreams.md)",
			slog.String("mode", string(m.Config.Mode)))
	}
	if err := m.addConnectorsPlatforms(ctx, s); err != nil {
		return err
	}
	if err := m.directory.RefreshSearchIndex(ctx); err != nil {
		return err
	}
	// Reading the directory and indexing it leaves garbage about as large
	// as what it keeps (rows decoded, then copied into the index); hand
	// those pages back now rather than as the scavenger finds them, so a
	// relay with 50,000 employers starts well under 100 MB resident.
	debug.FreeOSMemory()
	return nil
}

// listenInvalidations hears what other processes on the same database
// announce (revoked keys, members' ended sessions, directory changes) and
// forgets, closes or reloads at once: by notification on PostgreSQL,
// within 200 ms on SQLite (storage.ListenInvalidations).
func (m *Main) listenInvalidations(_ context.Context, s *starting) error {
	keys := s.stores.keys
	// A directory sync writes a page of employers at a time, each
	// announced: the reloads of the whole index it asks for are run at
	// most once a reindexEvery, the ones asked meanwhile as one after.
	m.reindex = newCoalesced(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := m.directory.RefreshSearchIndex(ctx); err != nil {
			m.Logger.Error("refresh search index", slog.Any("error", err))
		}
	}, reindexEvery)
	invalid, err := m.db.ListenInvalidations(storage.InvalidationHandlers{
		KeyRevoked:          keys.Forget,
		MemberSessionsEnded: keys.SessionsEnded,
		DirectoryChanged:    m.reindex.Signal,
		Reconnected:         func() { keys.ForgetAll(); m.reindex.Signal() },
	}, m.Logger)
	if err != nil {
		m.reindex.Close()
		return fmt.Errorf("listen for other instances' changes: %w", err)
	}
	s.onFailure(func() { _ = invalid.Close(); m.reindex.Close() }) // start already failed with the error that matters
	m.invalid = invalid
	return nil
}

// newQueue makes the job queue (on PostgreSQL, with a pgx pool of its
// own), not started yet.
func (m *Main) newQueue(_ context.Context, s *starting) error {
	q, err := storage.NewQueue(m.db, storage.QueueConfig{Logger: queueLogger(m.Logger), PollInterval: m.Config.QueuePollInterval,
		Retry: m.Config.WebhookRetry, MonitoringInterval: m.Config.MonitoringInterval, InstanceID: m.Config.InstanceID,
		HeartbeatEvery: m.Config.HeartbeatEvery, DeadAfter: m.Config.DeadAfter, ReconcileInterval: m.reconcileInterval(len(s.upstreams) > 0)})
	if err != nil {
		return err
	}
	s.onFailure(q.Close)
	m.queue, s.tx = q, storage.NewTransactor(m.db, q)
	return nil
}

// addConnectorPlatforms puts the platforms a connector serves that the
// directory lacks into it, so Link finds them; platforms it already has
// are left as they are.
func (m *Main) addConnectorPlatforms(ctx context.Context, caps protocol.Capabilities, now time.Time) (int, error) {
	ids := make([]string, len(caps.Platforms))
	for i, p := range caps.Platforms {
		ids[i] = p.ID
	}
	_, errs := m.directory.PlatformsByID(ctx, ids)
	var missing []domain.Platform
	for i, p := range caps.Platforms {
		if errs[i] == nil {
			continue
		}
		var de *domain.Error
		if !errors.As(errs[i], &de) || de.Kind != domain.KindNotFound {
			return 0, errs[i]
		}
		// A platform is stored only as the directory can say it: an
		// unknown type or job is the connector's mistake, said at start
		// (payline connectors check names it too), never stored as "".
		t, ok := domain.ParsePlatformType(p.Type)
		if !ok {
			return 0, fmt.Errorf("the connector's platform %s (%s) has type %q, not one of %v", p.ID, p.Name, p.Type, domain.PlatformTypes)
		}
		d := domain.Platform{ID: p.ID, Name: p.Name, DisplayName: p.Name, Type: t, LastUpdated: now, SwitchLimits: p.Limits()}
		for _, j := range p.Jobs {
			jt, ok := domain.ParseJobType(j)
			if !ok {
				return 0, fmt.Errorf("the connector's platform %s (%s) lists job %q, which protocol v1 does not have", p.ID, p.Name, j)
			}
			d.SupportedJobs = append(d.SupportedJobs, jt)
		}
		missing = append(missing, d)
	}
	if len(missing) == 0 {
		return 0, nil
	}
	return len(missing), m.directory.Seed(ctx, missing, nil)
}

// buildServices makes the job, webhook and monitoring services and their
// metrics, and deletes webhook listeners that ended with their process.
func (m *Main) buildServices(ctx context.Context, s *starting) error {
	s.jobs = domain.NewJobService(s.tx, s.connector, s.clock)
	s.jobs.Log(m.Logger)
	delivery, err := m.newMessageDelivery(s.clock)
	if err != nil {
		return err
	}
	s.delivery = delivery
	sender, err := rest.NewWebhookClient(m.Config.Mode, m.Config.WebhookCAFile)
	if err != nil {
		return err
	}
	s.webhooks = domain.NewWebhookService(s.tx, s.stores.keys, sender, net.DefaultResolver, s.clock, m.Config.Mode)
	s.monitoring = domain.NewMonitoringService(s.tx, s.jobs, s.connector, s.clock, m.Logger)
	s.registry = prometheus.NewRegistry()
	if s.metricsLn != nil {
		reg := prometheus.WrapRegistererWith(prometheus.Labels{"instance_id": m.Config.InstanceID}, s.registry)
		reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
			collectors.NewDBStatsCollector(m.db.DB.DB, "payline"), rest.NewQueueDepthCollector(m.queue.Depth),
			rest.NewUpstreamBudgetCollector(s.upstreamBudgets))
		s.metrics = rest.NewMetrics(reg)
		s.jobs.Observe(s.metrics)
		s.webhooks.Observe(s.metrics)
	}
	n, err := s.webhooks.SweepListeners(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		m.Logger.Info("deleted webhook listeners whose processes ended without closing them", slog.Int("listeners", n))
	}
	return nil
}

// buildAPI makes the services requests reach and the handler that serves
// REST, GraphQL, Link and the dashboard.
func (m *Main) buildAPI(_ context.Context, s *starting) error {
	signer, err := reports.NewSigner(s.stores.masterKey, m.Config.PublicURL, m.Config.DownloadURLTTL, s.clock)
	if err != nil {
		return err
	}
	reporter := reports.NewService(s.tx, m.directory, s.stores.keys, signer, s.clock).WithDisputeContact(m.Config.DisputeContact).WithDisputes(s.tx)
	// Failed sign-ins are counted where the rate limit is: in Redis when
	// the instances share one, else in the database they share anyway.
	var throttle domain.SignInThrottle = storage.NewSignInThrottle(m.db)
	if m.redis != nil {
		throttle = storage.NewRedisSignInThrottle(m.redis)
	}
	keys := s.stores.keys
	ks := storage.NewKeyStore(m.db)
	members := domain.NewMemberService(keys, ks, ks, throttle, s.clock, 0)
	reader := documents.NewReader()
	if !reader.OCR() {
		m.Logger.Warn("tesseract is not installed: uploaded pictures and scanned PDFs will not be read (apt-get install tesseract-ocr tesseract-ocr-eng)")
	}
	link := domain.NewLinkService(s.tx, m.directory, s.connector, s.relay, s.clock, reporter).WithUploadParser(reader)
	m.limitUploads(s, link)
	accounts := domain.NewAccountService(s.tx, s.clock, reporter, s.relay)
	s.orders = domain.NewLinkOrderService(s.tx, link, s.delivery.Sender, s.clock, m.Config.PublicURL)
	portal := domain.NewPortalService(s.tx, link, s.relay, disconnectRoute(s.connector), s.delivery.Sender, keys, signer, s.clock,
		m.Config.PublicURL)
	// The reader draws the pages of the documents it read for the person
	// who reviews them.
	reviews := domain.NewDocumentReviewService(s.tx, s.tx, s.tx.Reports(), reader, reporter, s.clock)
	s.disputes = domain.NewDisputeService(s.tx, s.tx, s.tx, furnisherRoute(s.connector), s.clock)
	gql := graph.NewHandler(&graph.Resolver{Directory: m.directory, AccountService: accounts, LinkService: link,
		AccountJobService: accounts.AccountJobService, ProductService: accounts.ProductService,
		DocumentService: accounts.DocumentService, EndUserService: accounts.EndUserService,
		OverviewService: accounts.OverviewService, WatchService: accounts.WatchService,
		WebhookService: s.webhooks, DocumentReviewService: reviews, Reporter: reporter, Logger: m.Logger, Keys: keys,
		OutboxService: s.delivery.Outbox, LinkOrderService: s.orders, DisputeService: s.disputes},
		graph.Options{Keys: keys, Mode: m.Config.Mode, Console: m.Config.Console, NoIntrospection: m.Config.NoIntrospection,
			RecheckEvery: m.Config.SocketRecheck})
	s.api = rest.NewServer(rest.Config{
		Mode: m.Config.Mode, Keys: keys, Directory: m.directory, Link: link, Accounts: accounts,
		Jobs: accounts.AccountJobService, Products: accounts.ProductService, Documents: accounts.DocumentService,
		EndUsers: accounts.EndUserService,
		Webhooks: s.webhooks, Reports: reporter, Relays: m.relays, UpstreamLinkOrigins: s.linkOrigins(), Logger: m.Logger,
		RateLimit: m.Config.RateLimit, GraphQL: gql, GraphQLPublic: graph.IsPublic, PrivacyURL: m.Config.PrivacyURL,
		PublicURL: m.Config.PublicURL, Metrics: s.metrics, Ready: m.readiness, Redis: m.redis, Members: members, Reviews: reviews,
		MaxConcurrent: m.Config.MaxConcurrent, MaxConcurrentPerKey: m.Config.MaxConcurrentPerKey,
		MaxConcurrentPerAddress: m.Config.MaxConcurrentPerAddress, FloodDelay: m.Config.FloodDelay, BodyTimeout: m.readTimeout(),
		TrustProxy: m.Config.TrustProxy && m.Config.Mode != domain.ModeSandbox, SecureCookies: s.tls != nil,
		InboundMessages: s.delivery.Inbound, LinkOrders: s.orders, Portal: portal,
		Disputes: s.disputes,
	})
	return nil
}

// startWorkers starts working the queue, unless --workers=false. ctx,
// with queueStartTimeout, bounds the start; the queue runs until Close.
func (m *Main) startWorkers(ctx context.Context, s *starting) error {
	if m.Config.NoWorkers {
		return nil
	}
	runners := storage.Runners{Job: s.jobs.Run, Delivery: s.webhooks.Deliver, Schedule: s.monitoring.Schedule,
		Refresh: s.monitoring.RefreshAccount, Prune: m.pruner(storage.NewRetentionStore(m.db), s.clock),
		LinkOrderMessage: s.orders.SendMessage, LinkOrderSweep: s.orders.Sweep,
		DisputeNotice: s.disputes.NotifyFurnisher, DisputeSweep: s.disputes.SweepOverdue}
	if len(m.relays) > 0 {
		runners.Reconcile, runners.Ingest, runners.SyncDirectory = m.reconciler(m.relays), m.relays.FollowUp, m.syncDirectory(m.relays)
	}
	startCtx, cancel := context.WithTimeout(ctx, queueStartTimeout)
	defer cancel()
	if err := m.queue.Start(startCtx, runners); err != nil {
		return fmt.Errorf("start job queue: %w", err)
	}
	s.onFailure(m.stopQueueNow)
	return nil
}

// pruner applies the retention policy (ServeConfig.Retention, else
// domain.DefaultRetention) and logs what it deleted.
func (m *Main) pruner(store domain.RetentionStore, clock domain.Clock) func(ctx context.Context) error {
	policy := domain.DefaultRetention
	if m.Config.Retention != nil {
		policy = *m.Config.Retention
	}
	return func(ctx context.Context) error {
		p, err := policy.Prune(ctx, store, clock.Now())
		if err != nil {
			return err
		}
		if p.Events+p.Deliveries+p.ReportVersions > 0 {
			m.Logger.Info("pruned by the retention policy", slog.Int("events", p.Events), slog.Int("deliveries", p.Deliveries),
				slog.Int("report_versions", p.ReportVersions))
		}
		return nil
	}
}

// stopQueueNow stops a queue whose start is being undone: the work it
// took meanwhile gets a few seconds, then is cancelled (and left for the
// next process: Queue.Stop).
func (m *Main) stopQueueNow() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := m.queue.Stop(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		m.Logger.Warn("stop the job queue of a failed start", slog.Any("error", err))
	}
}

// readTimeout bounds reading one request, headers and body (ServeConfig).
func (m *Main) readTimeout() time.Duration { return cmp.Or(m.Config.ReadTimeout, 30*time.Second) }

// serve starts serving the API (and /metrics) on the bound listeners.
func (m *Main) serve(_ context.Context, s *starting) error {
	m.listener = s.ln
	bg, stop := context.WithCancel(context.Background())
	// Requests derive from bg, so long-lived ones (GraphQL subscriptions,
	// webhook listeners) end when the server closes.
	readTimeout := m.readTimeout()
	m.server = &http.Server{Handler: s.api, ReadHeaderTimeout: min(10*time.Second, readTimeout), ReadTimeout: readTimeout, MaxHeaderBytes: 1 << 20,
		WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second, BaseContext: func(net.Listener) context.Context { return bg },
		TLSConfig: s.tls, ErrorLog: slog.NewLogLogger(m.Logger.Handler(), slog.LevelWarn)}
	ln := s.ln
	if !m.Config.TrustProxy { // behind a proxy every connection is the proxy's
		ln = rest.LimitConnsPerAddress(ln, cmp.Or(m.Config.MaxConnsPerAddress, rest.DefaultMaxConnsPerAddress))
	}
	if s.tls != nil {
		ln = tls.NewListener(ln, s.tls)
	}
	m.stop = stop
	m.done = make(chan struct{})
	if m.db.Dialect == storage.SQLite {
		go m.refreshSearch(bg) // no notifications: poll for other processes' changes
	}
	for _, up := range s.upstreams {
		go m.registerUpstreamWebhook(bg, up)
	}
	if s.metricsLn != nil {
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", promhttp.HandlerFor(s.registry, promhttp.HandlerOpts{ErrorLog: slog.NewLogLogger(m.Logger.Handler(), slog.LevelError)}))
		m.metrics = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		metricsLn := s.metricsLn
		go func() {
			if err := m.metrics.Serve(metricsLn); err != nil && !errors.Is(err, http.ErrServerClosed) {
				m.Logger.Error("metrics server stopped", slog.Any("error", err))
			}
		}()
		s.onFailure(func() { m.metrics.Close() })
	}
	go func() {
		defer close(m.done)
		if err := m.server.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			m.Logger.Error("server stopped", slog.Any("error", err))
		}
	}()
	s.onFailure(func() { stop(); m.server.Close(); <-m.done })
	m.metricsLn = s.metricsLn
	if s.metricsLn != nil {
		m.Logger.Info("metrics listening", slog.String("addr", s.metricsLn.Addr().String()))
	}
	m.Logger.Info("payline listening", slog.String("addr", ln.Addr().String()), slog.String("mode", string(m.Config.Mode)),
		slog.String("database", m.db.Dialect.String()), slog.String("public_url", m.Config.PublicURL),
		slog.Bool("workers", !m.Config.NoWorkers))
	return nil
}

// limitUploads bounds the documents link reads: an instance-wide pool of
// slots sized to the cores with a share per tenant and per link token
// (domain.DocumentAdmission), previews at domain.PreviewRate per token
// (in Redis when the instances share one), both counted in the metrics.
func (m *Main) limitUploads(s *starting, link *domain.LinkService) {
	var admission *domain.DocumentAdmission
	var obs domain.DocumentObserver
	if s.metricsLn != nil {
		reg := prometheus.WrapRegistererWith(prometheus.Labels{"instance_id": m.Config.InstanceID}, s.registry)
		obs = rest.NewDocumentMetrics(reg, func() (int, int) { return admission.Load() })
	}
	admission = domain.NewDocumentAdmission(domain.DocumentAdmissionConfig{}, obs)
	link.WithUploadLimits(admission, rest.NewPreviewRate(m.redis, m.Logger), obs)
}

package rest

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"payline/connectors/protocol"
	"payline/documents"
	"payline/domain"
	"payline/domain/sandbox"
	"payline/domain/search"
	"payline/graph"
	"payline/internal/secretbox"
	"payline/reports"
	"payline/storage"
)

// fixture is a REST server on a real database with one sandbox key. Every
// response it sees is validated against docs/openapi.yaml.
type fixture struct {
	t          testing.TB
	db         *storage.DB
	server     *Server
	http       *httptest.Server
	keys       *domain.KeyService
	secret     string
	key        domain.APIKey
	router     routers.Router
	clock      *offsetClock
	queue      *storage.Queue
	webhooks   *domain.WebhookService
	monitoring *domain.MonitoringService
	jobs       *domain.JobService
	members    *domain.MemberService
	orders     *domain.LinkOrderService
	disputes   *domain.DisputeService
	// requestStatements counts the statements the server's requests run
	// (storage.CountStatements), not those of background work.
	requestStatements *atomic.Int64
	// skipSpec turns the OpenAPI check off, for tests that serve shapes
	// the document does not describe on purpose.
	skipSpec bool
}

var testMasterKey = bytes.Repeat([]byte{7}, secretbox.KeySize)

// testPendingDelay keeps user_pending jobs pending briefly, so tests can
// watch pending turn into error.
const testPendingDelay = 1500 * time.Millisecond

// fixtureSetup is what a test may change before the fixture starts.
type fixtureSetup struct {
	rest      Config
	connector sandbox.Connector
	// wrapConnector, when set, stands between the services and the
	// sandbox connector.
	wrapConnector func(domain.Connector) domain.Connector
	// retry spaces webhook retries; tests scale the spec's 15 minutes down.
	retry storage.RetrySchedule
	// caFile is --webhook-ca-file.
	caFile string
	// logs receives the server's logs (discarded when nil).
	logs io.Writer
	// linkTTL is the download links' lifetime (the default when zero).
	linkTTL time.Duration
	// wsInitTimeout is how long a GraphQL websocket may wait to init.
	wsInitTimeout time.Duration
	// batchWait is the GraphQL dataloaders' wait (the default when zero).
	batchWait time.Duration
	// wsRecheck and wsWriteTimeout are graph.Options' RecheckEvery and
	// WriteTimeout (the defaults when zero).
	wsRecheck, wsWriteTimeout time.Duration
	// pollInterval is the queue's poll (50 ms when zero); pollOnly turns
	// PostgreSQL's insert notifications off.
	pollInterval time.Duration
	pollOnly     bool
	// limitUploads, when set, bounds Link's uploads its own way
	// (LinkService.WithUploadLimits).
	limitUploads func(*domain.LinkService)
	// sender carries Link orders' messages (nil: every message is
	// refused, as with no channel configured).
	sender domain.MessageSender
	// orderSweep is how often Link orders are swept (the default minute
	// when zero: tests of orders shorten it, others need none).
	orderSweep time.Duration
	// disputeSweep is how often overdue disputes are looked for (the
	// default when zero).
	disputeSweep time.Duration
}

// offsetClock is the real clock moved by a settable offset, so tests can
// jump past expiries while everything else runs in real time.
type offsetClock struct {
	mu     sync.Mutex
	offset time.Duration
}

func (c *offsetClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().UTC().Add(c.offset).Truncate(time.Microsecond)
}

func (c *offsetClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offset += d
}

func newFixture(t testing.TB, db *storage.DB, configure ...func(*fixtureSetup)) *fixture {
	t.Helper()
	box, err := secretbox.New(testMasterKey)
	if err != nil {
		t.Fatal(err)
	}
	db.SealWith(box)
	ks := storage.NewKeyStore(db)
	clock := &offsetClock{}
	keys := domain.NewKeyService(ks, ks, clock)
	members := domain.NewMemberService(keys, ks, ks, storage.NewSignInThrottle(db), clock, bcrypt.MinCost)
	var created domain.CreatedKey
	dir := domain.NewDirectoryService(storage.NewDirectoryStore(db), domain.NoRelay{}, search.Build)
	setup := fixtureSetup{
		connector: sandbox.Connector{PendingDelay: testPendingDelay, PendingPoll: 200 * time.Millisecond},
		rest:      Config{Mode: domain.ModeSandbox, RateLimit: -1},
		retry:     storage.RetrySchedule{Base: 40 * time.Millisecond, Window: 3 * time.Second},
	}
	for _, c := range configure {
		c(&setup)
	}
	queue, err := storage.NewQueue(db, storage.QueueConfig{PollInterval: cmp.Or(setup.pollInterval, 50*time.Millisecond), PollOnly: setup.pollOnly, Retry: setup.retry,
		LinkOrderSweep: setup.orderSweep, MessageRetry: 50 * time.Millisecond, DisputeSweep: setup.disputeSweep, NoticeRetry: 50 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelError}))})
	if err != nil {
		t.Fatal(err)
	}
	tx := storage.NewTransactor(db, queue)
	var connector domain.Connector = setup.connector
	if os.Getenv(envTestConnector) == "protocol" {
		connector = overProtocol(t, connector)
	}
	if setup.wrapConnector != nil {
		connector = setup.wrapConnector(connector)
	}
	jobs := domain.NewJobService(tx, connector, clock)
	sender, err := NewWebhookClient(setup.rest.Mode, setup.caFile)
	if err != nil {
		t.Fatal(err)
	}
	webhooks := domain.NewWebhookService(tx, keys, sender, net.DefaultResolver, clock, setup.rest.Mode)
	monitoring := domain.NewMonitoringService(tx, jobs, connector, clock, slog.New(slog.NewTextHandler(io.Discard, nil)))
	srv := httptest.NewUnstartedServer(nil) // its address is the links' public URL
	created, err = keys.CreateKey(context.Background(), "acme", setup.rest.Mode)
	if err != nil {
		t.Fatal(err)
	}
	cfg := setup.rest
	signer, err := reports.NewSigner(testMasterKey, "http://"+srv.Listener.Addr().String(), setup.linkTTL, clock)
	if err != nil {
		t.Fatal(err)
	}
	reporter := reports.NewService(tx, dir, keys, signer, clock).WithDisputes(tx)
	accounts := domain.NewAccountService(tx, clock, reporter, domain.NoRelay{})
	cfg.Keys, cfg.Directory, cfg.Accounts, cfg.Webhooks = keys, dir, accounts, webhooks
	cfg.Jobs, cfg.Products, cfg.Documents, cfg.EndUsers = accounts.AccountJobService, accounts.ProductService, accounts.DocumentService, accounts.EndUserService
	cfg.Reports = reporter
	cfg.Members = members
	reader := documents.NewReader()
	cfg.Link = domain.NewLinkService(tx, dir, connector, domain.NoRelay{}, clock, reporter).WithUploadParser(reader)
	if setup.limitUploads != nil {
		setup.limitUploads(cfg.Link)
	}
	orders := domain.NewLinkOrderService(tx, cfg.Link, setup.sender, clock, "http://"+srv.Listener.Addr().String())
	cfg.LinkOrders = orders
	var portalSender domain.MessageSender = &recordingSender{}
	if setup.sender != nil {
		portalSender = setup.sender
	}
	cfg.Portal = domain.NewPortalService(tx, cfg.Link, domain.NoRelay{}, disconnectRoute(connector), portalSender, keys, signer, clock,
		"http://"+srv.Listener.Addr().String())
	notifier, ok := connector.(domain.FurnisherNotifier)
	if !ok {
		notifier = domain.NoConnector{}
	}
	disputes := domain.NewDisputeService(tx, tx, tx, notifier, clock)
	cfg.Disputes = disputes
	if err := queue.Start(context.Background(), storage.Runners{Job: jobs.Run, Delivery: webhooks.Deliver, Schedule: monitoring.Schedule, Refresh: monitoring.RefreshAccount,
		LinkOrderMessage: orders.SendMessage, LinkOrderSweep: orders.Sweep,
		DisputeNotice: disputes.NotifyFurnisher, DisputeSweep: disputes.SweepOverdue}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = queue.Stop(ctx)
	})
	cfg.Reviews = domain.NewDocumentReviewService(tx, tx, tx.Reports(), reader, reporter, clock)
	if setup.logs == nil {
		setup.logs = io.Discard
	}
	cfg.Logger = slog.New(slog.NewTextHandler(setup.logs, nil))
	if cfg.GraphQL == nil { // the real GraphQL facade over the same services
		cfg.GraphQL = graph.NewHandler(&graph.Resolver{Directory: dir, AccountService: accounts, LinkService: cfg.Link,
			AccountJobService: accounts.AccountJobService, ProductService: accounts.ProductService,
			DocumentService: accounts.DocumentService, EndUserService: accounts.EndUserService,
			OverviewService: accounts.OverviewService, WatchService: accounts.WatchService,
			WebhookService: webhooks, DocumentReviewService: cfg.Reviews, Reporter: reporter, Logger: cfg.Logger, Keys: keys, LinkOrderService: orders,
			BatchWait: setup.batchWait, OutboxService: domain.NewOutboxService(storage.NewMessageStore(db)), DisputeService: disputes},
			graph.Options{Keys: keys, Mode: setup.rest.Mode, Console: true, InitTimeout: setup.wsInitTimeout,
				RecheckEvery: setup.wsRecheck, WriteTimeout: setup.wsWriteTimeout,
				// Production's 10 s, under the race detector on a busy
				// 2-core machine, cut off TestGraphQLChildFieldsBatched's
				// first query (it builds 100 reports); the limit is the
				// backstop, not what these tests are about.
				OperationTimeout: time.Minute})
		cfg.GraphQLPublic = graph.IsPublic
	}
	s := NewServer(cfg)
	requestStatements := new(atomic.Int64)
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.ServeHTTP(w, r.WithContext(storage.CountStatements(r.Context(), requestStatements)))
	})
	srv.Start()
	t.Cleanup(srv.Close)
	return &fixture{t: t, db: db, server: s, http: srv, keys: keys, secret: created.Secret, key: created.Key,
		router: openAPIRouter(t, srv.URL), clock: clock, queue: queue, webhooks: webhooks, monitoring: monitoring, jobs: jobs,
		members: members, orders: orders, disputes: disputes, requestStatements: requestStatements}
}

// refreshMonitored refreshes every monitored account now, in this
// goroutine, through the same domain call the queue's refresh jobs make.
func (f *fixture) refreshMonitored() {
	f.t.Helper()
	ctx := context.Background()
	accounts := storage.NewTransactor(f.db, f.queue).Accounts()
	for after := ""; ; {
		batch, err := accounts.MonitoredAccounts(ctx, 100, after)
		if err != nil {
			f.t.Fatal(err)
		}
		for _, a := range batch {
			if err := f.monitoring.Refresh(ctx, a); err != nil {
				f.t.Fatalf("refresh %s: %v", a.ID, err)
			}
		}
		if len(batch) < 100 {
			return
		}
		after = batch[len(batch)-1].ID
	}
}

var (
	specOnce sync.Once
	specDoc  *openapi3.T
	specErr  error
)

// openAPIRouter loads docs/openapi.yaml once, checks it is a valid
// document, and routes requests to the test server through it.
func openAPIRouter(t testing.TB, base string) routers.Router {
	t.Helper()
	specOnce.Do(func() {
		loader := openapi3.NewLoader()
		specDoc, specErr = loader.LoadFromFile("../docs/openapi.yaml")
		if specErr == nil {
			specErr = specDoc.Validate(loader.Context)
		}
	})
	if specErr != nil {
		t.Fatalf("docs/openapi.yaml: %v", specErr)
	}
	doc := *specDoc
	doc.Servers = openapi3.Servers{{URL: base + "/v1"}}
	r, err := legacy.NewRouter(&doc)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// result is one response, decoded.
type result struct {
	status int
	header http.Header
	raw    []byte
	body   map[string]any
}

// request sends a request with the fixture's secret and the latest
// version unless headers override them ("" removes a header).
func (f *fixture) request(method, path string, body io.Reader, headers ...string) result {
	f.t.Helper()
	req, err := http.NewRequest(method, f.http.URL+path, body)
	if err != nil {
		f.t.Fatal(err)
	}
	req.Header.Set("x-api-secret", f.secret)
	req.Header.Set("Service-Version", domain.LatestVersion)
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i+1] == "" {
			req.Header.Del(headers[i])
		} else {
			req.Header.Set(headers[i], headers[i+1])
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	res := result{status: resp.StatusCode, header: resp.Header, raw: raw}
	if len(raw) > 0 {
		var v any // an object, or the bare array of a legacy endpoint
		if err := json.Unmarshal(raw, &v); err != nil {
			f.t.Fatalf("%s %s: body is not JSON: %v\n%s", method, path, err, raw)
		}
		switch v := v.(type) {
		case map[string]any:
			res.body = v
		case []any:
		default:
			f.t.Fatalf("%s %s: body is neither an object nor an array:\n%s", method, path, raw)
		}
	}
	f.checkAgainstSpec(req, res)
	return res
}

func (f *fixture) get(path string, headers ...string) result {
	f.t.Helper()
	return f.request(http.MethodGet, path, nil, headers...)
}

// checkAgainstSpec validates a response of a documented route against
// docs/openapi.yaml, and the headers every response must carry.
func (f *fixture) checkAgainstSpec(req *http.Request, res result) {
	f.t.Helper()
	if id := res.header.Get("x-service-request-id"); !domain.ValidID(id) {
		f.t.Errorf("%s %s: x-service-request-id %q is not a UUID", req.Method, req.URL.Path, id)
	}
	if strings.HasPrefix(req.URL.Path, "/v1/") && res.header.Get("Service-Version") == "" {
		f.t.Errorf("%s %s: no Service-Version header", req.Method, req.URL.Path)
	}
	if f.skipSpec {
		return
	}
	route, params, err := f.router.FindRoute(req)
	if err != nil {
		return // an undocumented path: the 404/405 tests send these on purpose
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
		Status:                 res.status,
		Header:                 res.header,
		Body:                   io.NopCloser(bytes.NewReader(res.raw)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		f.t.Errorf("%s %s: response does not match docs/openapi.yaml: %v\n%s", req.Method, req.URL, err, res.raw)
	}
}

// wantError asserts the spec's error body and status.
func (res result) wantError(t testing.TB, status int, typ, code string) {
	t.Helper()
	if res.status != status {
		t.Fatalf("status %d, want %d; body %s", res.status, status, res.raw)
	}
	e, ok := res.body["error"].(map[string]any)
	if !ok {
		t.Fatalf("no error object in %s", res.raw)
	}
	if e["type"] != typ || e["code"] != code || e["status_code"] != float64(status) {
		t.Errorf("error %v, want type %s code %s status_code %d", e, typ, code, status)
	}
	if msg, _ := e["message"].(string); len(msg) < 10 {
		t.Errorf("error message %q does not tell the caller what to fix", msg)
	}
}

func (res result) data(t testing.TB) map[string]any {
	t.Helper()
	d, ok := res.body["data"].(map[string]any)
	if !ok {
		t.Fatalf("status %d: no data object in %s", res.status, res.raw)
	}
	return d
}

func (res result) list(t testing.TB) []map[string]any {
	t.Helper()
	items, ok := res.body["data"].([]any)
	if !ok {
		t.Fatalf("status %d: no data list in %s", res.status, res.raw)
	}
	out := make([]map[string]any, len(items))
	for i, it := range items {
		out[i] = it.(map[string]any)
	}
	return out
}

func (res result) meta(t testing.TB) map[string]any {
	t.Helper()
	m, ok := res.body["meta"].(map[string]any)
	if !ok {
		t.Fatalf("no meta in %s", res.raw)
	}
	return m
}

// allPages follows meta.next_cursor from path (which has a query) to the
// last page and returns every item, failing if one appears twice.
func (f *fixture) allPages(path string) []map[string]any {
	f.t.Helper()
	var all []map[string]any
	seen := map[any]bool{}
	next := path
	for pages := 0; ; pages++ {
		if pages > 1000 {
			f.t.Fatalf("%s: pagination does not end", path)
		}
		res := f.get(next)
		for _, item := range res.list(f.t) {
			if id, ok := item["id"]; ok {
				if seen[id] {
					f.t.Fatalf("%s: %v on two pages", path, id)
				}
				seen[id] = true
			}
			all = append(all, item)
		}
		cursor, _ := res.meta(f.t)["next_cursor"].(string)
		if cursor == "" {
			return all
		}
		next = path + "&cursor=" + url.QueryEscape(cursor)
	}
}

// The spec's error types, written out: tests check the wire, not the code
// that produces it.
const (
	typeNotFound     = "RECORD_NOT_FOUND"
	typeInvalid      = "INVALID_REQUEST_PARAMETERS"
	typeUnauthorized = "UNAUTHORIZED_REQUEST"
	typeUnknown      = "UNKNOWN_ERROR"
	typeRateLimited  = "RATE_LIMIT_EXCEEDED"
)

// envTestConnector set to "protocol" runs every fixture's sandbox
// connector out of process, behind the connector protocol (an httptest
// server and protocol.Client), as payline serve --connector-url does; CI
// runs the Link, job, data, monitoring and webhook tests that way too.
const envTestConnector = "PAYLINE_TEST_CONNECTOR"

func overProtocol(t testing.TB, c domain.Connector) domain.Connector {
	t.Helper()
	const secret = "fixture connector secret"
	platforms, _ := sandbox.Directory(10)
	srv := httptest.NewServer(protocol.NewServer("sandbox", c, platforms, secret, domain.SystemClock{},
		slog.New(slog.NewTextHandler(io.Discard, nil))))
	t.Cleanup(srv.Close)
	client, err := protocol.New(protocol.Config{URL: srv.URL, Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	return client
}

package graph

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/formatter"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"payline/domain"
	"payline/graph/generated"
	"payline/internal/gqlerr"
)

// Limits of one operation.
const (
	// ComplexityLimit bounds a query's cost, computed before it runs: an
	// object costs 1, a connection 2 plus first times what each node costs.
	ComplexityLimit = 10_000
	// DepthLimit bounds how deeply fields nest.
	DepthLimit = 12
	// DefaultInitTimeout is how long a websocket may wait before
	// connection_init.
	DefaultInitTimeout = 5 * time.Second
	// OperationTimeout bounds a query or mutation from validation to its
	// answer, over HTTP and websockets alike; the limits above keep a
	// valid one far below it, so it is the backstop, not the budget.
	OperationTimeout = 10 * time.Second
)

// Options are what the handler needs beyond the resolvers.
type Options struct {
	// Keys authenticates websocket connections by the x-api-secret of
	// their connection_init payload.
	Keys *domain.KeyService
	Mode domain.Mode
	// Console serves GraphiQL to browsers at GET /graphql (Accept:
	// text/html), with its assets under /graphql/assets/.
	Console bool
	// NoIntrospection turns introspection off (--graphql-introspection=
	// false): __schema and __type then answer INTROSPECTION_DISABLED.
	NoIntrospection bool
	// InitTimeout is how long a websocket may wait before connection_init
	// (DefaultInitTimeout when zero).
	InitTimeout time.Duration
	// RecheckEvery is how often a websocket's credential is checked
	// between operations (DefaultRecheckEvery when zero).
	RecheckEvery time.Duration
	// WriteTimeout bounds one websocket write (WriteTimeout when zero).
	WriteTimeout time.Duration
	// OperationTimeout bounds one query or mutation (OperationTimeout
	// when zero). The REST tests raise it: under the race detector an
	// operation runs several times slower than in production.
	OperationTimeout time.Duration
}

// NewHandler serves GraphQL over POST, GET and graphql-transport-ws,
// GraphiQL, and the SDL at /graphql/schema.graphql. Queries and mutations
// are authenticated by the caller (the REST server mounts this behind the
// same API-secret check); websockets authenticate in connection_init.
func NewHandler(r *Resolver, opts ...Options) http.Handler {
	var o Options
	if len(opts) > 0 {
		o = opts[0]
	}
	cfg := generated.Config{Resolvers: r}
	setComplexity(&cfg)
	schema := generated.NewExecutableSchema(cfg)
	socks := newSockets(o.Keys, cmp.Or(o.RecheckEvery, DefaultRecheckEvery))
	srv := handler.New(schema)
	readLimit := int64(MaxBodyBytes)
	srv.AddTransport(transport.Websocket{
		Implementation:        websocketImpl{writeTimeout: cmp.Or(o.WriteTimeout, WriteTimeout)},
		InitFunc:              websocketInit(o, socks),
		InitTimeout:           cmp.Or(o.InitTimeout, DefaultInitTimeout),
		KeepAlivePingInterval: 10 * time.Second,
		PayloadReadLimit:      &readLimit,
	})
	srv.AddTransport(transport.GET{})
	srv.AddTransport(transport.POST{})
	srv.SetParserTokenLimit(MaxQueryTokens)
	srv.SetQueryCache(lru.New[*ast.QueryDocument](1000))
	if !o.NoIntrospection {
		// Tools (GraphiQL, codegen, IDE plugins) start from introspection;
		// the schema is public anyway at /graphql/schema.graphql.
		srv.Use(extension.Introspection{})
	}
	srv.Use(extension.AutomaticPersistedQuery{Cache: newTenantQueries(PersistedQueries)})
	srv.Use(textBounds{}) // after the persisted query is looked up, before anything parses it
	srv.Use(extension.FixedComplexityLimit(ComplexityLimit))
	srv.Use(depthLimit{})
	srv.Use(idArguments{schema: schema.Schema()})
	srv.Use(&costReport{})
	log := r.Logger
	if log == nil {
		log = slog.Default()
	}
	srv.SetErrorPresenter(func(ctx context.Context, err error) *gqlerror.Error { return gqlerr.Present(ctx, log, err) })
	srv.SetRecoverFunc(func(ctx context.Context, p any) error {
		return domain.AsError(fmt.Errorf("panic: %v", p))
	})
	srv.AroundResponses(func(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
		return next(withLoaders(ctx, r))
	})
	timeout := cmp.Or(o.OperationTimeout, OperationTimeout)
	srv.AroundOperations(func(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
		op := graphql.GetOperationContext(ctx).Operation
		release, err := admit(ctx, op)
		if err != nil {
			return graphql.OneShot(&graphql.Response{Errors: gqlerror.List{gqlerr.Present(ctx, log, err)}})
		}
		if op.Operation == ast.Subscription {
			context.AfterFunc(ctx, release)
			return next(ctx)
		}
		defer release()
		ctx, cancel := context.WithTimeoutCause(ctx, timeout, gqlerr.OperationTimeout{After: timeout})
		responses := next(ctx)
		return func(ctx context.Context) *graphql.Response {
			defer cancel()
			return responses(ctx)
		}
	})
	schemaText := SDL(schema)
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		switch {
		case req.URL.Path == "/graphql/schema.graphql":
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			_, _ = w.Write([]byte(schemaText)) // a failed write is a client that left
		case isAsset(req):
			if !o.Console {
				http.NotFound(w, req)
				return
			}
			serveGraphiQLAsset(w, req)
		case o.Console && IsConsoleRequest(req):
			serveGraphiQLPage(w)
		case IsWebsocket(req):
			// A subscription outlives the server's read and write timeouts,
			// which the hijacked connection would otherwise keep.
			// A writer that cannot clear them (http.ErrNotSupported, as
			// behind a wrapper without Unwrap) leaves the server's
			// timeouts, which end the subscription early but safely; the
			// client reconnects, so the upgrade goes ahead either way.
			rc := http.NewResponseController(w)
			_ = rc.SetReadDeadline(time.Time{})
			_ = rc.SetWriteDeadline(time.Time{})
			srv.ServeHTTP(w, req.WithContext(context.WithValue(req.Context(), socketCtxKey{}, &socket{})))
		default:
			read, err := readRequest(req)
			if err != nil {
				gqlerr.Write(w, req, log, err)
				return
			}
			status := new(int)
			read = read.WithContext(context.WithValue(read.Context(), statusKey{}, status))
			sw := &statusWriter{ResponseWriter: w, status: status}
			srv.ServeHTTP(sw, read)
			sw.endLine()
		}
	})
}

// admit decides whether an operation may run, before any resolver does.
// Over HTTP a subscription is refused (it could never answer, and it
// would hold a request slot until the client left). On a websocket the
// credential is checked again, the operation counts against the tenant's
// rate as an HTTP request does, and a subscription takes one of the
// socket's and the credential's places until it ends (release). A member
// whose role only reads may not run a mutation, but for a review
// (reviewsOnly), whose use case decides who may.
func admit(ctx context.Context, op *ast.OperationDefinition) (release func(), err error) {
	release = func() {}
	if s, ok := socketFrom(ctx); ok {
		if release, err = s.admit(ctx, op.Operation == ast.Subscription); err != nil {
			return nil, err
		}
	} else if op.Operation == ast.Subscription {
		setStatus(ctx, http.StatusBadRequest)
		return nil, domain.Errorf(domain.KindInvalid, domain.CodeSubscriptionNeedsWebsocket,
			"subscriptions run over a websocket (graphql-transport-ws at /graphql), not over HTTP %s", "POST or GET")
	}
	if op.Operation == ast.Mutation && !reviewsOnly(op) {
		if err := domain.CheckWrite(ctx); err != nil {
			release()
			setStatus(ctx, http.StatusForbidden)
			return nil, err
		}
	}
	return release, nil
}

// reviewMutations are the mutations a member who may not write may still
// ask for: a document's review, which its use case allows to reviewers
// and administrators alone (domain.Role.CanReview).
var reviewMutations = []string{"documentReviewSubmit", "__typename"}

// reviewsOnly reports whether a mutation asks only for reviews: each of
// its top-level selections is a field among reviewMutations (a fragment
// could hide any other, so one is no review).
func reviewsOnly(op *ast.OperationDefinition) bool {
	for _, sel := range op.SelectionSet {
		f, ok := sel.(*ast.Field)
		if !ok || !slices.Contains(reviewMutations, f.Name) {
			return false
		}
	}
	return len(op.SelectionSet) > 0
}

type statusKey struct{}

// setStatus makes an HTTP answer use status instead of 200, where the
// transport has a status of its own.
func setStatus(ctx context.Context, status int) {
	if p, ok := ctx.Value(statusKey{}).(*int); ok {
		*p = status
	}
}

// statusWriter answers the status setStatus chose instead of 200, and
// ends the answer with a newline (endLine), as REST's answers end: gqlgen
// writes its JSON without one, so curl's prompt landed on the answer's
// line (issue 51).
type statusWriter struct {
	http.ResponseWriter
	status *int
	wrote  bool
	last   byte // the last byte of the body written, 0 before any
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote && code == http.StatusOK && *w.status != 0 {
		code = *w.status
	}
	w.wrote = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	n, err := w.ResponseWriter.Write(b)
	if n > 0 {
		w.last = b[n-1]
	}
	return n, err
}

// endLine writes a newline after a body that does not end with one.
func (w *statusWriter) endLine() {
	if w.last != 0 && w.last != '\n' {
		_, _ = w.Write([]byte("\n")) // a failed write is a client that left
	}
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// SDL is the schema as GraphQL text, what /graphql/schema.graphql serves
// and docs/schema.graphql holds.
func SDL(es graphql.ExecutableSchema) string {
	var b strings.Builder
	formatter.NewFormatter(&b, formatter.WithComments()).FormatSchema(es.Schema())
	return b.String()
}

// IsPublic reports whether a request needs no API secret header: the
// GraphiQL page, its assets and the SDL, and a websocket without the
// header, which authenticates in its connection_init message instead.
func IsPublic(r *http.Request) bool {
	return IsConsoleRequest(r) || isAsset(r) || (IsWebsocket(r) && r.Header.Get("x-api-secret") == "")
}

// IsConsoleRequest reports whether a request is a browser asking for the
// GraphiQL page, or for the SDL: neither needs an API secret.
func IsConsoleRequest(r *http.Request) bool {
	if r.URL.Path == "/graphql/schema.graphql" {
		return true
	}
	return r.Method == http.MethodGet && r.URL.RawQuery == "" && strings.Contains(r.Header.Get("Accept"), "text/html")
}

// IsWebsocket reports whether a request opens a GraphQL websocket, which
// authenticates in its connection_init message rather than by header.
func IsWebsocket(r *http.Request) bool {
	return strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}

// websocketInit authenticates a websocket by its connection_init payload
// (x-api-secret), unless the upgrade request already carried a
// credential (the header, or the dashboard's cookie) and was
// authenticated. A refused secret closes with 4403. The socket then
// lives as long as its credential works (sockets.open).
func websocketInit(o Options, socks *sockets) transport.WebsocketInitFunc {
	return func(ctx context.Context, payload transport.InitPayload) (context.Context, *transport.InitPayload, error) {
		s, ok := socketFrom(ctx)
		if !ok {
			return ctx, nil, errors.New("no socket")
		}
		cred, authenticated := domain.CredentialFrom(ctx)
		if !authenticated {
			secret := ""
			for k, v := range payload {
				if strings.EqualFold(k, "x-api-secret") {
					secret, _ = v.(string)
				}
			}
			if o.Keys == nil {
				return transport.WithWebsocketCloseCode(ctx, closeForbidden), nil, errors.New("subscriptions are not authenticated on this server")
			}
			secret = strings.TrimSpace(secret)
			key, err := o.Keys.Authenticate(ctx, secret, o.Mode)
			if err != nil {
				ctx = transport.WithWebsocketCloseCode(ctx, closeForbidden)
				return transport.AppendCloseReason(ctx, closeReasonForbidden), nil, errors.New(domain.AsError(err).Message)
			}
			ctx, cred = domain.WithAPIKey(ctx, key), o.Keys.KeyCredential(key, secret, o.Mode)
			ctx = domain.WithCredential(ctx, cred)
		}
		ctx, err := socks.open(ctx, s, cred)
		if err != nil {
			ctx = transport.WithWebsocketCloseCode(ctx, closeTooManySockets)
			return transport.AppendCloseReason(ctx, "Too many connections"), nil, errors.New(domain.AsError(err).Message)
		}
		return ctx, nil, nil
	}
}

// readRequest reads an HTTP request's body whole, up to MaxBodyBytes,
// and checks that a JSON body is one GraphQL request, so that nothing
// gqlgen would answer with the body quoted in its error (and our log
// would keep) gets that far. The refusals name what is wrong, never the
// body's contents.
func readRequest(r *http.Request) (*http.Request, error) {
	if r.Body == nil || r.Method != http.MethodPost {
		return r, nil
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxBodyBytes+1))
	if err != nil {
		var refusal *domain.Error // the body's reader refused it (too slow)
		if errors.As(err, &refusal) {
			return nil, refusal
		}
		var tooLarge *http.MaxBytesError
		if !errors.As(err, &tooLarge) {
			return nil, domain.Errorf(domain.KindInvalid, domain.CodeInvalidJSON, "the request body could not be read; send it again")
		}
		body = make([]byte, MaxBodyBytes+1)
	}
	if len(body) > MaxBodyBytes {
		return nil, domain.Errorf(domain.KindInvalid, domain.CodeRequestTooLarge,
			"the GraphQL request body is over %d KiB; send a smaller query, with large inputs split over several operations", MaxBodyBytes>>10)
	}
	// A Content-Type that does not parse is not JSON's: its body is left
	// to the GraphQL transport, which refuses it.
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "application/json" {
		if err := checkRequestJSON(body); err != nil {
			return nil, err
		}
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return r, nil
}

// checkRequestJSON refuses a body that is not one GraphQL request object
// with fields of the right types.
func checkRequestJSON(body []byte) error {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '[' {
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidJSON,
			"batched operations are not supported: send one operation per request, as {\"query\": ..., \"variables\": {...}}")
	}
	var req struct {
		Query         *string        `json:"query"`
		OperationName *string        `json:"operationName"`
		Variables     map[string]any `json:"variables"`
		Extensions    map[string]any `json:"extensions"`
	}
	err := json.Unmarshal(body, &req)
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &typeErr) && typeErr.Field != "":
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidJSON,
			"%s must be %s, not a JSON %s", typeErr.Field, requestFieldType(typeErr.Field), typeErr.Value)
	case errors.As(err, &syntaxErr):
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidJSON, "the body is not valid JSON (at byte %d)", syntaxErr.Offset)
	}
	return domain.Errorf(domain.KindInvalid, domain.CodeInvalidJSON,
		"the body must be one JSON object: {\"query\": string, \"operationName\": string, \"variables\": object, \"extensions\": object}")
}

func requestFieldType(field string) string {
	switch field {
	case "query", "operationName":
		return "a string"
	}
	return "an object"
}

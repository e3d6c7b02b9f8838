package graph

import (
	"cmp"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
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
)

// Options are what the handler needs beyond the resolvers.
type Options struct {
	// Keys authenticates websocket connections by the x-api-secret of
	// their connection_init payload.
	Keys *domain.KeyService
	Mode domain.Mode
	// Console serves the query console to browsers at GET /graphql.
	Console bool
	// InitTimeout is how long a websocket may wait before connection_init
	// (DefaultInitTimeout when zero).
	InitTimeout time.Duration
}

// NewHandler serves GraphQL over POST, GET and graphql-transport-ws, the
// console, and the SDL at /graphql/schema.graphql. Queries and mutations
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
	srv := handler.New(schema)
	srv.AddTransport(transport.Websocket{
		Implementation:        closeCodes{transport.CoderWebsocketImplementation{}},
		InitFunc:              websocketInit(o),
		InitTimeout:           cmp.Or(o.InitTimeout, DefaultInitTimeout),
		KeepAlivePingInterval: 10 * time.Second,
	})
	srv.AddTransport(transport.GET{})
	srv.AddTransport(transport.POST{})
	srv.SetQueryCache(lru.New[*ast.QueryDocument](1000))
	srv.Use(extension.AutomaticPersistedQuery{Cache: lru.New[string](1000)})
	srv.Use(extension.FixedComplexityLimit(ComplexityLimit))
	srv.Use(depthLimit{})
	srv.Use(&costReport{})
	log := r.Logger
	if log == nil {
		log = slog.Default()
	}
	srv.SetErrorPresenter(func(ctx context.Context, err error) *gqlerror.Error { return presentError(ctx, log, err) })
	srv.SetRecoverFunc(func(ctx context.Context, p any) error {
		return domain.AsError(fmt.Errorf("panic: %v", p))
	})
	srv.AroundResponses(func(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
		return next(withLoaders(ctx, r))
	})
	// A member whose role only reads may not run a mutation: refused
	// before any resolver runs, with HTTP 403 where the transport has a
	// status of its own.
	srv.AroundOperations(func(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
		if op := graphql.GetOperationContext(ctx).Operation; op != nil && op.Operation == ast.Mutation {
			if err := domain.CheckWrite(ctx); err != nil {
				if f, ok := ctx.Value(forbiddenKey{}).(*bool); ok {
					*f = true
				}
				return graphql.OneShot(&graphql.Response{Errors: gqlerror.List{presentError(ctx, log, err)}})
			}
		}
		return next(ctx)
	})
	schemaText := SDL(schema)
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		switch {
		case req.URL.Path == "/graphql/schema.graphql":
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			_, _ = w.Write([]byte(schemaText))
		case o.Console && IsConsoleRequest(req):
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'self' 'unsafe-inline'; frame-ancestors 'none'")
			_, _ = w.Write(consolePage)
		case IsWebsocket(req):
			// A subscription outlives the server's read and write timeouts,
			// which the hijacked connection would otherwise keep.
			rc := http.NewResponseController(w)
			_ = rc.SetReadDeadline(time.Time{})
			_ = rc.SetWriteDeadline(time.Time{})
			srv.ServeHTTP(w, req)
		default:
			forbidden := false
			req = req.WithContext(context.WithValue(req.Context(), forbiddenKey{}, &forbidden))
			srv.ServeHTTP(&forbiddenWriter{ResponseWriter: w, forbidden: &forbidden}, req)
		}
	})
}

type forbiddenKey struct{}

// forbiddenWriter answers 403 instead of 200 when the operation was
// refused for the caller's role.
type forbiddenWriter struct {
	http.ResponseWriter
	forbidden *bool
	wrote     bool
}

func (w *forbiddenWriter) WriteHeader(code int) {
	if !w.wrote && code == http.StatusOK && *w.forbidden {
		code = http.StatusForbidden
	}
	w.wrote = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *forbiddenWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

func (w *forbiddenWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// SDL is the schema as GraphQL text, what /graphql/schema.graphql serves
// and docs/schema.graphql holds.
func SDL(es graphql.ExecutableSchema) string {
	var b strings.Builder
	formatter.NewFormatter(&b, formatter.WithComments()).FormatSchema(es.Schema())
	return b.String()
}

//go:embed console.html
var consolePage []byte

// IsPublic reports whether a request needs no API secret header: the
// console page and the SDL, and a websocket without the header, which
// authenticates in its connection_init message instead.
func IsPublic(r *http.Request) bool {
	return IsConsoleRequest(r) || (IsWebsocket(r) && r.Header.Get("x-api-secret") == "")
}

// IsConsoleRequest reports whether a request is a browser asking for the
// console page, or for the SDL: neither needs an API secret.
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
// (x-api-secret), unless the upgrade request already carried the header
// and was authenticated. A refused secret closes with 4403.
func websocketInit(o Options) transport.WebsocketInitFunc {
	return func(ctx context.Context, payload transport.InitPayload) (context.Context, *transport.InitPayload, error) {
		if _, ok := domain.APIKeyFrom(ctx); ok {
			return ctx, nil, nil
		}
		if _, ok := domain.SessionFrom(ctx); ok { // the dashboard's cookie
			return ctx, nil, nil
		}
		secret := ""
		for k, v := range payload {
			if strings.EqualFold(k, "x-api-secret") {
				secret, _ = v.(string)
			}
		}
		if o.Keys == nil {
			return transport.WithWebsocketCloseCode(ctx, 4403), nil, errors.New("subscriptions are not authenticated on this server")
		}
		key, err := o.Keys.Authenticate(ctx, strings.TrimSpace(secret), o.Mode)
		if err != nil {
			ctx = transport.WithWebsocketCloseCode(ctx, 4403)
			return transport.AppendCloseReason(ctx, "Forbidden"), nil, errors.New(domain.AsError(err).Message)
		}
		return domain.WithAPIKey(ctx, key), nil, nil
	}
}

// closeCodes closes a websocket whose connection_init never came with
// 4408, as graphql-transport-ws says, where gqlgen uses 1002.
type closeCodes struct {
	transport.WebsocketImplementation
}

func (c closeCodes) Accept(w http.ResponseWriter, r *http.Request, o transport.WebsocketAcceptOptions) (transport.WebsocketConn, error) {
	conn, err := c.WebsocketImplementation.Accept(w, r, o)
	return initTimeoutCode{conn}, err
}

type initTimeoutCode struct{ transport.WebsocketConn }

func (c initTimeoutCode) WriteClose(code int, message string) error {
	if code == transport.WebsocketCloseProtocolError && strings.Contains(message, "initialisation timeout") {
		code, message = 4408, "Connection initialisation timeout"
	}
	return c.WebsocketConn.WriteClose(code, message)
}

// presentError is the one mapping from domain errors to GraphQL errors:
// extensions carry the REST error's code and type (and the fields a
// validation error is about), and errors that are not the domain's never
// show their text; they are logged with the request id, as REST logs them.
func presentError(ctx context.Context, log *slog.Logger, err error) *gqlerror.Error {
	gerr := graphql.DefaultErrorPresenter(ctx, err)
	var de *domain.Error
	if !errors.As(err, &de) {
		var existing *gqlerror.Error
		if errors.As(err, &existing) && existing.Extensions != nil {
			return gerr // gqlgen's own validation, parse and limit errors
		}
		de = domain.AsError(err)
	}
	if de.Kind == domain.KindInternal {
		log.ErrorContext(ctx, "graphql request failed", slog.String("request_id", domain.RequestID(ctx)),
			slog.String("path", gerr.Path.String()), slog.Any("error", err))
	}
	gerr.Message = de.Message
	gerr.Extensions = map[string]any{"code": de.Code, "type": de.Kind.Type()}
	if len(de.Fields) > 0 {
		gerr.Extensions["fields"] = de.Fields
	}
	return gerr
}

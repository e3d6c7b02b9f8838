package rest

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"payline/domain"
	"payline/rest/wire"
)

type apiHandler func(r *http.Request) (response, error)

// The request pipeline every authenticated route goes through, REST, the
// admin API, GraphQL and the webhook listener alike, in one order:
// Service-Version (where the route is versioned), who the caller is, the
// tenant's rate limit, the caller's requests in flight, the instance's
// admission, and the path's ids. Only two things differ between route
// families, and a gate names them: how a caller proves who it is, and
// how a refusal is written (REST's error body or GraphQL's).
type gate struct {
	// versioned routes require Service-Version and echo it (the latest
	// when it is missing or unknown).
	versioned bool
	// identify authenticates the request.
	identify func(w http.ResponseWriter, r *http.Request) (caller, error)
	// refuse writes a refusal.
	refuse func(w http.ResponseWriter, r *http.Request, err error)
}

// caller is who a request comes from, as a gate's identify found it.
type caller struct {
	// ctx is the request's context carrying the credential.
	ctx context.Context
	// scope is the tenant whose rate the request spends.
	scope domain.Scope
	// holder is whose requests in flight it counts against; "" counts
	// none.
	holder string
	// streaming is a websocket: it counts each of its operations
	// against the rate, not itself against requests in flight or the
	// instance's admission, since it stays open.
	streaming bool
}

// pass runs the pipeline for one request. It returns the request to
// serve, carrying the caller and its version, and what to release when
// the request is done; or false once it has written the refusal.
func (s *Server) pass(g gate, wildcards []string, w http.ResponseWriter, r *http.Request) (*http.Request, func(), bool) {
	version, versionErr := domain.LatestVersion, error(nil)
	if g.versioned {
		version, versionErr = parseVersion(r.Header.Get("Service-Version"))
		w.Header().Set("Service-Version", version)
	}
	c, err := g.identify(w, r)
	if err == nil {
		err = versionErr // who is asking is answered first
	}
	if err == nil {
		err = s.allow(c.ctx, c.scope)
		if e, ok := err.(*domain.Error); ok && e.RetryAfter > 0 {
			w.Header().Set("Retry-After", retryAfterSeconds(e.RetryAfter))
		}
	}
	release := func() {}
	if err == nil && c.holder != "" && !c.streaming {
		release, err = s.inFlight.take(c.holder)
	}
	if err == nil && !c.streaming {
		err = s.enter(r)
	}
	for _, name := range wildcards {
		if err == nil {
			err = wire.CheckIDText(name, r.PathValue(name)) // every path value is an id
		}
	}
	if err != nil {
		release()
		g.refuse(w, r, err)
		return nil, nil, false
	}
	ctx := c.ctx
	if g.versioned {
		ctx = context.WithValue(ctx, versionKey{}, version)
	}
	return r.WithContext(ctx), release, true
}

// apiGate is the /v1 API's: an API secret, REST's error body.
func (s *Server) apiGate() gate {
	return gate{versioned: true, identify: s.keyCaller, refuse: s.writeError}
}

// keyCaller authenticates x-api-secret; the key's requests in flight are
// counted together.
func (s *Server) keyCaller(w http.ResponseWriter, r *http.Request) (caller, error) {
	key, err := s.authenticate(w, r)
	if err != nil {
		return caller{}, err
	}
	return caller{ctx: domain.WithAPIKey(r.Context(), key), scope: key.Scope(), holder: "key:" + key.ID}, nil
}

// handle registers an API route behind the pipeline (apiGate), then the
// handler and the version transform of its response.
func (s *Server) handle(pattern string, h apiHandler) {
	wildcards, g := pathWildcards(pattern), s.apiGate()
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		r, release, ok := s.pass(g, wildcards, w, r)
		if !ok {
			return
		}
		defer release()
		resp, err := h(r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		s.write(w, r, versionOf(r), resp)
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
	// file, when set, is the whole body as it is (a page drawn as an
	// image), its Content-Type in header.
	file []byte
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

func (s *Server) write(w http.ResponseWriter, r *http.Request, version string, resp response) {
	if resp.status == http.StatusNoContent {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if resp.file != nil {
		for k, v := range resp.header {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(resp.file)))
		w.WriteHeader(resp.status)
		_, _ = w.Write(resp.file) // a failed write is a client gone: no one left to tell
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

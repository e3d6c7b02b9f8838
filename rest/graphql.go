package rest

import (
	"net/http"
	"strings"

	"payline/domain"
	"payline/internal/gqlerr"
)

// graphQL puts the GraphQL handler behind authentication and the rate
// limit: an API secret, or a dashboard member's session cookie (whose
// writes must come from this site). Refusals keep the status REST would
// use but take GraphQL's error shape, with the REST code and type in
// extensions: gqlerr.Write, GraphQL's one error writer, writes them.
// The credential goes with the request, so a websocket can check it again
// for as long as it stays open, and so does the rate limit, which every
// operation on a websocket counts against.
func (s *Server) graphQL(h http.Handler) http.Handler {
	g := gate{identify: s.graphQLCaller, refuse: func(w http.ResponseWriter, r *http.Request, err error) { gqlerr.Write(w, r, s.log, err) }}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
			ctx = domain.WithRateLimiter(ctx, s.allow)
		}
		ctx = domain.WithRateStatus(ctx, s.rateStatus)
		r = r.WithContext(ctx)
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
		r, release, ok := s.pass(g, nil, w, r)
		if !ok {
			return
		}
		defer release()
		h.ServeHTTP(w, r)
	})
}

// graphQLCaller authenticates /graphql: a member's session when the
// request carries no API secret and no session cookie names it (a
// Bearer token), else the API secret; the credential's holder counts
// its requests in flight.
func (s *Server) graphQLCaller(w http.ResponseWriter, r *http.Request) (caller, error) {
	ctx := r.Context()
	var cred domain.Credential
	var sc domain.Scope
	if _, cookie := s.sessionCookie(r); s.members != nil && apiSecret(r) == "" && cookie == nil {
		sess, err := s.sessionOf(r)
		if err != nil {
			return caller{}, err
		}
		cred, sc = s.members.SessionCredential(sess, s.sessionToken(r)), sess.Scope()
		ctx = domain.WithSession(ctx, sess)
	} else {
		key, err := s.authenticate(w, r)
		if err != nil {
			return caller{}, err
		}
		cred, sc = s.keys.KeyCredential(key, apiSecret(r), s.mode), key.Scope()
		ctx = domain.WithAPIKey(ctx, key)
	}
	return caller{ctx: domain.WithCredential(ctx, cred), scope: sc, holder: cred.Holder,
		streaming: strings.EqualFold(r.Header.Get("Upgrade"), "websocket")}, nil
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

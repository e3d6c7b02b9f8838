package rest

import (
	"net"
	"net/http"
	"strings"
	"time"

	"payline/domain"
	"payline/rest/wire"
)

// The cookie holding a dashboard member's session token. Over HTTPS it is
// HostSessionCookie: browsers take a __Host- cookie only when it is
// Secure, set for the whole host (Path=/) and by the host itself (no
// Domain), so neither a sibling subdomain nor plain HTTP can plant or
// read one. Plain HTTP (the sandbox on localhost) cannot carry a Secure
// cookie, and uses SessionCookie.
const (
	SessionCookie     = "payline_session"
	HostSessionCookie = "__Host-payline_session"
)

// sessionCookieName is the session cookie's name for a request: the
// __Host- form whenever the cookie is Secure.
func (s *Server) sessionCookieName(r *http.Request) string {
	if s.secureCookie(r) {
		return HostSessionCookie
	}
	return SessionCookie
}

// secureCookie reports whether cookies set in answer to r are Secure.
func (s *Server) secureCookie(r *http.Request) bool { return s.secureCookies || s.overHTTPS(r) }

// sessionCookie is the request's session cookie, under its name for r.
func (s *Server) sessionCookie(r *http.Request) (*http.Cookie, error) {
	return r.Cookie(s.sessionCookieName(r))
}

// Resource names of the admin API, for the version transforms.
const (
	resAdminToken    = "admin_token"
	resAPIKey        = "api_key"
	resMember        = "member"
	resEndedSessions = "ended_sessions"
)

// adminHandler is an admin API handler: it runs for a signed-in member.
type adminHandler func(r *http.Request, sess domain.Session) (response, error)

// adminRoutes registers the admin API (the vendor's shape, our header
// names) and the dashboard's sign-in.
func (s *Server) adminRoutes() {
	if s.members == nil {
		return
	}
	// Signing in, like the dashboard's session routes below, is guarded
	// by no credential: its body comes in first (admission.go).
	s.mux.Handle("POST /v1/admin/token", s.unvouched(http.HandlerFunc(s.adminToken)))
	s.handleAdmin("GET /v1/admin/api_keys", s.adminListKeys)
	s.handleAdmin("POST /v1/admin/api_keys", s.adminCreateKey)
	s.handleAdmin("POST /v1/admin/api_keys/{api_key}/revoke", s.adminRevokeKey)
	s.handleAdmin("GET /v1/admin/members", s.adminListMembers)
	s.handleAdmin("DELETE /v1/admin/members/{member_id}/sessions", s.adminEndSessions)
	s.mux.Handle("POST /dashboard/session", s.unvouched(http.HandlerFunc(s.dashboardSignIn)))
	s.mux.Handle("GET /dashboard/session", s.unvouched(http.HandlerFunc(s.dashboardWhoAmI)))
	s.mux.Handle("DELETE /dashboard/session", s.unvouched(http.HandlerFunc(s.dashboardSignOut)))
}

// handleAdmin registers an admin API route behind the pipeline with a
// member's session (Authorization: Bearer, or the dashboard's cookie,
// whose writes must come from this site) for credential.
func (s *Server) handleAdmin(pattern string, h adminHandler) {
	wildcards := pathWildcards(pattern)
	g := gate{versioned: true, identify: s.sessionCaller, refuse: s.writeError}
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		r, release, ok := s.pass(g, wildcards, w, r)
		if !ok {
			return
		}
		defer release()
		sess, _ := domain.SessionFrom(r.Context()) // sessionCaller put it there
		resp, err := h(r, sess)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		s.write(w, r, versionOf(r), resp)
	})
}

// sessionCaller authenticates a member for the admin API; the member's
// requests in flight are counted together, as a key's are.
func (s *Server) sessionCaller(_ http.ResponseWriter, r *http.Request) (caller, error) {
	sess, err := s.sessionOf(r)
	if err != nil {
		return caller{}, err
	}
	return caller{ctx: domain.WithSession(r.Context(), sess), scope: sess.Scope(), holder: "member:" + sess.MemberID}, nil
}

// sessionOf authenticates a member: the Authorization bearer token, else
// the dashboard's session cookie. A cookie-authenticated write must come
// from a page of this site (Sec-Fetch-Site / Origin), so another site
// cannot make a signed-in browser act.
func (s *Server) sessionOf(r *http.Request) (domain.Session, error) {
	token, err := s.memberToken(r)
	if err != nil {
		return domain.Session{}, err
	}
	return s.members.Authenticate(r.Context(), token, s.mode)
}

// memberToken is the member's token a request carries: the Authorization
// bearer token, else the session cookie's (from this site only); ""
// when it carries neither.
func (s *Server) memberToken(r *http.Request) (string, error) {
	if auth := r.Header.Get("Authorization"); auth != "" {
		token, ok := strings.CutPrefix(auth, "Bearer ")
		if !ok {
			return "", domain.Errorf(domain.KindUnauthorized, domain.CodeInvalidAdminToken,
				"the Authorization header must be \"Bearer <token>\" with the token of POST /v1/admin/token")
		}
		return strings.TrimSpace(token), nil
	}
	c, err := s.sessionCookie(r)
	if err != nil {
		return "", nil
	}
	if err := s.sameSite(r); err != nil {
		return "", err
	}
	return c.Value, nil
}

// sameSite refuses an unsafe request made from another site.
func (s *Server) sameSite(r *http.Request) error {
	if err := s.crossOrigin.Check(r); err != nil {
		return domain.Errorf(domain.KindForbidden, domain.CodeCrossOrigin,
			"a request signed in by the dashboard's cookie must come from the dashboard's own pages")
	}
	return nil
}

// clientAddr is where a request came from, for sign-in throttling and
// the audit log: the peer's address, or behind a trusted proxy
// (--trust-proxy) the address the proxy appended to X-Forwarded-For. The
// header's earlier entries are the client's to write and are ignored.
func (s *Server) clientAddr(r *http.Request) string {
	if s.trustProxy {
		if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
			last := xff[len(xff)-1]
			if i := strings.LastIndexByte(last, ','); i >= 0 {
				last = last[i+1:]
			}
			if ip := net.ParseIP(strings.TrimSpace(last)); ip != nil {
				return ip.String()
			}
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

type adminTokenBody struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

type adminTokenJSON struct {
	Token         string           `json:"token"`
	Expiration    domain.Timestamp `json:"expiration"`
	WorkspaceName string           `json:"workspace_name"`
	Mode          domain.Mode      `json:"mode"`
	UserRole      domain.Role      `json:"user_role"`
}

// adminToken signs a member in: POST /v1/admin/token.
func (s *Server) adminToken(w http.ResponseWriter, r *http.Request) {
	version, err := parseVersion(r.Header.Get("Service-Version"))
	w.Header().Set("Service-Version", version)
	var b adminTokenBody
	if err == nil {
		err = wire.Decode(r, &b)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	sess, token, err := s.members.SignIn(r.Context(), b.Username, b.Password, s.clientAddr(r), s.mode, domain.SessionTTL)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.write(w, r, version, object(resAdminToken, adminTokenJSON{Token: token, Expiration: domain.Timestamp(sess.ExpiresAt),
		WorkspaceName: sess.WorkspaceName, Mode: sess.Mode, UserRole: sess.Role}))
}

type apiKeyJSON struct {
	Mode      domain.Mode       `json:"mode"`
	Key       string            `json:"key"`
	Secret    string            `json:"secret,omitempty"`
	ExpiresAt *domain.Timestamp `json:"expires_at"`
	CreatedAt domain.Timestamp  `json:"created_at"`
	IsActive  bool              `json:"is_active"`
	RevokedAt *domain.Timestamp `json:"revoked_at"`
}

func newAPIKeyJSON(k domain.APIKey, now time.Time) apiKeyJSON {
	j := apiKeyJSON{Mode: k.Mode, Key: k.ID, CreatedAt: domain.Timestamp(k.CreatedAt), IsActive: k.Active(now)}
	if k.ExpiresAt != nil {
		t := domain.Timestamp(*k.ExpiresAt)
		j.ExpiresAt = &t
	}
	if k.RevokedAt != nil {
		t := domain.Timestamp(*k.RevokedAt)
		j.RevokedAt = &t
	}
	return j
}

func (s *Server) adminListKeys(r *http.Request, sess domain.Session) (response, error) {
	q := newQuery(r.URL)
	p := q.page(domain.ListAPIKeys)
	if err := q.err(); err != nil {
		return response{}, err
	}
	pg, err := s.keys.KeysPage(r.Context(), sess.Scope(), p)
	if err != nil {
		return response{}, err
	}
	now := s.keys.Now()
	out := make([]apiKeyJSON, len(pg.Items))
	for i, k := range pg.Items {
		out[i] = newAPIKeyJSON(k, now)
	}
	return page(resAPIKey, out, pg.Next), nil
}

type createKeyBody struct {
	ExpiresAt *string `json:"expires_at"`
}

func (s *Server) adminCreateKey(r *http.Request, sess domain.Session) (response, error) {
	var b createKeyBody
	if r.ContentLength != 0 {
		if err := wire.Decode(r, &b); err != nil {
			return response{}, err
		}
	}
	var expires *time.Time
	if b.ExpiresAt != nil {
		t, err := parseExpiry(*b.ExpiresAt)
		if err != nil {
			return response{}, err
		}
		expires = &t
	}
	created, err := s.keys.CreateKeyAs(r.Context(), sess, expires)
	if err != nil {
		return response{}, err
	}
	j := newAPIKeyJSON(created.Key, s.keys.Now())
	j.Secret = created.Secret
	return object(resAPIKey, j), nil
}

// parseExpiry reads expires_at: RFC 3339, or the vendor's
// "2023-03-23 12:34:56" taken as UTC.
func parseExpiry(v string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00", time.DateTime} {
		if t, err := time.Parse(layout, v); err == nil {
			return t.UTC(), nil
		}
	}
	var p domain.Problems
	p.Invalid("expires_at", "must be a date-time such as 2026-12-31T23:59:59Z, got %q", v)
	return time.Time{}, p.Err()
}

func (s *Server) adminRevokeKey(r *http.Request, sess domain.Session) (response, error) {
	k, err := s.keys.RevokeKeyAs(r.Context(), sess, r.PathValue("api_key"))
	if err != nil {
		return response{}, err
	}
	return object(resAPIKey, newAPIKeyJSON(k, s.keys.Now())), nil
}

type memberJSON struct {
	ID        string           `json:"id"`
	Email     string           `json:"email"`
	Role      domain.Role      `json:"role"`
	CreatedAt domain.Timestamp `json:"created_at"`
}

// adminListMembers lists the workspace's members, in one page: a
// workspace has a team, not thousands.
func (s *Server) adminListMembers(r *http.Request, sess domain.Session) (response, error) {
	ms, err := s.members.Members(r.Context(), sess)
	if err != nil {
		return response{}, err
	}
	out := make([]memberJSON, len(ms))
	for i, m := range ms {
		out[i] = memberJSON{ID: m.ID, Email: m.Email, Role: m.Role, CreatedAt: domain.Timestamp(m.CreatedAt)}
	}
	return page(resMember, out, nil), nil
}

type endedSessionsJSON struct {
	MemberID      string `json:"member_id"`
	Email         string `json:"email"`
	SessionsEnded int    `json:"sessions_ended"`
}

// adminEndSessions ends every session and admin token of a member.
func (s *Server) adminEndSessions(r *http.Request, sess domain.Session) (response, error) {
	ended, err := s.members.EndSessions(r.Context(), sess, r.PathValue("member_id"))
	if err != nil {
		return response{}, err
	}
	return object(resEndedSessions, endedSessionsJSON{MemberID: ended.Member.ID, Email: ended.Member.Email, SessionsEnded: ended.Count}), nil
}

type dashboardSessionJSON struct {
	Email         string           `json:"email"`
	Role          domain.Role      `json:"role"`
	WorkspaceName string           `json:"workspace_name"`
	Mode          domain.Mode      `json:"mode"`
	ExpiresAt     domain.Timestamp `json:"expires_at"`
}

func newDashboardSessionJSON(sess domain.Session) dashboardSessionJSON {
	return dashboardSessionJSON{Email: sess.Email, Role: sess.Role, WorkspaceName: sess.WorkspaceName, Mode: sess.Mode,
		ExpiresAt: domain.Timestamp(sess.ExpiresAt)}
}

type signInBody struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// dashboardSignIn checks the member's e-mail and password and sets the
// session cookie: HttpOnly, SameSite=Strict, Secure when served over
// https, scoped to the server's paths and expiring with the session.
func (s *Server) dashboardSignIn(w http.ResponseWriter, r *http.Request) {
	err := s.sameSite(r)
	var b signInBody
	if err == nil {
		err = wire.Decode(r, &b)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	sess, token, err := s.members.SignIn(r.Context(), b.Email, b.Password, s.clientAddr(r), s.mode, domain.DashboardSessionTTL)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: s.sessionCookieName(r), Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode,
		Secure: s.secureCookie(r), Expires: sess.ExpiresAt})
	wire.Write(w, http.StatusOK, map[string]any{"data": newDashboardSessionJSON(sess)})
}

func (s *Server) dashboardWhoAmI(w http.ResponseWriter, r *http.Request) {
	sess, err := s.sessionOf(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	wire.Write(w, http.StatusOK, map[string]any{"data": newDashboardSessionJSON(sess)})
}

// dashboardSignOut ends the request's session and clears the cookie. The
// session is the Authorization bearer token's when one is sent (an admin
// API token: signing out revokes it), else the cookie's. Only the cookie
// needs the same-site check: a browser attaches it by itself, never a
// bearer token.
func (s *Server) dashboardSignOut(w http.ResponseWriter, r *http.Request) {
	token, err := s.memberToken(r)
	if err == nil && token != "" {
		err = s.members.SignOut(r.Context(), token)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: s.sessionCookieName(r), Value: "", Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode,
		Secure: s.secureCookie(r), MaxAge: -1})
	w.WriteHeader(http.StatusNoContent)
}

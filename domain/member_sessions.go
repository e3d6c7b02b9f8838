package domain

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// Session is a signed-in member: an admin API token or a dashboard
// cookie. Only the SHA-256 of its token is stored. A session acts in the
// mode of the server it was made on.
type Session struct {
	MemberID      string
	CustomerID    string
	WorkspaceName string
	Email         string
	Role          Role
	Mode          Mode
	CreatedAt     time.Time
	ExpiresAt     time.Time
}

// Scope is the tenant the session acts for.
func (s Session) Scope() Scope { return Scope{CustomerID: s.CustomerID, Mode: s.Mode} }

// SessionTTL is how long an admin API token lasts; DashboardSessionTTL how
// long a dashboard sign-in does.
const (
	SessionTTL          = time.Hour
	DashboardSessionTTL = 8 * time.Hour
)

// SignIn checks an e-mail and password and starts a session of ttl in the
// server's mode, returning its token (shown once). Every refusal is the
// same INVALID_CREDENTIALS whichever part was wrong, and takes the same
// bcrypt time. The throttle, counted on every instance alike, refuses
// with RATE_LIMIT_EXCEEDED an address past SignInPairRule's failures for
// the e-mail, SignInAddressRule's for any, or SignInAttemptRule's
// attempts; and tells an address trying an e-mail that failed lately to
// come back when its turn comes (SignInEmailBackoff), at once and with
// the wait, so nothing waits inside the server and failures made
// elsewhere only delay, never refuse, an address with none of its own. The
// session and its audit entry commit together, and a refusal is answered
// only once its audit entries are written: when either cannot be written
// the sign-in fails with that error.
func (s *MemberService) SignIn(ctx context.Context, email, password, clientAddr string, mode Mode, ttl time.Duration) (Session, string, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	var p Problems
	if email == "" {
		p.Missing("username")
	}
	if password == "" {
		p.Missing("password")
	}
	if err := p.Err(); err != nil {
		return Session{}, "", err
	}
	now := s.clock.Now()
	keys := signInKeys(email, clientAddr)
	// An address the throttle refused lately is refused again from this
	// instance's memory, before any store read: a flood of sign-ins from
	// one address costs no more than its answers.
	if err := s.refusals.refused(now, keys.tries, keys.addr, keys.pair); err != nil {
		return Session{}, "", err
	}
	attempt, err := standing(ctx, s.throttle, keys)
	if err != nil {
		return Session{}, "", fmt.Errorf("sign-in throttle: %w", err)
	}
	if err := attempt.refused(&s.refusals, now); err != nil {
		return Session{}, "", err
	}
	if err := attempt.count(ctx, s.throttle, &s.refusals, now); err != nil {
		return Session{}, "", err
	}
	if err := attempt.waitTurn(ctx, s.throttle, now); err != nil {
		return Session{}, "", err
	}
	// From here to the failure's count, one sign-in of the address at a
	// time on this instance, with the throttle read again: otherwise
	// guesses sent in parallel would all pass the check before any was
	// counted, and the five guesses would be as many as the sender likes.
	unlock := s.guessing.lock(attempt.addr)
	defer unlock()
	now = s.clock.Now()
	if attempt, err = standing(ctx, s.throttle, keys); err != nil {
		return Session{}, "", fmt.Errorf("sign-in throttle: %w", err)
	}
	if err := attempt.refused(&s.refusals, now); err != nil {
		return Session{}, "", err
	}
	m, err := s.members.MemberByEmail(ctx, email)
	if errors.Is(err, ErrNoRows) {
		// Only the time it takes matters: an unknown e-mail costs what a
		// wrong password does, so sign-in timing does not tell which.
		_ = bcrypt.CompareHashAndPassword(s.dummy, []byte(password))
		return Session{}, "", s.refuse(ctx, now, attempt, nil, mode)
	}
	if err != nil {
		return Session{}, "", err
	}
	if bcrypt.CompareHashAndPassword(m.PasswordHash, []byte(password)) != nil {
		return Session{}, "", s.refuse(ctx, now, attempt, &m, mode)
	}
	name, err := s.members.CustomerName(ctx, m.CustomerID)
	if err != nil {
		return Session{}, "", err
	}
	token, err := newSessionToken()
	if err != nil {
		return Session{}, "", err
	}
	sess := Session{MemberID: m.ID, CustomerID: m.CustomerID, WorkspaceName: name, Email: m.Email, Role: m.Role, Mode: mode,
		CreatedAt: now, ExpiresAt: now.Add(ttl)}
	hash := sha256.Sum256([]byte(token))
	err = s.customers.keys.InAdminTx(ctx, func(ctx context.Context, tx AdminTx) error {
		if err := tx.Members().CreateSession(ctx, hash[:], sess); err != nil {
			return fmt.Errorf("store session: %w", err)
		}
		return tx.Audit().AppendAudit(ctx, NewAudit(ctx, sess.Scope(), "member:"+m.Email, AuditSignedIn, m.ID, now))
	})
	if err != nil {
		return Session{}, "", err
	}
	return sess, token, nil
}

// newSessionToken makes a member session's bearer token.
func newSessionToken() (string, error) { return RandomHex(32) }

// Authenticate returns the session of a token. Unknown and expired tokens
// are UNAUTHORIZED (401), saying which.
func (s *MemberService) Authenticate(ctx context.Context, token string, mode Mode) (Session, error) {
	if token == "" {
		return Session{}, Errorf(KindUnauthorized, CodeMissingAdminToken, "missing admin token: sign in with POST /v1/admin/token and send Authorization: Bearer <token>")
	}
	hash := sha256.Sum256([]byte(token))
	sess, err := s.members.SessionByHash(ctx, hash[:])
	if errors.Is(err, ErrNoRows) {
		return Session{}, Errorf(KindUnauthorized, CodeInvalidAdminToken, "the admin token is not valid (signed out, or never issued); sign in again")
	}
	if err != nil {
		return Session{}, fmt.Errorf("look up session: %w", err)
	}
	if !s.clock.Now().Before(sess.ExpiresAt) {
		return Session{}, Errorf(KindUnauthorized, CodeExpiredAdminToken, "the admin token expired at %s; sign in again", sess.ExpiresAt.Format(time.RFC3339))
	}
	if sess.Mode != mode {
		return Session{}, Errorf(KindUnauthorized, CodeInvalidAdminToken, "the admin token is for the %s mode; this server serves %s", sess.Mode, mode)
	}
	return sess, nil
}

// SignOut ends the session of a token, whether a dashboard cookie's or
// an admin API token; an unknown token is already out. The session's end
// and its audit entry commit together, or neither does.
func (s *MemberService) SignOut(ctx context.Context, token string) error {
	hash := sha256.Sum256([]byte(token))
	now := s.clock.Now()
	var ended string
	err := s.customers.keys.InAdminTx(ctx, func(ctx context.Context, tx AdminTx) error {
		sess, err := tx.Members().SessionByHash(ctx, hash[:])
		if errors.Is(err, ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := tx.Members().DeleteSession(ctx, hash[:]); err != nil {
			return err
		}
		ended = sess.MemberID
		return tx.Audit().AppendAudit(ctx, NewAudit(ctx, sess.Scope(), "member:"+sess.Email, AuditSignedOut, sess.MemberID, now))
	})
	if err == nil && ended != "" {
		s.customers.SessionsEnded(ended)
	}
	return err
}

// EndedSessions is what EndSessions did: whose sessions ended, and how
// many there were.
type EndedSessions struct {
	Member Member
	Count  int
}

// EndSessions is an administrator ending every session of a member of
// its workspace: dashboard cookies and admin API tokens, in every mode,
// its own included. The member's open GraphQL websockets close at once,
// on every instance. The end and its audit entry commit together.
// Errors: ROLE_FORBIDDEN for any role but administrator, MEMBER_NOT_FOUND
// (also for another workspace's member).
func (s *MemberService) EndSessions(ctx context.Context, sess Session, memberID string) (EndedSessions, error) {
	if !sess.Role.CanManageMembers() {
		return EndedSessions{}, Errorf(KindForbidden, CodeRoleForbidden, "only administrators end members' sessions; your role is %s", sess.Role)
	}
	notFound := Errorf(KindNotFound, CodeMemberNotFound, "no member %s in this workspace", memberID)
	if !ValidID(memberID) {
		return EndedSessions{}, notFound
	}
	now := s.clock.Now()
	var ended EndedSessions
	err := s.customers.keys.InAdminTx(ctx, func(ctx context.Context, tx AdminTx) error {
		m, err := tx.Members().MemberOf(ctx, sess.CustomerID, memberID)
		if errors.Is(err, ErrNoRows) {
			return notFound
		}
		if err != nil {
			return err
		}
		n, err := tx.Members().DeleteMemberSessions(ctx, m.ID)
		if err != nil {
			return err
		}
		ended = EndedSessions{Member: m, Count: n}
		return tx.Audit().AppendAudit(ctx, NewAudit(ctx, sess.Scope(), "member:"+sess.Email, AuditSessionsEnded, m.ID, now))
	})
	if err != nil {
		return EndedSessions{}, err
	}
	s.customers.SessionsEnded(ended.Member.ID)
	return ended, nil
}

type sessionCtxKey struct{}

// WithSession returns ctx carrying a signed-in member's session.
// Transports set it; services read the tenant and role from it.
func WithSession(ctx context.Context, s Session) context.Context {
	return context.WithValue(ctx, sessionCtxKey{}, s)
}

// SessionFrom returns the session of ctx, if a member signed in.
func SessionFrom(ctx context.Context) (Session, bool) {
	s, ok := ctx.Value(sessionCtxKey{}).(Session)
	return s, ok
}

// ScopeFrom is the tenant of ctx: the API key's, or the signed-in
// member's.
func ScopeFrom(ctx context.Context) Scope {
	if k, ok := APIKeyFrom(ctx); ok {
		return k.Scope()
	}
	s, _ := SessionFrom(ctx)
	return s.Scope()
}

// CheckWrite refuses a change by a member whose role only reads. API
// secrets may write.
func CheckWrite(ctx context.Context) error {
	if s, ok := SessionFrom(ctx); ok && !s.Role.CanWrite() {
		if s.Role.CanReview() {
			return Errorf(KindForbidden, CodeRoleForbidden, "your role (%s) can read and review documents, nothing else; ask an administrator for the developer role", s.Role)
		}
		return Errorf(KindForbidden, CodeRoleForbidden, "your role (%s) can only read; ask an administrator for the developer role", s.Role)
	}
	return nil
}

// SessionCredential is the credential of a member's session token.
func (s *MemberService) SessionCredential(sess Session, token string) Credential {
	return Credential{Holder: "member:" + sess.MemberID, ExpiresAt: sess.ExpiresAt, Check: func(ctx context.Context) error {
		_, err := s.Authenticate(ctx, token, sess.Mode)
		return err
	}}
}

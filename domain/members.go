package domain

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// Role is what a workspace member may do. Administrators manage API keys;
// developers and administrators change webhooks and create link tokens;
// viewers only read.
type Role string

const (
	RoleAdministrator Role = "administrator"
	RoleDeveloper     Role = "developer"
	RoleViewer        Role = "viewer"
)

// ParseRole validates a role name.
func ParseRole(s string) (Role, error) {
	switch r := Role(strings.TrimSpace(s)); r {
	case RoleAdministrator, RoleDeveloper, RoleViewer:
		return r, nil
	}
	return "", Errorf(KindInvalid, CodeInvalidFields, "role must be administrator, developer or viewer, not %q", s)
}

// CanWrite reports whether the role may change anything (webhooks, link
// tokens, accounts).
func (r Role) CanWrite() bool { return r == RoleAdministrator || r == RoleDeveloper }

// CanManageKeys reports whether the role may create and revoke API keys.
func (r Role) CanManageKeys() bool { return r == RoleAdministrator }

// CanManageMembers reports whether the role may end other members'
// sessions.
func (r Role) CanManageMembers() bool { return r == RoleAdministrator }

// Member is a person of a customer's team who signs in to the dashboard
// or the admin API. Only a bcrypt hash of the password is stored.
type Member struct {
	ID           string
	CustomerID   string
	Email        string
	PasswordHash []byte
	Role         Role
	CreatedAt    time.Time
}

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

// AuditEntry records one change made to a tenant's credentials, webhooks
// or customer record, a sign-in, or a verification report built, rendered
// or downloaded.
type AuditEntry struct {
	ID         string
	CustomerID string
	// Mode is the changed tenant's mode; empty for a change to the
	// customer itself (created, a member added), which spans modes.
	Mode Mode
	// Actor is who made the change: "member:<email>", "key:<id>" or "cli".
	Actor string
	// Address is where the change came from: the caller's IP address, or
	// "local" for the command line.
	Address string
	// Action is what was done: api_key.created, api_key.revoked, ...
	Action string
	// Target is the id of what was changed.
	Target string
	At     time.Time
}

// Audit actions.
const (
	AuditKeyCreated     = "api_key.created"
	AuditKeyRevoked     = "api_key.revoked"
	AuditMemberAdded    = "member.added"
	AuditMemberRemoved  = "member.removed"
	AuditPasswordReset  = "member.password_reset"
	AuditSignedIn       = "member.signed_in"
	AuditSignedOut      = "member.signed_out"
	AuditSessionsEnded  = "member.sessions_ended"
	AuditSignInRefused  = "member.sign_in_refused"
	AuditSignInThrottle = "member.sign_in_throttled"
	AuditSignInSlowed   = "member.sign_in_slowed"
	AuditCustomerAdded  = "customer.created"
	AuditWebhookCreated = "webhook.created"
	AuditWebhookUpdated = "webhook.updated"
	AuditWebhookDeleted = "webhook.deleted"
	// A verification report built and stored (a new version), rendered
	// without storing (payline reports render), or a document downloaded
	// through its signed link (actor "link").
	AuditReportBuilt      = "report.built"
	AuditReportRendered   = "report.rendered"
	AuditDocumentDownload = "document.downloaded"
)

// NewAudit is an audit entry, from ctx's caller's address.
func NewAudit(ctx context.Context, sc Scope, actor, action, target string, at time.Time) AuditEntry {
	return AuditEntry{ID: NewID(), CustomerID: sc.CustomerID, Mode: sc.Mode, Actor: actor, Address: ClientAddress(ctx),
		Action: action, Target: target, At: at}
}

// MemberStore holds members and their sessions.
type MemberStore interface {
	// CreateMember returns ErrDuplicate when the e-mail is taken.
	CreateMember(ctx context.Context, m Member) error
	// MemberByEmail returns ErrNoRows when no member has the e-mail.
	MemberByEmail(ctx context.Context, email string) (Member, error)
	// MemberOf returns the customer's member by id; ErrNoRows when the
	// customer has no such member (another customer's included).
	MemberOf(ctx context.Context, customerID, id string) (Member, error)
	// MembersOf lists the customer's members by e-mail.
	MembersOf(ctx context.Context, customerID string) ([]Member, error)
	CreateSession(ctx context.Context, tokenHash []byte, s Session) error
	// SessionByHash returns ErrNoRows when no session has the hash.
	SessionByHash(ctx context.Context, tokenHash []byte) (Session, error)
	DeleteSession(ctx context.Context, tokenHash []byte) error
	// DeleteMemberSessions ends every session of a member, in every mode,
	// and says how many there were.
	DeleteMemberSessions(ctx context.Context, memberID string) (int, error)
	// DeleteMember removes the customer's member; ErrNoRows if none.
	DeleteMember(ctx context.Context, customerID, id string) error
	// SetMemberPassword replaces the member's password hash; ErrNoRows if
	// the customer has no such member.
	SetMemberPassword(ctx context.Context, customerID, id string, hash []byte) error
	// CustomerName names a customer (the workspace); ErrNoRows if unknown.
	CustomerName(ctx context.Context, customerID string) (string, error)
}

// AuditStore appends to and reads the audit log.
type AuditStore interface {
	AppendAudit(ctx context.Context, e AuditEntry) error
	// AuditLog lists the scope's entries, newest first.
	AuditLog(ctx context.Context, s Scope, limit int) ([]AuditEntry, error)
}

// AdminTx is one transaction over the credential stores.
type AdminTx interface {
	CustomerStore() CustomerStore
	Members() MemberStore
	Keys() APIKeyStore
	Audit() AuditStore
}

// SessionTTL is how long an admin API token lasts; DashboardSessionTTL how
// long a dashboard sign-in does.
const (
	SessionTTL          = time.Hour
	DashboardSessionTTL = 8 * time.Hour
)

// MemberService adds members and signs them in and out.
type MemberService struct {
	customers *KeyService
	members   MemberStore
	audit     AuditStore
	throttle  SignInThrottle
	clock     Clock
	// Cost is bcrypt's work factor for new passwords.
	cost int

	// dummy is a hash compared against when the e-mail is unknown, so an
	// unknown member costs the same time as a wrong password.
	dummy []byte
	// slow waits out an e-mail's sign-in delay (sleep, unless a test
	// counts the waits instead).
	slow func(ctx context.Context, d time.Duration) error
	// guessing serialises one address's sign-ins on this instance, from
	// the throttle's check to its count (see SignIn).
	guessing keyedLocks
}

// NewMemberService wires the member use cases. throttle counts failed
// sign-ins for every instance; cost is bcrypt's work factor
// (bcrypt.DefaultCost when zero).
func NewMemberService(keys *KeyService, members MemberStore, audit AuditStore, throttle SignInThrottle, clock Clock, cost int) *MemberService {
	if cost == 0 {
		cost = bcrypt.DefaultCost
	}
	dummy, _ := bcrypt.GenerateFromPassword([]byte("payline-unknown-member"), cost)
	return &MemberService{customers: keys, members: members, audit: audit, throttle: throttle, clock: clock, cost: cost, dummy: dummy,
		slow: sleep}
}

// AddedMember is a new member, with the password when Payline chose it.
type AddedMember struct {
	Member   Member
	Customer Customer
	// Password is set when none was given: shown once, never stored.
	Password string
}

// AddMember adds a member to the named customer (created if missing).
// An empty password makes one up. Errors: INVALID_FIELDS for a bad e-mail,
// role or a password under 12 characters; CONFLICT for a taken e-mail.
func (s *MemberService) AddMember(ctx context.Context, customerName, email, role, password string) (AddedMember, error) {
	var p Problems
	addr, err := mail.ParseAddress(strings.TrimSpace(email))
	if err != nil || addr.Address != strings.TrimSpace(email) {
		p.Invalid("email", "must be an e-mail address like ana@example.com")
	}
	r, err := ParseRole(role)
	if err != nil {
		p.Invalid("role", "must be administrator, developer or viewer")
	}
	made := ""
	if password == "" {
		made = newPassword()
		password = made
	} else if len([]rune(password)) < 12 {
		p.Invalid("password", "must be at least 12 characters")
	} else if len(password) > 72 {
		p.Invalid("password", "must be at most 72 bytes (bcrypt's limit)")
	}
	if err := p.Err(); err != nil {
		return AddedMember{}, err
	}
	c, err := s.customers.EnsureCustomer(ctx, customerName)
	if err != nil {
		return AddedMember{}, err
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), s.cost)
	if err != nil {
		return AddedMember{}, fmt.Errorf("hash password: %w", err)
	}
	m := Member{ID: NewID(), CustomerID: c.ID, Email: strings.ToLower(addr.Address), PasswordHash: hash, Role: r, CreatedAt: s.clock.Now()}
	err = s.customers.keys.InAdminTx(ctx, func(ctx context.Context, tx AdminTx) error {
		if err := tx.Members().CreateMember(ctx, m); err != nil {
			return err
		}
		return tx.Audit().AppendAudit(ctx, NewAudit(ctx, Scope{CustomerID: c.ID}, ActorOf(ctx), AuditMemberAdded, m.ID, m.CreatedAt))
	})
	if err != nil {
		if errors.Is(err, ErrDuplicate) {
			return AddedMember{}, Errorf(KindConflict, CodeConflict, "a member with e-mail %s already exists", m.Email)
		}
		return AddedMember{}, err
	}
	return AddedMember{Member: m, Customer: c, Password: made}, nil
}

func newPassword() string {
	b := make([]byte, 15)
	// crypto/rand.Read never returns an error (since Go 1.24 it crashes the
	// program instead), so there is nothing to handle.
	_, _ = rand.Read(b)
	return strings.ToLower(hex.EncodeToString(b))
}

// SignIn checks an e-mail and password and starts a session of ttl in the
// server's mode, returning its token (shown once). Every refusal is the
// same INVALID_CREDENTIALS whichever part was wrong, and takes the same
// bcrypt time. The throttle, counted on every instance alike, refuses
// with RATE_LIMIT_EXCEEDED an address past SignInPairRule's failures for
// the e-mail or SignInAddressRule's for any, and makes an attempt for an
// e-mail that failed lately wait SignInEmailBackoff's delay first, from
// whichever address: it refuses no one for failures made elsewhere. The
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
	attempt, err := standing(ctx, s.throttle, email, clientAddr)
	if err != nil {
		return Session{}, "", fmt.Errorf("sign-in throttle: %w", err)
	}
	if wait := attempt.refusedFor(now); wait > 0 {
		return Session{}, "", &Error{Kind: KindRateLimited, Code: CodeRateLimitExceeded, RetryAfter: wait,
			Message: fmt.Sprintf("too many failed sign-ins from this address; try again in %s", wait.Round(time.Second))}
	}
	if err := s.slow(ctx, attempt.delay(now)); err != nil {
		return Session{}, "", err
	}
	// From here to the failure's count, one sign-in of the address at a
	// time on this instance, with the throttle read again: otherwise
	// guesses sent in parallel would all pass the check before any was
	// counted, and the five guesses would be as many as the sender likes.
	unlock := s.guessing.lock(attempt.addr)
	defer unlock()
	now = s.clock.Now()
	if attempt, err = standing(ctx, s.throttle, email, clientAddr); err != nil {
		return Session{}, "", fmt.Errorf("sign-in throttle: %w", err)
	}
	if wait := attempt.refusedFor(now); wait > 0 {
		return Session{}, "", &Error{Kind: KindRateLimited, Code: CodeRateLimitExceeded, RetryAfter: wait,
			Message: fmt.Sprintf("too many failed sign-ins from this address; try again in %s", wait.Round(time.Second))}
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
	token := newToken()
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

func newToken() string {
	b := make([]byte, 32)
	// crypto/rand.Read never returns an error (since Go 1.24 it crashes the
	// program instead), so there is nothing to handle.
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

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

// Members lists the members of the session's workspace by e-mail; every
// role may (their password hashes never leave the domain).
func (s *MemberService) Members(ctx context.Context, sess Session) ([]Member, error) {
	return s.members.MembersOf(ctx, sess.CustomerID)
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

// AuditLog lists the session's tenant's audit entries, newest first.
func (s *MemberService) AuditLog(ctx context.Context, sess Session, limit int) ([]AuditEntry, error) {
	return s.audit.AuditLog(ctx, sess.Scope(), limit)
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

// memberByEmail finds a customer's member by the customer's name and the
// member's e-mail, for the command line. Errors: 404 CUSTOMER_NOT_FOUND
// (as INVALID_FIELDS naming the customer), MEMBER_NOT_FOUND.
func (s *MemberService) memberByEmail(ctx context.Context, customerName, email string) (Customer, Member, error) {
	c, err := s.customers.customers.CustomerByName(ctx, strings.TrimSpace(customerName))
	if errors.Is(err, ErrNoRows) {
		return Customer{}, Member{}, Errorf(KindInvalid, CodeInvalidFields, "customer: no customer named %q", customerName)
	}
	if err != nil {
		return Customer{}, Member{}, err
	}
	m, err := s.members.MemberByEmail(ctx, strings.ToLower(strings.TrimSpace(email)))
	if errors.Is(err, ErrNoRows) || (err == nil && m.CustomerID != c.ID) {
		return Customer{}, Member{}, Errorf(KindNotFound, CodeMemberNotFound, "%s has no member with e-mail %s", c.Name, email)
	}
	return c, m, err
}

// ListMembers lists a customer's members by e-mail, for the command line.
func (s *MemberService) ListMembers(ctx context.Context, customerName string) (Customer, []Member, error) {
	c, err := s.customers.customers.CustomerByName(ctx, strings.TrimSpace(customerName))
	if errors.Is(err, ErrNoRows) {
		return Customer{}, nil, Errorf(KindInvalid, CodeInvalidFields, "customer: no customer named %q", customerName)
	}
	if err != nil {
		return Customer{}, nil, err
	}
	ms, err := s.members.MembersOf(ctx, c.ID)
	return c, ms, err
}

// RemoveMember removes a member, ending their sessions and tokens, with
// its audit entry, in one transaction; their websockets close at once.
// Errors: MEMBER_NOT_FOUND.
func (s *MemberService) RemoveMember(ctx context.Context, customerName, email string) error {
	c, m, err := s.memberByEmail(ctx, customerName, email)
	if err != nil {
		return err
	}
	err = s.customers.keys.InAdminTx(ctx, func(ctx context.Context, tx AdminTx) error {
		if _, err := tx.Members().DeleteMemberSessions(ctx, m.ID); err != nil {
			return err
		}
		if err := tx.Members().DeleteMember(ctx, c.ID, m.ID); err != nil {
			return err
		}
		return tx.Audit().AppendAudit(ctx, NewAudit(ctx, Scope{CustomerID: c.ID}, ActorOf(ctx), AuditMemberRemoved, m.ID, s.clock.Now()))
	})
	if err == nil {
		s.customers.SessionsEnded(m.ID)
	}
	return err
}

// ResetPassword gives a member a new password (a one-time one Payline
// makes when password is empty, returned once) and ends their sessions
// and tokens, with its audit entry, in one transaction; their websockets
// close at once. Errors:
// MEMBER_NOT_FOUND, INVALID_FIELDS for a password too short or long.
func (s *MemberService) ResetPassword(ctx context.Context, customerName, email, password string) (string, error) {
	made := ""
	switch {
	case password == "":
		made = newPassword()
		password = made
	case len([]rune(password)) < 12:
		return "", Errorf(KindInvalid, CodeInvalidFields, "password: must be at least 12 characters")
	case len(password) > 72:
		return "", Errorf(KindInvalid, CodeInvalidFields, "password: must be at most 72 bytes (bcrypt's limit)")
	}
	c, m, err := s.memberByEmail(ctx, customerName, email)
	if err != nil {
		return "", err
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), s.cost)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	err = s.customers.keys.InAdminTx(ctx, func(ctx context.Context, tx AdminTx) error {
		if err := tx.Members().SetMemberPassword(ctx, c.ID, m.ID, hash); err != nil {
			return err
		}
		if _, err := tx.Members().DeleteMemberSessions(ctx, m.ID); err != nil {
			return err
		}
		return tx.Audit().AppendAudit(ctx, NewAudit(ctx, Scope{CustomerID: c.ID}, ActorOf(ctx), AuditPasswordReset, m.ID, s.clock.Now()))
	})
	if err == nil {
		s.customers.SessionsEnded(m.ID)
	}
	return made, err
}

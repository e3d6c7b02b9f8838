package domain

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// Role is what a workspace member may do. Administrators manage API keys;
// developers and administrators change webhooks and create link tokens;
// administrators and reviewers review uploaded documents; viewers only
// read.
type Role string

const (
	RoleAdministrator Role = "administrator"
	RoleDeveloper     Role = "developer"
	// RoleReviewer reads what viewers read and reviews the documents the
	// checks left in doubt (document_reviews.go), and changes nothing
	// else.
	RoleReviewer Role = "reviewer"
	RoleViewer   Role = "viewer"
)

// Roles lists every role, most powerful first, as messages and the
// command line name them.
var Roles = []Role{RoleAdministrator, RoleDeveloper, RoleReviewer, RoleViewer}

// rolesInWords is "administrator, developer, reviewer or viewer".
func rolesInWords() string {
	names := make([]string, len(Roles))
	for i, r := range Roles {
		names[i] = string(r)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// ParseRole validates a role name.
func ParseRole(s string) (Role, error) {
	switch r := Role(strings.TrimSpace(s)); r {
	case RoleAdministrator, RoleDeveloper, RoleReviewer, RoleViewer:
		return r, nil
	}
	return "", Errorf(KindInvalid, CodeInvalidFields, "role must be %s, not %q", rolesInWords(), s)
}

// CanWrite reports whether the role may change anything (webhooks, link
// tokens, accounts) other than a document's review.
func (r Role) CanWrite() bool { return r == RoleAdministrator || r == RoleDeveloper }

// CanReview reports whether the role may review uploaded documents:
// accept them, with corrections, or reject them.
func (r Role) CanReview() bool { return r == RoleAdministrator || r == RoleReviewer }

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

// AdminTx is one transaction over the credential stores.
type AdminTx interface {
	CustomerStore() CustomerStore
	Members() MemberStore
	Keys() APIKeyStore
	Audit() AuditStore
}

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
	// guessing serialises one address's sign-ins on this instance, from
	// the throttle's check to its count (see SignIn).
	guessing keyedLocks
	// refusals remembers the throttle's refusals of addresses on this
	// instance, so their next sign-ins are refused before any store read.
	refusals signInRefusals
}

// NewMemberService wires the member use cases. throttle counts failed
// sign-ins for every instance; cost is bcrypt's work factor
// (bcrypt.DefaultCost when zero).
func NewMemberService(keys *KeyService, members MemberStore, audit AuditStore, throttle SignInThrottle, clock Clock, cost int) *MemberService {
	if cost == 0 {
		cost = bcrypt.DefaultCost
	}
	dummy, _ := bcrypt.GenerateFromPassword([]byte("payline-unknown-member"), cost)
	return &MemberService{customers: keys, members: members, audit: audit, throttle: throttle, clock: clock, cost: cost, dummy: dummy}
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
		p.Invalid("role", "must be %s", rolesInWords())
	}
	made := ""
	if password == "" {
		if made, err = newPassword(); err != nil {
			return AddedMember{}, err
		}
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

// newPassword makes a password for a member who was given none: 15
// random bytes, 30 hex digits.
func newPassword() (string, error) { return RandomHex(15) }

// Members lists the members of the session's workspace by e-mail; every
// role may (their password hashes never leave the domain).
func (s *MemberService) Members(ctx context.Context, sess Session) ([]Member, error) {
	return s.members.MembersOf(ctx, sess.CustomerID)
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
		var err error
		if made, err = newPassword(); err != nil {
			return "", err
		}
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

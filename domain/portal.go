package domain

import (
	"context"
	"time"
)

// The person's own page (issue 50): a person whose pay a customer reads
// through Payline signs in, with a portal link, to a page that shows what
// they shared with that customer, and takes consent back there. A portal
// link's code is random, single-use, expires in PortalLinkTTL and is
// stored only as its hash; it is never an API key or a link token.
// Redeeming it starts a portal session of its own (a cookie whose value
// is stored only as its hash), bound to one end user at one customer and
// mode, which ends after PortalSessionTTL or when the person signs out.

// PortalLinkTTL is how long a portal link may be opened after it was
// made; PortalSessionTTL how long the session it starts lasts.
const (
	PortalLinkTTL    = 15 * time.Minute
	PortalSessionTTL = 30 * time.Minute
	// PortalResendEvery is how often a fresh link may be sent to one
	// person: anyone holding a spent link can ask, so asking again and
	// again must not fill the person's inbox.
	PortalResendEvery = 2 * time.Minute
)

// PortalLinkPath is the path of portal links: /p/<code>.
const PortalLinkPath = "/p/"

// DisconnectedByEndUser is an account's disconnected_by when the person
// took their consent back.
const DisconnectedByEndUser = "end_user"

// EventConsentRevoked is the webhook a customer receives when a person
// takes back consent to an account.
const EventConsentRevoked = "consent.revoked"

// AuditConsentRevoked is the audit entry of a revocation: its target is
// the account, never the person's identifier.
const AuditConsentRevoked = "consent.revoked"

// PortalLink is one link to a person's page.
type PortalLink struct {
	ID         string
	CustomerID string
	Mode       Mode
	EndUserID  string
	CodeHash   []byte
	CreatedAt  time.Time
	Expires    time.Time
	UsedAt     *time.Time
}

// Scope is the link's tenant.
func (l PortalLink) Scope() Scope { return Scope{CustomerID: l.CustomerID, Mode: l.Mode} }

// PortalSession is a person signed in to their page.
type PortalSession struct {
	ID         string
	CustomerID string
	Mode       Mode
	EndUserID  string
	TokenHash  []byte
	CreatedAt  time.Time
	Expires    time.Time
	RevokedAt  *time.Time
}

// Scope is the tenant whose data the session may show.
func (s PortalSession) Scope() Scope { return Scope{CustomerID: s.CustomerID, Mode: s.Mode} }

// ConsentRevocation records consent taken back to one account: whether
// the source was told and how, what was deleted, and what was kept and
// the law's reason for keeping it. It holds no data of the person's.
type ConsentRevocation struct {
	ID         string
	CustomerID string
	Mode       Mode
	EndUserID  string
	AccountID  string
	RevokedAt  time.Time
	SourceTold string
	Deleted    string
	Kept       string
	KeptReason string
}

// AccountDataDeleted counts what a revocation deleted of an account.
type AccountDataDeleted struct {
	Products, Paystubs, Records int
}

// PortalStore keeps portal links, sessions, the address a person gave,
// and revocations.
type PortalStore interface {
	CreatePortalLink(ctx context.Context, l PortalLink) error
	// TakeSendTurn records now as the last time a message of the kind
	// went to the end user, unless one went less than every ago: false
	// then. Two callers in the same instant get one turn.
	TakeSendTurn(ctx context.Context, s Scope, endUserID, kind string, now time.Time, every time.Duration) (bool, error)
	// ClaimPortalLink marks the link with the code hash used at at, only
	// if it is unused and expires after at: two browsers racing for one
	// link, one wins. ErrNoRows when none was claimed.
	ClaimPortalLink(ctx context.Context, codeHash []byte, at time.Time) (PortalLink, error)
	// PortalLinkByCode finds a link, in any tenant, by its code's hash;
	// ErrNoRows if none.
	PortalLinkByCode(ctx context.Context, codeHash []byte) (PortalLink, error)
	CreatePortalSession(ctx context.Context, s PortalSession) error
	// PortalSessionByHash finds a session, in any tenant, by its token's
	// hash; ErrNoRows if none.
	PortalSessionByHash(ctx context.Context, tokenHash []byte) (PortalSession, error)
	// EndPortalSession sets the session's revoked_at.
	EndPortalSession(ctx context.Context, tokenHash []byte, at time.Time) error
	// PutPortalAddress keeps (sealed) the e-mail address the end user gave,
	// replacing any.
	PutPortalAddress(ctx context.Context, s Scope, endUserID, email string, at time.Time) error
	// PortalAddress is the address kept for the end user and when it was
	// last given; ErrNoRows if none.
	PortalAddress(ctx context.Context, s Scope, endUserID string) (string, time.Time, error)
	PutConsentRevocation(ctx context.Context, s Scope, r ConsentRevocation) error
	// ConsentRevocations lists the end user's revocations, newest first.
	ConsentRevocations(ctx context.Context, s Scope, endUserID string) ([]ConsentRevocation, error)
	// DeleteAccountData deletes the account's data products, paystubs and
	// list products (tax forms, shifts, documents read from it).
	DeleteAccountData(ctx context.Context, s Scope, accountID string) (AccountDataDeleted, error)
}

package domain

import (
	"context"
	"time"
)

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
	// Detail says more of what was done, never people's data: a document
	// review's outcome and the names of the fields it corrected.
	Detail string
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
	// A member's review of an uploaded document (document_reviews.go):
	// the reviewer (member:<email>), the document (target) and, in the
	// detail, the outcome and the names of the fields corrected; their
	// values stay in the document, sealed as people's data is.
	AuditDocumentReviewed = "document.reviewed"
)

// NewAudit is an audit entry, from ctx's caller's address.
func NewAudit(ctx context.Context, sc Scope, actor, action, target string, at time.Time) AuditEntry {
	return AuditEntry{ID: NewID(), CustomerID: sc.CustomerID, Mode: sc.Mode, Actor: actor, Address: ClientAddress(ctx),
		Action: action, Target: target, At: at}
}

// AuditStore appends to and reads the audit log.
type AuditStore interface {
	AppendAudit(ctx context.Context, e AuditEntry) error
	// AuditLog lists the scope's entries, newest first.
	AuditLog(ctx context.Context, s Scope, limit int) ([]AuditEntry, error)
}

// AuditLog lists the session's tenant's audit entries, newest first.
func (s *MemberService) AuditLog(ctx context.Context, sess Session, limit int) ([]AuditEntry, error) {
	return s.audit.AuditLog(ctx, sess.Scope(), limit)
}

package domain

import (
	"context"
	"time"
)

// Upstream is the port to a payroll API this service relays to (any
// Pinwheel-compatible API: the vendor's own, or another Payline). The
// end user logs in through the upstream's own Link, so credentials never
// pass through here; the upstream's accounts, jobs and data come back
// through its webhooks and its REST API and are stored as this service's
// own. connectors/upstream implements it, and domain.Connector beside
// it (Run, Fetch), which serves JobService as the sandbox connector does.
type Upstream interface {
	// CreateLinkToken creates the upstream's token matching r, for the
	// upstream end user endUser.
	CreateLinkToken(ctx context.Context, r LinkTokenRequest, endUser string) (UpstreamToken, error)
	// Account reads one upstream account; ErrNoRows when it has none.
	Account(ctx context.Context, id string) (UpstreamAccount, error)
	// Accounts pages the upstream's accounts created at or after since,
	// newest first; cursor "" starts, and next "" means the end.
	Accounts(ctx context.Context, since time.Time, cursor string) (accounts []UpstreamAccount, next string, err error)
	// Jobs lists every job of an upstream account.
	Jobs(ctx context.Context, accountID string) ([]UpstreamJob, error)
	// Learned tells the upstream's connector a job's state as a signed
	// delivery carried it, so running the job need not ask again.
	Learned(j UpstreamJob)
	// VerifyWebhook checks a delivery's signature with the upstream's
	// scheme; header reads the delivery's headers.
	VerifyWebhook(header func(name string) string, body []byte, now time.Time) error
	// ParseWebhook reads a verified delivery's body. Errors: 400
	// INVALID_JSON for a body that is not an event; a payload it cannot
	// read names no account (and is answered, not refused).
	ParseWebhook(body []byte) (UpstreamDelivery, error)
	// Act relays an account action ("disconnect", "disable_monitoring")
	// to the upstream, where it takes effect.
	Act(ctx context.Context, accountID, action string) error
	// SetBillNavigatorStatus relays a bill navigator action for the
	// upstream end user.
	SetBillNavigatorStatus(ctx context.Context, endUser, action, reason string) error
	// Platforms reads the upstream's whole platform directory.
	Platforms(ctx context.Context) ([]Platform, error)
	// EmployersPage reads one page of the upstream's employers updated
	// after the given time (every one when it is zero); cursor "" starts,
	// next "" means the end. They may lack an EIN and a platform.
	EmployersPage(ctx context.Context, updatedAfter time.Time, cursor string) (employers []Employer, next string, err error)
	// Employer reads one employer at the upstream, for one the directory
	// has not synced yet; ErrNoRows when it has none.
	Employer(ctx context.Context, id string) (Employer, error)
	// Platform reads one platform at the upstream, for one the directory
	// has not synced yet; ErrNoRows when it has none.
	Platform(ctx context.Context, id string) (Platform, error)
	// Search searches the upstream's directory, for a search while this
	// one is not synced yet.
	Search(ctx context.Context, q SearchQuery) ([]SearchResult, error)
	// EmployerByEIN looks an employer up at the upstream; ErrNoRows when it
	// has none with that EIN.
	EmployerByEIN(ctx context.Context, ein string) (Employer, error)
}

// UpstreamDelivery is what one of the upstream's webhook deliveries says,
// in the domain's terms: its event and id, and the account or job it
// describes (an account.added names the account; a <job>.added names the
// job, its account and the link token it came through).
type UpstreamDelivery struct {
	Event   string
	EventID string
	// AccountID is the account the delivery is about; "" when its
	// payload names none.
	AccountID string
	// LinkTokenID is the upstream link token of the job's account.
	LinkTokenID string
	// Account is the account an account.added carries whole; nil when
	// it lacks a field an account needs.
	Account *UpstreamAccount
	// Job is the job a <job>.added carries whole; nil when it lacks a
	// field a job needs or its params cannot be read.
	Job *UpstreamJob
}

// UpstreamPriority orders the calls that wait for an upstream's request
// budget: an end user waiting first, then ingest (what a delivery needs
// read, then the data products a job run reads), reconciliation and the
// directory sync. The budget serves the most urgent waiter first.
type UpstreamPriority int

// The priorities, most urgent first.
const (
	// PriorityEndUser: a request someone waits on (link tokens, Link,
	// account actions, directory lookups).
	PriorityEndUser UpstreamPriority = iota
	// PriorityIngest: what an upstream delivery needs read, so an
	// account.added reaches the customer soon.
	PriorityIngest
	// PriorityData: a job run reading its outcome and data product.
	PriorityData
	PriorityReconcile
	PriorityDirectory
)

type upstreamPriorityKey struct{}

// WithUpstreamPriority marks the upstream calls made under ctx as p.
func WithUpstreamPriority(ctx context.Context, p UpstreamPriority) context.Context {
	return context.WithValue(ctx, upstreamPriorityKey{}, p)
}

// UpstreamPriorityOf is the priority ctx carries: PriorityEndUser when
// none was set, since unmarked calls come from requests someone waits on.
func UpstreamPriorityOf(ctx context.Context) UpstreamPriority {
	p, _ := ctx.Value(upstreamPriorityKey{}).(UpstreamPriority)
	return p
}

// The account actions an upstream relays.
const (
	ActionDisconnect        = "disconnect"
	ActionDisableMonitoring = "disable_monitoring"
)

// WebhookTolerance is how far a delivery's x-timestamp may be from now
// before its signature is refused as stale (a replay).
const WebhookTolerance = 5 * time.Minute

// UpstreamToken is a link token created at the upstream: its id, the
// value the upstream's Link opens with, and the upstream's Link SDK.
type UpstreamToken struct {
	ID     string
	Token  string
	SDKURL string
	// Source names the upstream that holds it (and later the account its
	// Link connects), among the mode's upstreams.
	Source string
}

// UpstreamLinkLogin is an upstream whose Link takes a login through its
// API (a Payline upstream's POST /link/v1/api/login with its link token),
// so a custom Link UI on a relay logs in as it does on the sandbox. An
// upstream without one (the vendor's Link is its SDK only) does not
// implement it.
type UpstreamLinkLogin interface {
	// LinkLogin logs in with the upstream's link token: the upstream's
	// account and its platform. Errors: *MFARequiredError, and the
	// upstream's refusals (INVALID_CREDENTIALS, ...) as its own codes.
	LinkLogin(ctx context.Context, token string, r LoginRequest) (accountID, platformID string, err error)
}

// UpstreamLink ties one of this service's link tokens to the upstream's.
type UpstreamLink struct {
	LinkTokenID string
	UpstreamToken
}

// UpstreamAccount is an account as the upstream reports it.
type UpstreamAccount struct {
	ID               string
	LinkTokenID      string // the upstream's token
	EndUserID        string // the upstream's (namespaced) end user
	PlatformID       string
	CreatedAt        time.Time
	Connected        bool
	MonitoringStatus MonitoringStatus
}

// UpstreamJob is a job as the upstream reports it.
type UpstreamJob struct {
	ID        string
	AccountID string
	Name      JobType
	CreatedAt time.Time
	Outcome   Outcome
	ErrorCode string
	ErrorType string
	Params    JobParams
}

// Final reports whether the job's outcome will not change again.
func (j UpstreamJob) Final() bool { return j.Outcome == OutcomeSuccess || j.Outcome == OutcomeError }

// UpstreamStore keeps which of this service's link tokens each upstream
// token belongs to, the token value sealed.
type UpstreamStore interface {
	// PutUpstreamLink records the upstream token of a link token.
	PutUpstreamLink(ctx context.Context, s Scope, l UpstreamLink, at time.Time) error
	// UpstreamLink returns a link token's upstream token; ErrNoRows if none.
	UpstreamLink(ctx context.Context, s Scope, linkTokenID string) (UpstreamLink, error)
	// LinkTokenByUpstream finds the link token of an upstream token id, in
	// any tenant (the upstream's events name only its own ids); ErrNoRows
	// if none.
	LinkTokenByUpstream(ctx context.Context, upstreamTokenID string) (LinkToken, error)
	// DirectorySync reads where the directory sync stands (the zero value
	// before the first); PutDirectorySync stores it.
	DirectorySync(ctx context.Context, source string) (DirectorySync, error)
	PutDirectorySync(ctx context.Context, source string, d DirectorySync) error
	// ReconcilePass reads where reconciliation stands (the zero value
	// before the first pass); PutReconcilePass stores it.
	ReconcilePass(ctx context.Context, source string) (ReconcilePass, error)
	PutReconcilePass(ctx context.Context, source string, r ReconcilePass) error
	// UpstreamEventSeen reports whether an upstream event id was handled
	// at or after since; RememberUpstreamEvent records that it was at at
	// (a second time changes nothing) and forgets ids handled before
	// since.
	UpstreamEventSeen(ctx context.Context, eventID string, since time.Time) (bool, error)
	RememberUpstreamEvent(ctx context.Context, eventID string, at, since time.Time) error
}

// UpstreamEndUser is the end user id this service gives the upstream for
// a customer's end user: namespaced by customer, so two customers of one
// relay never share an upstream end user (and their reports and payouts
// never mix), and opaque, so the upstream learns nothing of the tenant.
func UpstreamEndUser(customerID, endUserID string) string {
	return "payline-" + customerID + "-" + endUserID
}

package domain

import (
	"context"
	"time"
)

// MonitoringStatus is the health of an account's connection.
type MonitoringStatus string

// The monitoring statuses of the spec.
const (
	MonitoringActive             MonitoringStatus = "active"
	MonitoringDegraded           MonitoringStatus = "degraded"
	MonitoringUserActionRequired MonitoringStatus = "user_action_required"
	MonitoringCustomerDisabled   MonitoringStatus = "customer_disabled"
	MonitoringUnavailable        MonitoringStatus = "unavailable"
)

// MonitoringStatuses lists them all.
var MonitoringStatuses = []MonitoringStatus{MonitoringActive, MonitoringDegraded, MonitoringUserActionRequired,
	MonitoringCustomerDisabled, MonitoringUnavailable}

// Account is a payroll account a user connected through Link.
type Account struct {
	ID               string
	CustomerID       string
	Mode             Mode
	CreatedAt        time.Time
	LinkTokenID      string
	PlatformID       string
	EmployerID       string
	EndUserID        string
	EmployerName     string // the employer (or platform) name shown on its data
	Connected        bool
	MonitoringStatus MonitoringStatus
	DataUpdatedAt    map[string]time.Time
	DataRefreshedAt  map[string]time.Time
	// Connection is what the connector needs to act for the user again
	// (for the sandbox, the credential scenario); it is sealed at rest.
	Connection string
	// DisconnectedBy says who ended the connection: DisconnectedByEndUser
	// when the person took consent back, "" otherwise.
	DisconnectedBy string
}

// Scope is the account's tenant.
func (a Account) Scope() Scope { return Scope{CustomerID: a.CustomerID, Mode: a.Mode} }

// AccountFilter narrows account lists.
type AccountFilter struct {
	EndUserID        string
	LinkTokenID      string
	PlatformID       string
	Connected        *bool
	MonitoringStatus MonitoringStatus
}

// EndUser is a customer's end user: the distinct end_user_id of its
// accounts. Its id is the customer's own string.
type EndUser struct {
	ID             string
	FirstConnected time.Time
	Accounts       int
}

// ListEndUsers is the cursor list name of end users.
const ListEndUsers = "end_users"

// ListAccounts is the cursor list name of accounts.
const ListAccounts = "accounts"

// AccountStore holds accounts.
type AccountStore interface {
	CreateAccount(ctx context.Context, s Scope, a Account) error
	// Account returns ErrNoRows when the scope has no such account.
	Account(ctx context.Context, s Scope, id string) (Account, error)
	// AccountForUpdate is Account that also locks the row until the
	// transaction ends, for read-modify-write of its data times and status.
	AccountForUpdate(ctx context.Context, s Scope, id string) (Account, error)
	// FindAccounts pages by (created_at, id), newest first.
	FindAccounts(ctx context.Context, s Scope, f AccountFilter, p PageRequest) (Page[Account], error)
	// UpdateAccount writes connected, monitoring status, data times and
	// connection.
	UpdateAccount(ctx context.Context, s Scope, a Account) error
	// MonitoredAccounts lists connected accounts with monitoring active,
	// in every tenant: the monitoring job serves them all.
	MonitoredAccounts(ctx context.Context, limit int, afterID string) ([]Account, error)
	// AccountsByID returns the scope's accounts with the given ids in one
	// query, in no particular order; unknown ids are left out.
	AccountsByID(ctx context.Context, s Scope, ids []string) ([]Account, error)
	// AccountsOfEndUsers pages the accounts of each end user, newest first,
	// in one query: the map holds a page per end user that has accounts.
	AccountsOfEndUsers(ctx context.Context, s Scope, endUserIDs []string, p PageRequest) (map[string]Page[Account], error)
	// FindEndUsers pages the scope's end users by id.
	FindEndUsers(ctx context.Context, s Scope, p PageRequest) (Page[EndUser], error)
	// EndUsersByID returns the scope's end users with the given ids in one
	// query, in no particular order; ids with neither accounts nor
	// documents are left out. An end user is grouped from their accounts;
	// one with none who uploaded documents in Link has no accounts and was
	// first connected at their first upload (both lookups follow it).
	EndUsersByID(ctx context.Context, s Scope, ids []string) ([]EndUser, error)
	// Overview reads the scope's connected accounts, and its jobs
	// completed and delivery attempts made since the time.
	Overview(ctx context.Context, s Scope, since time.Time) (OverviewData, error)
	// PutConsent records the end user's consent to share an account,
	// unless one is recorded for it (the first stands).
	PutConsent(ctx context.Context, s Scope, c Consent) error
	// Consents returns the consents recorded for the scope's accounts
	// among ids, in one query, by account id.
	Consents(ctx context.Context, s Scope, accountIDs []string) (map[string]Consent, error)
}

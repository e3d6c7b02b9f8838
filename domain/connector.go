package domain

import (
	"context"
	"time"
)

// Credentials are what a user types into Link's login screen.
type Credentials struct {
	Username string
	Password string
	MFACode  string
}

// MFARequiredError is returned by a connector when the platform asks for
// a second factor; the user logs in again with Credentials.MFACode.
type MFARequiredError struct{ Prompt string }

func (e *MFARequiredError) Error() string { return "mfa required: " + e.Prompt }

// JobResult is the outcome of one attempt at a job.
type JobResult struct {
	Outcome   Outcome
	ErrorCode string
	ErrorType string
	// RetryAfter is when to try a pending job again.
	RetryAfter time.Duration
	// At is when the outcome came about, where the connector knows it (an
	// upstream's job timestamp); zero means now.
	At time.Time
}

// Connector is the port to payroll platforms. Only the sandbox connector
// ships today; real ones implement the same interface.
type Connector interface {
	// Login checks credentials and returns the connection state to keep on
	// the account. Errors: *MFARequiredError, or *Error with
	// INVALID_CREDENTIALS, INVALID_MFA_CODE, ACCOUNT_LOCKED or
	// PLATFORM_UNAVAILABLE.
	Login(ctx context.Context, p Platform, c Credentials) (connection string, err error)
	// Match returns the platforms among candidates that hold the user the
	// identifiers describe (platform matching).
	Match(ctx context.Context, m PlatformMatching, candidates []Platform) []Platform
	// Run attempts a job for an account. started is the job's first
	// attempt, for connectors whose pending work ends after a delay.
	Run(ctx context.Context, j Job, a Account, started, now time.Time) (JobResult, error)
	// Fetch reads a data product of a connected account.
	Fetch(ctx context.Context, r FetchRequest) (Fetched, error)
}

func (NoConnector) unavailable() error {
	return Errorf(KindInvalid, CodePlatformUnavailable,
		"this server has no payroll source in this mode: start it with --upstream-url to relay to a Pinwheel-compatible API (docs/upstreams.md), or use the sandbox mode")
}

// Login implements Connector.
func (n NoConnector) Login(context.Context, Platform, Credentials) (string, error) {
	return "", n.unavailable()
}

// Match implements Connector: nothing matches.
func (NoConnector) Match(context.Context, PlatformMatching, []Platform) []Platform { return nil }

// Run implements Connector.
func (NoConnector) Run(context.Context, Job, Account, time.Time, time.Time) (JobResult, error) {
	return JobResult{Outcome: OutcomeError, ErrorType: ErrorTypePlatform, ErrorCode: CodePlatformUnavailable}, nil
}

// Fetch implements Connector.
func (n NoConnector) Fetch(context.Context, FetchRequest) (Fetched, error) {
	return Fetched{}, n.unavailable()
}

// NoConnector stands in for a payroll source in development and
// production modes without --upstream-url: it says so instead of
// pretending.
type NoConnector struct{}

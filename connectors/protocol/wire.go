// Package protocol is Payline's open connector protocol: HTTP and JSON
// under /connector/v1/, described by docs/connector-protocol.yaml. A
// connector (in any language) serves it; Client speaks it for Payline
// and implements domain.Connector, so Link, jobs and monitoring use an
// out-of-process connector exactly as they use the compiled-in sandbox;
// Server serves any domain.Connector over it (payline connectors
// serve-sandbox). Requests are signed with a shared secret (HMAC-SHA256
// over the method, path, timestamp and body, refused outside a five
// minute window) and carry their deadline. Every outcome maps onto the
// domain's codes in one place, errorFrom.
package protocol

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"payline/domain"
)

// Version is the protocol version this package speaks; it is the path's
// v1 and capabilities' protocol_version.
const Version = "1"

// Paths of the protocol's operations.
const (
	PathCapabilities = "/connector/v1/capabilities"
	PathLogin        = "/connector/v1/login"
	PathMatch        = "/connector/v1/match"
	PathRun          = "/connector/v1/jobs/run"
	PathFetch        = "/connector/v1/products/fetch"
)

// Headers of a signed request.
const (
	HeaderTimestamp = "X-Connector-Timestamp"
	HeaderSignature = "X-Connector-Signature"
	HeaderDeadline  = "X-Connector-Deadline"
)

// ReplayWindow is how far a request's timestamp may be from the
// receiver's clock.
const ReplayWindow = 5 * time.Minute

// Sign returns the signature header's value for a request:
// v1=hex(HMAC-SHA256(secret, "v1:" timestamp ":" method ":" path ":" body)).
func Sign(secret, method, path string, timestamp int64, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(m, "v1:%d:%s:%s:", timestamp, method, path)
	m.Write(body)
	return "v1=" + hex.EncodeToString(m.Sum(nil))
}

// ErrSignature is a request whose signature is missing, wrong or stale.
var ErrSignature = errors.New("the request's signature is missing, wrong, or outside the replay window")

// Verify checks a request's signature headers against its body.
func Verify(secret string, h http.Header, method, path string, body []byte, now time.Time) error {
	ts, err := strconv.ParseInt(h.Get(HeaderTimestamp), 10, 64)
	if err != nil {
		return ErrSignature
	}
	if d := now.Sub(time.Unix(ts, 0)); d > ReplayWindow || d < -ReplayWindow {
		return ErrSignature
	}
	if !hmac.Equal([]byte(h.Get(HeaderSignature)), []byte(Sign(secret, method, path, ts, body))) {
		return ErrSignature
	}
	return nil
}

// Capabilities is GET /connector/v1/capabilities.
type Capabilities struct {
	ProtocolVersion string               `json:"protocol_version"`
	Name            string               `json:"name"`
	Platforms       []PlatformCapability `json:"platforms"`
	// DisputeNoticeVersions are the dispute notice versions the connector
	// takes (POST /connector/v1/disputes/notify); none: it takes none.
	DisputeNoticeVersions []string `json:"dispute_notice_versions,omitempty"`
}

// PlatformCapability is one platform a connector serves: the jobs it runs
// and the data products it reads there, and for switches the splits it
// takes (none said: a full switch only).
type PlatformCapability struct {
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Type     string   `json:"type"`
	Jobs     []string `json:"jobs"`
	Products []string `json:"products"`
	// Switch splits: amounts in cents, whole percentages.
	AmountSupported           bool   `json:"amount_supported,omitempty"`
	FractionalAmountSupported bool   `json:"fractional_amount_supported,omitempty"`
	MinAmountCents            *int64 `json:"min_amount_cents,omitempty"`
	MaxAmountCents            *int64 `json:"max_amount_cents,omitempty"`
	PercentageSupported       bool   `json:"percentage_supported,omitempty"`
	MinPercentage             int    `json:"min_percentage,omitempty"`
	MaxPercentage             int    `json:"max_percentage,omitempty"`
	// What the platform may do, which the conformance kit tests only when
	// said: ask for a second factor at login, answer a job pending.
	MFASupported     bool `json:"mfa_supported,omitempty"`
	PendingSupported bool `json:"pending_supported,omitempty"`
}

// Limits are the capability's switch limits in the domain's terms.
func (p PlatformCapability) Limits() domain.SwitchLimits {
	return domain.SwitchLimits{AmountSupported: p.AmountSupported, FractionalAmountSupported: p.FractionalAmountSupported,
		MinAmount: p.MinAmountCents, MaxAmount: p.MaxAmountCents, PercentageSupported: p.PercentageSupported,
		MinPercentage: p.MinPercentage, MaxPercentage: p.MaxPercentage}
}

// Platform names a platform in a request.
type Platform struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Type string `json:"type"`
}

func platformOf(p domain.Platform) Platform {
	return Platform{ID: p.ID, Name: p.Name, Type: string(p.Type)}
}

// LoginRequest is POST /connector/v1/login.
type LoginRequest struct {
	Platform    Platform    `json:"platform"`
	Credentials Credentials `json:"credentials"`
}

// Credentials are what the user typed; they travel only over TLS or
// loopback.
type Credentials struct {
	Username string `json:"username"`
	Password string `json:"password"`
	MFACode  string `json:"mfa_code,omitempty"`
}

// LoginResponse is a login's answer: the connection state to keep (sealed
// by Payline) or the platform's second-factor prompt.
type LoginResponse struct {
	Connection  string       `json:"connection,omitempty"`
	MFARequired *MFARequired `json:"mfa_required,omitempty"`
}

// MFARequired asks the user for a second factor.
type MFARequired struct {
	Prompt string `json:"prompt"`
}

// MatchRequest is POST /connector/v1/match.
type MatchRequest struct {
	Matching   Matching   `json:"matching"`
	Candidates []Platform `json:"candidates"`
}

// Matching are the identifiers platform matching looks the user up by.
type Matching struct {
	SocialSecurityNumber   string `json:"social_security_number,omitempty"`
	SocialSecurityLastFour string `json:"social_security_last_four,omitempty"`
	FirstName              string `json:"first_name,omitempty"`
	LastName               string `json:"last_name,omitempty"`
	DateOfBirth            string `json:"date_of_birth,omitempty"`
	MobilePhoneNumber      string `json:"mobile_phone_number,omitempty"`
	HomeAddressZipCode     string `json:"home_address_zip_code,omitempty"`
	Email                  string `json:"email,omitempty"`
}

// MatchResponse lists the candidates that hold the user.
type MatchResponse struct {
	PlatformIDs []string `json:"platform_ids"`
}

// Account is a connected account as a connector sees it.
type Account struct {
	ID           string    `json:"id"`
	CustomerID   string    `json:"customer_id"`
	EndUserID    string    `json:"end_user_id"`
	PlatformID   string    `json:"platform_id"`
	EmployerName string    `json:"employer_name"`
	Connection   string    `json:"connection"`
	CreatedAt    time.Time `json:"created_at"`
}

func accountOf(a domain.Account) Account {
	return Account{ID: a.ID, CustomerID: a.CustomerID, EndUserID: a.EndUserID, PlatformID: a.PlatformID,
		EmployerName: a.EmployerName, Connection: a.Connection, CreatedAt: a.CreatedAt.UTC()}
}

func (a Account) domain() domain.Account {
	return domain.Account{ID: a.ID, CustomerID: a.CustomerID, EndUserID: a.EndUserID, PlatformID: a.PlatformID,
		EmployerName: a.EmployerName, Connection: a.Connection, CreatedAt: a.CreatedAt.UTC()}
}

// Job is a job as a connector sees it: its params in the spec's shape,
// and for a switch where it sent pay.
type Job struct {
	ID        string           `json:"id"`
	Name      string           `json:"name"`
	CreatedAt time.Time        `json:"created_at"`
	Params    domain.JobParams `json:"params"`
	Target    *Target          `json:"target,omitempty"`
}

// Target is the bank account a switch sent pay to, as far as v1 carries
// it: the account's last four digits, never the whole number.
type Target struct {
	Name          string `json:"name,omitempty"`
	Type          string `json:"type"`
	LastFour      string `json:"last_four"`
	RoutingNumber string `json:"routing_number"`
}

func jobOf(j domain.Job) Job {
	out := Job{ID: j.ID, Name: string(j.Name), CreatedAt: j.CreatedAt.UTC(), Params: j.Params}
	if t := j.Target; t != nil {
		out.Target = &Target{Name: t.Name, Type: t.Type, LastFour: t.LastFour, RoutingNumber: t.RoutingNumber}
	}
	return out
}

func (j Job) domain() domain.Job {
	out := domain.Job{ID: j.ID, Name: domain.JobType(j.Name), CreatedAt: j.CreatedAt.UTC(), Params: j.Params}
	if t := j.Target; t != nil {
		out.Target = &domain.SwitchTarget{Name: t.Name, Type: t.Type, LastFour: t.LastFour, RoutingNumber: t.RoutingNumber}
	}
	return out
}

// RunRequest is POST /connector/v1/jobs/run: one attempt at a job, named
// by an idempotency key a retried request repeats.
type RunRequest struct {
	IdempotencyKey string    `json:"idempotency_key"`
	Job            Job       `json:"job"`
	Account        Account   `json:"account"`
	StartedAt      time.Time `json:"started_at"`
	Now            time.Time `json:"now"`
}

// RunResponse is an attempt's outcome: success, error (with the spec's
// error type and code) or pending (try again after retry_after_seconds).
type RunResponse struct {
	Outcome           string     `json:"outcome"`
	ErrorType         string     `json:"error_type,omitempty"`
	ErrorCode         string     `json:"error_code,omitempty"`
	RetryAfterSeconds float64    `json:"retry_after_seconds,omitempty"`
	At                *time.Time `json:"at,omitempty"`
}

// FetchRequest is POST /connector/v1/products/fetch: one page of a data
// product of a connected account.
type FetchRequest struct {
	Product  string    `json:"product"`
	Account  Account   `json:"account"`
	Switches []Job     `json:"switches,omitempty"`
	Since    time.Time `json:"since"`
	Now      time.Time `json:"now"`
	Cursor   string    `json:"cursor,omitempty"`
}

// FetchResponse is one page: data is the product (an object for identity,
// employment and income; a list otherwise), next_cursor null at the end.
type FetchResponse struct {
	Data       json.RawMessage `json:"data"`
	NextCursor *string         `json:"next_cursor"`
}

// bytes is the page as JSON, its data written as it is.
func (p FetchResponse) bytes() []byte {
	out := make([]byte, 0, len(p.Data)+64)
	out = append(out, `{"data":`...)
	out = append(out, p.Data...)
	out = append(out, `,"next_cursor":`...)
	if p.NextCursor == nil {
		out = append(out, "null"...)
	} else {
		next, _ := json.Marshal(*p.NextCursor)
		out = append(out, next...)
	}
	return append(out, "}\n"...)
}

// TaxForm is an item of the tax_forms product.
type TaxForm struct {
	ID         string    `json:"id"`
	DocumentID string    `json:"document_id"`
	FormType   string    `json:"form_type"`
	ParsedData domain.W2 `json:"parsed_data"`
}

// ShiftItem is an item of the shifts product.
type ShiftItem struct {
	ID string `json:"id"`
	domain.Shift
}

// ErrorBody is every refusal: the spec's error shape.
type ErrorBody struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail says what went wrong, in the spec's codes.
type ErrorDetail struct {
	Type    string `json:"type"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

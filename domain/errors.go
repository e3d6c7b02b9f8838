package domain

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// ErrorKind is the broad category of an Error. Each transport maps every
// kind to exactly one status and error type (internal/httperr.Status,
// Kind.Type).
type ErrorKind int

const (
	// KindInternal is an unexpected failure; its text never reaches callers.
	KindInternal ErrorKind = iota
	// KindInvalid is a request the caller must fix (400).
	KindInvalid
	// KindNotFound is a record that does not exist for the caller (404).
	KindNotFound
	// KindUnauthorized is a missing or wrong credential (401).
	KindUnauthorized
	// KindForbidden is a request understood but refused (403).
	KindForbidden
	// KindConflict is a write that collides with an existing record (409).
	KindConflict
	// KindRateLimited is a caller over its request rate (429).
	KindRateLimited
	// KindUnavailable is a request that could not be served because a
	// dependency (the database) is unreachable; retrying later works (503).
	KindUnavailable
	// KindTimeout is a request whose body did not arrive fast enough
	// (408); the connection is closed after the answer.
	KindTimeout
)

// Type is the spec's error type of the kind, the same in every transport:
// REST's error.type, GraphQL's extensions.type. RATE_LIMIT_EXCEEDED is
// Payline's, as the spec names no type for 429 (docs/errors.md).
func (k ErrorKind) Type() string {
	switch k {
	case KindInvalid, KindConflict, KindTimeout:
		return "INVALID_REQUEST_PARAMETERS"
	case KindNotFound:
		return "RECORD_NOT_FOUND"
	case KindUnauthorized, KindForbidden:
		return "UNAUTHORIZED_REQUEST"
	case KindRateLimited:
		return "RATE_LIMIT_EXCEEDED"
	case KindUnavailable:
		return "SERVICE_UNAVAILABLE"
	}
	return "UNKNOWN_ERROR"
}

// Error is the single error type of the domain. Kind picks the transport
// status, Code the specific machine-readable reason, Message the text a
// caller reads to fix the request.
type Error struct {
	Kind    ErrorKind
	Code    string
	Message string
	// Fields names the request fields a validation error is about, for
	// transports that report them separately (GraphQL's extensions).
	Fields []string
	// Problems are the validation error's problems one field at a time
	// (a missing field's Problem is ProblemRequired), for transports that
	// report each on its own (GraphQL's userErrors); Message joins them.
	Problems []FieldProblem
	// RetryAfter, when set on a refusal, is how long to wait before trying
	// again (REST's Retry-After header).
	RetryAfter time.Duration
	// Err is an underlying cause, kept for logs and errors.Is; it is never
	// shown to callers.
	Err error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return e.Code + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an Error of the given kind and code.
func Errorf(kind ErrorKind, code, format string, args ...any) *Error {
	return &Error{Kind: kind, Code: code, Message: fmt.Sprintf(format, args...)}
}

// AsError returns err as an *Error. Anything that is not one becomes an
// internal error whose cause is kept for logging only.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if Unreachable(err) {
		return &Error{Kind: KindUnavailable, Code: CodeServiceUnavailable, RetryAfter: 2 * time.Second,
			Message: "the service cannot reach its database at the moment; retry in a few seconds", Err: err}
	}
	return &Error{Kind: KindInternal, Code: CodeUnknown, Message: "an unknown error occurred; retry later", Err: err}
}

// IsKind reports whether err is an *Error of the given kind.
func IsKind(err error, kind ErrorKind) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == kind
}

// ErrUnavailable marks a failure to reach the database (connection
// refused or cut, server shutting down or starting up). Storage alone
// decides which driver errors mean that and wraps them with it; AsError
// turns them into KindUnavailable. Any other network error (a webhook
// receiver, an upstream) is not the database's and never reads as it.
var ErrUnavailable = errors.New("database unavailable")

// Unreachable reports whether err means the database could not be
// reached, as storage marked it.
func Unreachable(err error) bool {
	return errors.Is(err, ErrUnavailable)
}

// UpstreamUnavailable is the error of a call out to a service that could
// not be reached or did not answer in time: 503 UPSTREAM_UNAVAILABLE
// naming it, with a retry hint, and the cause kept for logs.
func UpstreamUnavailable(what string, retryAfter time.Duration, err error) *Error {
	return &Error{Kind: KindUnavailable, Code: CodeUpstreamUnavailable, RetryAfter: retryAfter, Err: err,
		Message: fmt.Sprintf("%s cannot be reached at the moment; retry in a few seconds", what)}
}

// ErrNoRows is returned by stores when a lookup finds nothing; services
// turn it into a KindNotFound error naming what was looked for.
var ErrNoRows = errors.New("no rows")

// ErrDuplicate is returned by stores when a unique constraint rejects a write.
var ErrDuplicate = errors.New("duplicate")

// FieldProblem is one bad input field and what is wrong with it. For a
// data product, Item is the index of the bad item in a list product (-1
// for an object product), Field its JSON path in the spec's words
// ("earnings[0].amount") and Got the bad value's text ("" when missing;
// never a person's data: see Validate).
type FieldProblem struct {
	Field   string
	Problem string
	Item    int
	Got     string
}

// ProblemRequired is the Problem of a missing field in Error.Problems.
const ProblemRequired = "is required"

// Problems collects field problems while a request is validated, so that
// one response names every bad field instead of the first one only.
type Problems struct {
	missing []string
	invalid []FieldProblem
}

// Missing records a required field that was not given.
func (p *Problems) Missing(field string) { p.missing = append(p.missing, field) }

// Invalid records a field whose value is not acceptable.
func (p *Problems) Invalid(field, format string, args ...any) {
	p.invalid = append(p.invalid, FieldProblem{Field: field, Problem: fmt.Sprintf(format, args...)})
}

// Err returns nil when nothing was recorded. Missing fields take precedence
// (code MISSING_FIELDS); otherwise the code is INVALID_FIELDS. The message
// names every field either way.
func (p *Problems) Err() error {
	if len(p.missing) == 0 && len(p.invalid) == 0 {
		return nil
	}
	var parts []string
	if len(p.missing) > 0 {
		parts = append(parts, "missing required fields: "+strings.Join(p.missing, ", "))
	}
	for _, f := range p.invalid {
		parts = append(parts, f.Field+": "+f.Problem)
	}
	code := CodeInvalidFields
	if len(p.missing) > 0 {
		code = CodeMissingFields
	}
	fields := slices.Clone(p.missing)
	problems := make([]FieldProblem, 0, len(p.missing)+len(p.invalid))
	for _, f := range p.missing {
		problems = append(problems, FieldProblem{Field: f, Problem: ProblemRequired})
	}
	for _, f := range p.invalid {
		if !slices.Contains(fields, f.Field) {
			fields = append(fields, f.Field)
		}
	}
	problems = append(problems, p.invalid...)
	return &Error{Kind: KindInvalid, Code: code, Message: strings.Join(parts, "; "), Fields: fields, Problems: problems}
}

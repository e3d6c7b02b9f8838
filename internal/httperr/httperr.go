// Package httperr is what every HTTP transport (the REST API, Link's API,
// the dashboard's, GraphQL) says the same way about a failed request: the
// status of a domain error kind, the Retry-After of its hint, and the log
// line of a failure the caller cannot fix. It sits below rest and graph so
// both can use it without graph importing rest.
package httperr

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"payline/domain"
)

// Status is the one table from domain error kinds to HTTP statuses.
func Status(k domain.ErrorKind) int {
	switch k {
	case domain.KindInvalid, domain.KindConflict:
		// The spec's status table has no 409: a conflicting write is a
		// request the caller must change.
		return http.StatusBadRequest
	case domain.KindNotFound:
		return http.StatusNotFound
	case domain.KindUnauthorized:
		return http.StatusUnauthorized
	case domain.KindForbidden:
		return http.StatusForbidden
	case domain.KindRateLimited:
		return http.StatusTooManyRequests
	case domain.KindUnavailable:
		return http.StatusServiceUnavailable
	case domain.KindTimeout:
		return http.StatusRequestTimeout
	}
	return http.StatusInternalServerError
}

// Failed logs a failure the caller cannot fix, in one shape for every
// transport (GraphQL's too): "request failed" at ERROR for an internal
// error, at WARN for one of KindUnavailable (the database or an upstream
// is away, which operators watch for but which heals), with the request
// id, the code and the cause. Errors the caller can fix are not logged.
func Failed(ctx context.Context, log *slog.Logger, e *domain.Error, cause error, attrs ...slog.Attr) {
	level := slog.LevelError
	switch e.Kind {
	case domain.KindInternal:
	case domain.KindUnavailable:
		level = slog.LevelWarn
	default:
		return
	}
	attrs = append([]slog.Attr{slog.String("request_id", domain.RequestID(ctx)), slog.String("code", e.Code)}, attrs...)
	attrs = append(attrs, slog.Any("error", cause))
	log.LogAttrs(ctx, level, "request failed", attrs...)
}

// RetryAfter is a Retry-After value: whole seconds, rounded up.
func RetryAfter(wait time.Duration) string {
	return strconv.Itoa(int(domain.RoundUpSecond(wait) / time.Second))
}

// StatusClientClosedRequest is the status of a request whose client left
// before its answer (nginx's 499): no client reads it, but logs and
// metrics count it apart from the server's failures.
const StatusClientClosedRequest = 499

// Abandoned reports whether err ended the request because its client
// left: the request's context was cancelled and err is that cancellation
// (a read stopped, a program killed, a wait in a queue given up).
func Abandoned(r *http.Request, err error) bool {
	return r.Context().Err() != nil && errors.Is(err, context.Canceled)
}

// Left logs a request its client left, at INFO: nothing failed that an
// operator should look at.
func Left(ctx context.Context, log *slog.Logger, attrs ...slog.Attr) {
	attrs = append([]slog.Attr{slog.String("request_id", domain.RequestID(ctx)), slog.Int("status", StatusClientClosedRequest)}, attrs...)
	log.LogAttrs(ctx, slog.LevelInfo, "client left before the answer", attrs...)
}

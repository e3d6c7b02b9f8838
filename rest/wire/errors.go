package wire

import (
	"context"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"time"

	"payline/domain"
)

// WriteError is the one error writer of the HTTP transports (the REST
// API, Link's API, the dashboard's): the status from Status, the error's
// own retry hint as Retry-After (unless the handler set one), the body
// shape builds (each API has its own), and Failed's log line.
func WriteError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error, shape func(e *domain.Error, status int) any) {
	e := domain.AsError(err)
	status := Status(e.Kind)
	Failed(r.Context(), log, e, err, slog.String("method", r.Method), slog.String("path", r.URL.Path))
	if e.RetryAfter > 0 && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", RetryAfter(e.RetryAfter))
	}
	Write(w, status, shape(e, status))
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
	return strconv.Itoa(int(math.Ceil(wait.Seconds())))
}

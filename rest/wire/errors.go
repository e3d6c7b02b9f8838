package wire

import (
	"log/slog"
	"net/http"

	"payline/domain"
	"payline/internal/httperr"
)

// WriteError is the one error writer of the HTTP transports (the REST
// API, Link's API, the dashboard's): the status from httperr.Status, the
// error's own retry hint as Retry-After (unless the handler set one), the
// body shape builds (each API has its own), and httperr.Failed's log line.
// A request its client left (httperr.Abandoned) is no failure: it is
// logged at INFO and answered 499, which nobody reads but metrics count.
func WriteError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error, shape func(e *domain.Error, status int) any) {
	if httperr.Abandoned(r, err) {
		httperr.Left(r.Context(), log, slog.String("method", r.Method), slog.String("path", r.URL.Path))
		e := &domain.Error{Code: domain.CodeClientClosedRequest, Message: "the client left before the answer"}
		Write(w, httperr.StatusClientClosedRequest, shape(e, httperr.StatusClientClosedRequest))
		return
	}
	e := domain.AsError(err)
	status := httperr.Status(e.Kind)
	httperr.Failed(r.Context(), log, e, err, slog.String("method", r.Method), slog.String("path", r.URL.Path))
	if e.RetryAfter > 0 && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", httperr.RetryAfter(e.RetryAfter))
	}
	Write(w, status, shape(e, status))
}

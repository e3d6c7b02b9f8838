package rest

import (
	"log/slog"
	"net/http"

	"payline/domain"
	"payline/rest/wire"
)

type errorBody struct {
	Error errorJSON `json:"error"`
}

type errorJSON struct {
	Type       string `json:"type"`
	Code       string `json:"code"`
	Message    string `json:"message"`
	StatusCode int    `json:"status_code"`
}

// writeError sends any error as the spec's error body. Errors that are not
// domain errors are logged with the request id and reach the caller only as
// UNKNOWN_ERROR.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	e := domain.AsError(err)
	status := wire.Status(e.Kind)
	switch e.Kind {
	case domain.KindInternal:
		s.log.ErrorContext(r.Context(), "request failed", slog.String("request_id", domain.RequestID(r.Context())),
			slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.Any("error", err))
	case domain.KindUnavailable:
		s.log.WarnContext(r.Context(), "database unreachable", slog.String("request_id", domain.RequestID(r.Context())),
			slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.Any("error", err))
	}
	if e.RetryAfter > 0 && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", retryAfterSeconds(e.RetryAfter))
	}
	wire.Write(w, status, errorBody{Error: errorJSON{Type: e.Kind.Type(), Code: e.Code, Message: e.Message, StatusCode: status}})
}

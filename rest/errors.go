package rest

import (
	"log/slog"
	"net/http"

	"payline/domain"
)

// Error types of the spec, plus the two it leaves open (docs/errors.md).
const (
	typeNotFound     = "RECORD_NOT_FOUND"
	typeInvalid      = "INVALID_REQUEST_PARAMETERS"
	typeUnauthorized = "UNAUTHORIZED_REQUEST"
	typeUnknown      = "UNKNOWN_ERROR"
	typeRateLimited  = "RATE_LIMIT_EXCEEDED"
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

// statusOf is the one table from domain error kinds to HTTP.
func statusOf(k domain.ErrorKind) (int, string) {
	switch k {
	case domain.KindInvalid:
		return http.StatusBadRequest, typeInvalid
	case domain.KindConflict:
		// The spec's status table has no 409: a conflicting write is a
		// request the caller must change.
		return http.StatusBadRequest, typeInvalid
	case domain.KindNotFound:
		return http.StatusNotFound, typeNotFound
	case domain.KindUnauthorized:
		return http.StatusUnauthorized, typeUnauthorized
	case domain.KindForbidden:
		return http.StatusForbidden, typeUnauthorized
	case domain.KindRateLimited:
		return http.StatusTooManyRequests, typeRateLimited
	}
	return http.StatusInternalServerError, typeUnknown
}

// writeError sends any error as the spec's error body. Errors that are not
// domain errors are logged with the request id and reach the caller only as
// UNKNOWN_ERROR.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	e := domain.AsError(err)
	status, typ := statusOf(e.Kind)
	if e.Kind == domain.KindInternal {
		s.log.ErrorContext(r.Context(), "request failed", slog.String("request_id", requestID(r.Context())),
			slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.Any("error", err))
	}
	writeJSON(w, status, errorBody{Error: errorJSON{Type: typ, Code: e.Code, Message: e.Message, StatusCode: status}})
}

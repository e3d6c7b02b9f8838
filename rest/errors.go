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
	if e.Kind == domain.KindInternal {
		s.log.ErrorContext(r.Context(), "request failed", slog.String("request_id", domain.RequestID(r.Context())),
			slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.Any("error", err))
	}
	wire.Write(w, status, errorBody{Error: errorJSON{Type: e.Kind.Type(), Code: e.Code, Message: e.Message, StatusCode: status}})
}

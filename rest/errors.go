package rest

import (
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

// writeError sends any error as the spec's error body, through the one
// writer every HTTP transport shares.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	wire.WriteError(w, r, s.log, err, func(e *domain.Error, status int) any {
		return errorBody{Error: errorJSON{Type: e.Kind.Type(), Code: e.Code, Message: e.Message, StatusCode: status}}
	})
}

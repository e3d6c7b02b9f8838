package rest

import (
	"errors"
	"io"
	"net/http"

	"payline/domain"
	"payline/rest/wire"
)

// maxUpstreamDelivery bounds an upstream delivery's body.
const maxUpstreamDelivery = 1 << 20

// upstreamWebhook receives an upstream's delivery: POST
// /v1/upstream/webhooks. A bad or stale signature is 401 and changes
// nothing; an accepted delivery is ingested before the 200, so an
// upstream that sees an error (503 while the upstream itself cannot be
// read back) delivers again.
func (s *Server) upstreamWebhook(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxUpstreamDelivery))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		s.writeError(w, r, domain.Errorf(domain.KindInvalid, domain.CodeRequestTooLarge, "a delivery is at most %d bytes", maxUpstreamDelivery))
		return
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.relays.HandleWebhook(r.Context(), r.Header.Get, body); err != nil {
		s.writeError(w, r, err)
		return
	}
	wire.Write(w, http.StatusOK, map[string]bool{"received": true})
}

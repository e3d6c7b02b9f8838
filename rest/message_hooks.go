package rest

import (
	"errors"
	"io"
	"net/http"
	"strings"

	"payline/domain"
)

// maxInboundMessage bounds a provider's webhook body: a text and its
// metadata are a few kilobytes.
const maxInboundMessage = 64 << 10

// twiml is the empty TwiML answer: Payline replies nothing itself (the
// provider's own opt-out handling confirms a STOP to the person).
const twiml = `<?xml version="1.0" encoding="UTF-8"?><Response></Response>`

// messageHookRoutes serves the SMS provider's webhook when one is
// configured. It carries the provider's signature, not an API secret.
func (s *Server) messageHookRoutes() {
	if s.inboundMessages == nil {
		return
	}
	s.mux.Handle("POST /v1/hooks/twilio/inbound", s.unvouched(http.HandlerFunc(s.twilioInbound)))
}

// twilioInbound receives Twilio's inbound message webhook and status
// callbacks: POST /v1/hooks/twilio/inbound. A signature that does not
// check out is 401 and changes nothing; an accepted delivery is applied
// before the 200, so Twilio retries one that failed.
func (s *Server) twilioInbound(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Service-Version", domain.LatestVersion)
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxInboundMessage))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		s.writeError(w, r, domain.Errorf(domain.KindInvalid, domain.CodeRequestTooLarge, "a delivery is at most %d bytes", maxInboundMessage))
		return
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.inboundMessages.ReceiveInbound(r.Context(), s.requestURL(r), r.Header.Get, body); err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, twiml) // a failed write is a client gone
}

// requestURL is the URL the caller used, as a provider signs it: this
// server's --public-url and the request's path and query, or the Host it
// was reached at when no public URL is set.
func (s *Server) requestURL(r *http.Request) string {
	base := strings.TrimRight(s.publicURL, "/")
	if base == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		base = scheme + "://" + r.Host
	}
	return base + r.URL.RequestURI()
}

package rest

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"payline/domain"
)

// ListenerProtocol is the websocket subprotocol of GET /v1/webhook_listeners,
// spoken by `payline webhooks listen`. Messages are JSON objects:
//
//	server → CLI  {"type": "ready", "webhook_id", "enabled_events", "version"}
//	server → CLI  {"type": "delivery", "delivery_id", "event", "event_id", "headers", "body"}
//	CLI → server  {"type": "answer", "delivery_id", "status_code", "error"}
//
// The CLI answers each delivery with what the local receiver said; the
// server logs it in the listener's delivery log.
const ListenerProtocol = "payline-webhooks-listen.v1"

// ListenerMessage is any message of ListenerProtocol.
type ListenerMessage struct {
	Type          string            `json:"type"`
	WebhookID     string            `json:"webhook_id,omitempty"`
	EnabledEvents []string          `json:"enabled_events,omitempty"`
	Version       string            `json:"version,omitempty"`
	DeliveryID    string            `json:"delivery_id,omitempty"`
	Event         string            `json:"event,omitempty"`
	EventID       string            `json:"event_id,omitempty"`
	Headers       map[string]string `json:"headers,omitempty"`
	Body          string            `json:"body,omitempty"`
	StatusCode    int               `json:"status_code,omitempty"`
	Error         string            `json:"error,omitempty"`
}

// listenerCaller authenticates the listener's API secret as the API does,
// as a stream.
func listenerCaller(s *Server) func(http.ResponseWriter, *http.Request) (caller, error) {
	return func(w http.ResponseWriter, r *http.Request) (caller, error) {
		c, err := s.keyCaller(w, r)
		c.streaming = true
		return c, err
	}
}

// webhookListener opens a listener for the caller's key and streams its
// deliveries over a websocket until either side closes. Query parameters:
// enabled_events (comma-separated, default all) and version (default the
// latest).
func (s *Server) webhookListener(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Service-Version", domain.LatestVersion)
	// The pipeline with an API secret, unversioned (version is a query
	// parameter here); a listener stays open, so it is never counted as
	// a request in flight.
	r, release, ok := s.pass(gate{identify: listenerCaller(s), refuse: s.writeError}, nil, w, r)
	if !ok {
		return
	}
	defer release()
	key, _ := domain.APIKeyFrom(r.Context()) // keyCaller put it there
	if !strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		// Checked before any listener webhook exists, so a plain GET
		// leaves nothing behind and gets the API's error body.
		s.writeError(w, r, domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields,
			"this endpoint is a websocket: connect with Upgrade: websocket and the %s subprotocol (payline webhooks listen does)", ListenerProtocol))
		return
	}
	q := newQuery(r.URL)
	var in domain.ListenerInput
	if v, ok := q.str("enabled_events"); ok {
		in.EnabledEvents = strings.Split(v, ",")
	}
	in.Version, _ = q.str("version")
	if err := q.err(); err != nil {
		s.writeError(w, r, err)
		return
	}
	hook, err := s.webhooks.OpenListener(r.Context(), key, in)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// dropListener deletes the listener of a connection that never
	// started listening. A failed delete leaves the row to SweepListeners
	// (it goes stale unbeaten), so it is logged rather than answered.
	dropListener := func(ctx context.Context) {
		if err := s.webhooks.Delete(context.WithoutCancel(ctx), key.Scope(), hook.ID); err != nil {
			s.log.WarnContext(ctx, "webhook listener left for the sweep", "request_id", domain.RequestID(r.Context()),
				"webhook_id", hook.ID, "error", err)
		}
	}
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{ListenerProtocol}})
	if err != nil {
		dropListener(r.Context())
		return // Accept has answered the request
	}
	defer conn.CloseNow()
	// A hijacked request's context lives until this handler returns, and
	// ends with the server (its BaseContext).
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	answers := make(chan ListenerMessage, 1)
	go func() { // the CLI's answers; a read error means it is gone
		defer cancel()
		for {
			var m ListenerMessage
			if err := wsjson.Read(ctx, conn, &m); err != nil {
				return
			}
			if m.Type == "answer" {
				select {
				case answers <- m:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	if err := wsjson.Write(ctx, conn, ListenerMessage{Type: "ready", WebhookID: hook.ID, EnabledEvents: hook.EnabledEvents,
		Version: hook.Version}); err != nil {
		dropListener(ctx)
		return
	}
	forward := func(ctx context.Context, d domain.ListenedDelivery) (int, error) {
		if err := wsjson.Write(ctx, conn, ListenerMessage{Type: "delivery", DeliveryID: d.DeliveryID, Event: d.Event,
			EventID: d.EventID, Headers: d.Request.Headers, Body: string(d.Request.Body)}); err != nil {
			return 0, err
		}
		for {
			select {
			case <-ctx.Done():
				return 0, ctx.Err()
			case m := <-answers:
				if m.DeliveryID != d.DeliveryID {
					continue // a late answer to an earlier delivery
				}
				if m.Error != "" {
					return m.StatusCode, errors.New(m.Error)
				}
				return m.StatusCode, nil
			}
		}
	}
	if err := s.webhooks.Listen(ctx, key.Scope(), hook, forward); err != nil {
		s.log.ErrorContext(ctx, "webhook listener stopped", "request_id", domain.RequestID(r.Context()), "webhook_id", hook.ID, "error", err)
		conn.Close(websocket.StatusInternalError, "the listener stopped; start it again")
		return
	}
	conn.Close(websocket.StatusNormalClosure, "")
}

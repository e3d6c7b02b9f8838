package domain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// A listener is a webhook whose deliveries go to a connected `payline
// webhooks listen` over the connection it opened, instead of to a URL, so
// a developer can receive webhooks on a laptop with nothing reachable or
// certified. It is a webhook row (so GET /v1/webhooks lists it and its
// delivery log works), marked by its URL, that queued fan-out skips: the
// connection's own Listen loop delivers, from the event feed, on whichever
// instance holds the connection.

// ListenerURLPrefix marks a listener's URL: payline-listen://<webhook id>.
const ListenerURLPrefix = "payline-listen://"

// IsListener reports whether deliveries to w go to a listen connection.
func (w Webhook) IsListener() bool { return strings.HasPrefix(w.URL, ListenerURLPrefix) }

const (
	// listenerHeartbeat is how often a live listener touches its row.
	listenerHeartbeat = time.Minute
	// ListenerStaleAfter is how long a listener row may go untouched
	// before a sweep deletes it (its process died without closing).
	ListenerStaleAfter = 5 * time.Minute
	// ListenerAnswerTimeout bounds the wait for the local answer, as a
	// receiver's 15 seconds bound a delivery.
	ListenerAnswerTimeout = 15 * time.Second
)

// ListenedDelivery is one delivery handed to a listen connection: the
// exact request a webhook receiver would get.
type ListenedDelivery struct {
	DeliveryID string
	Event      string
	EventID    string
	Request    WebhookRequest
}

// Forwarder hands a delivery to the listen connection and returns the
// status the local receiver answered, or an error when it gave none.
type Forwarder func(ctx context.Context, d ListenedDelivery) (status int, err error)

// ListenerInput is what `payline webhooks listen` asks for; empty fields
// mean every event and the latest version.
type ListenerInput struct {
	EnabledEvents []string
	Version       string
}

// OpenListener registers a listener for the caller's key. Sandbox and
// development only: production deliveries go to real receivers. Errors:
// SANDBOX_ONLY (404) in production, INVALID_FIELDS.
func (s *WebhookService) OpenListener(ctx context.Context, key APIKey, in ListenerInput) (Webhook, error) {
	sc := key.Scope()
	if sc.Mode == ModeProduction {
		return Webhook{}, Errorf(KindNotFound, CodeNotSandbox,
			"webhook listeners exist only in the sandbox and development modes; production webhooks need a reachable HTTPS URL")
	}
	var p Problems
	events := EventNames()
	if len(in.EnabledEvents) > 0 {
		events = checkEvents(&p, in.EnabledEvents)
	}
	version := in.Version
	if version == "" {
		version = LatestVersion
	}
	if !slices.Contains(WebhookVersions(), version) {
		p.Invalid("version", "must be one of %s", strings.Join(WebhookVersions(), ", "))
	}
	if err := p.Err(); err != nil {
		return Webhook{}, err
	}
	now := s.clock.Now()
	w := Webhook{ID: NewID(), CustomerID: sc.CustomerID, Mode: sc.Mode, APIKeyID: key.ID,
		EnabledEvents: events, Status: WebhookActive, Version: version, CreatedAt: now, LastUpdated: now}
	w.URL = ListenerURLPrefix + w.ID
	return w, s.tx.Webhooks().CreateWebhook(ctx, sc, w)
}

// Listen delivers each event w enables, as it commits, through forward
// and logs each answer as a delivery (one attempt: the developer re-runs
// what failed), until ctx ends; then it deletes the listener. Sandbox
// webhook.test events for w are delivered too.
func (s *WebhookService) Listen(ctx context.Context, sc Scope, w Webhook, forward Forwarder) (err error) {
	defer func() {
		// The connection is gone; the row must go even though ctx has.
		// Should the delete fail, SweepListeners removes the row once it
		// is stale; the caller hears of it.
		cleanup, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if derr := s.tx.Webhooks().DeleteWebhook(cleanup, sc, w.ID); derr != nil && !errors.Is(derr, ErrNoRows) {
			err = errors.Join(err, fmt.Errorf("delete listener %s: %w", w.ID, derr))
		}
	}()
	secret, err := s.signingSecret(ctx, sc, w.APIKeyID)
	if err != nil {
		return err
	}
	events := s.tx.Subscribe(ctx, sc)
	beat := time.NewTicker(listenerHeartbeat)
	defer beat.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-beat.C:
			w.LastUpdated = s.clock.Now()
			if err := s.tx.Webhooks().UpdateWebhook(ctx, sc, w); err != nil && ctx.Err() == nil {
				return err
			}
		case e, ok := <-events:
			if !ok {
				return nil
			}
			if !w.Enables(e.Name) && !testFor(e, w.ID) {
				continue
			}
			if err := s.forwardOne(ctx, sc, w, e, secret, forward); err != nil {
				if ctx.Err() != nil {
					return nil
				}
				return err
			}
		}
	}
}

// forwardOne delivers one event to the listen connection and logs it.
func (s *WebhookService) forwardOne(ctx context.Context, sc Scope, w Webhook, e Event, secret string, forward Forwarder) error {
	d := Delivery{ID: NewID(), WebhookID: w.ID, EventID: e.ID, EventName: e.Name, Attempt: 1, CreatedAt: s.clock.Now()}
	if why := unsupportedForVersion(w, e); why != "" {
		d.Outcome, d.Error = DeliverySkipped, why
		return s.tx.Webhooks().RecordDelivery(ctx, sc, d)
	}
	req, err := signedRequest(w, e, secret, s.clock.Now())
	if err != nil {
		return err
	}
	answerCtx, cancel := context.WithTimeout(ctx, ListenerAnswerTimeout)
	start := time.Now() // a latency: the monotonic clock, not the (injectable) wall clock
	status, err := forward(answerCtx, ListenedDelivery{DeliveryID: d.ID, Event: e.Name, EventID: e.ID, Request: req})
	cancel()
	d.Latency, d.StatusCode = time.Since(start), status
	switch {
	case err != nil:
		d.Outcome, d.Error = DeliveryFailed, err.Error()
		if errors.Is(err, context.DeadlineExceeded) {
			d.Error = "the local receiver did not answer within 15 seconds"
		}
	case status == 200:
		d.Outcome = DeliveryDelivered
	default:
		d.Outcome, d.Error = DeliveryFailed, fmt.Sprintf("the local receiver answered %d: only 200 acknowledges a delivery", status)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	observerOr(s.observer).WebhookDelivered(d.Outcome, d.Latency)
	return s.tx.Webhooks().RecordDelivery(ctx, sc, d)
}

// testFor reports whether e is a sandbox webhook.test sent to webhook id.
func testFor(e Event, id string) bool {
	if e.Name != "webhook.test" {
		return false
	}
	var p struct {
		WebhookID string `json:"webhook_id"`
	}
	return json.Unmarshal(e.Payload, &p) == nil && p.WebhookID == id
}

// SweepListeners deletes listeners whose process died without closing
// them: untouched for ListenerStaleAfter. Every instance runs it at start.
func (s *WebhookService) SweepListeners(ctx context.Context) (int, error) {
	return s.tx.Webhooks().DeleteStaleListeners(ctx, ListenerURLPrefix, s.clock.Now().Add(-ListenerStaleAfter))
}

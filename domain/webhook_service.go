package domain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"time"
)

// Resolver looks host names up; *net.Resolver is one.
type Resolver interface {
	LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
}

// WebhookSecrets recovers the secret of the key that signs a webhook.
type WebhookSecrets interface {
	SigningSecret(ctx context.Context, s Scope, apiKeyID string) (string, error)
}

// WebhookService manages webhooks and makes delivery attempts.
type WebhookService struct {
	tx       Transactor
	secrets  WebhookSecrets
	sender   WebhookSender
	resolver Resolver
	clock    Clock
	mode     Mode

	// A key's secret never changes, so each is opened once per process
	// rather than once per delivery.
	mu          sync.Mutex
	secretCache map[string]string

	observer Observer
}

// Observe sends each delivery attempt's outcome to o (metrics).
func (s *WebhookService) Observe(o Observer) { s.observer = o }

// successRefresh is how stale last_success may get before a successful
// delivery writes it again; healthy webhooks then cost no write per event.
const successRefresh = time.Minute

// NewWebhookService wires the webhook use cases. Outside the sandbox,
// webhook hosts are resolved with resolver and refused when they reach
// internal addresses.
func NewWebhookService(tx Transactor, secrets WebhookSecrets, sender WebhookSender, resolver Resolver, clock Clock, mode Mode) *WebhookService {
	return &WebhookService{tx: tx, secrets: secrets, sender: sender, resolver: resolver, clock: clock, mode: mode,
		secretCache: map[string]string{}}
}

func (s *WebhookService) signingSecret(ctx context.Context, sc Scope, keyID string) (string, error) {
	s.mu.Lock()
	secret, ok := s.secretCache[keyID]
	s.mu.Unlock()
	if ok {
		return secret, nil
	}
	secret, err := s.secrets.SigningSecret(ctx, sc, keyID)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	s.secretCache[keyID] = secret
	s.mu.Unlock()
	return secret, nil
}

// WebhookInput is a create or update body; nil fields are not given.
type WebhookInput struct {
	URL           *string
	EnabledEvents []string
	Status        *string
	Version       *string
}

func checkEvents(p *Problems, events []string) []string {
	if len(events) == 0 {
		p.Invalid("enabled_events", "must name at least one event")
		return nil
	}
	known := EventNames()
	var out []string
	for _, e := range events {
		if !slices.Contains(known, e) {
			p.Invalid("enabled_events", "%q is not an event; use %s", e, strings.Join(known, ", "))
			continue
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

func checkStatus(p *Problems, s *string) WebhookStatus {
	if s == nil {
		return WebhookActive
	}
	st := WebhookStatus(*s)
	if st != WebhookActive && st != WebhookPaused {
		p.Invalid("status", "must be active or paused")
	}
	return st
}

// Create registers a webhook for the caller's key. Errors:
// MISSING_FIELDS, INVALID_FIELDS, WEBHOOK_LIMIT_REACHED (400, the eleventh
// of a key).
func (s *WebhookService) Create(ctx context.Context, key APIKey, in WebhookInput) (Webhook, error) {
	var p Problems
	if in.URL == nil || *in.URL == "" {
		p.Missing("url")
	}
	if in.Version == nil || *in.Version == "" {
		p.Missing("version")
	}
	if in.EnabledEvents == nil {
		p.Missing("enabled_events")
	}
	if err := p.Err(); err != nil {
		return Webhook{}, err
	}
	if !slices.Contains(WebhookVersions(), *in.Version) {
		p.Invalid("version", "must be one of %s (webhook versions start at %s)", strings.Join(WebhookVersions(), ", "), firstWebhookVersion)
	}
	s.checkURL(ctx, &p, *in.URL)
	events := checkEvents(&p, in.EnabledEvents)
	status := checkStatus(&p, in.Status)
	if err := p.Err(); err != nil {
		return Webhook{}, err
	}
	sc := key.Scope()
	now := s.clock.Now()
	w := Webhook{ID: NewID(), CustomerID: sc.CustomerID, Mode: sc.Mode, APIKeyID: key.ID, URL: *in.URL,
		EnabledEvents: events, Status: status, Version: *in.Version, CreatedAt: now, LastUpdated: now}
	err := s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
		n, err := tx.Webhooks().CountWebhooksOfKey(ctx, sc, key.ID)
		if err != nil {
			return err
		}
		if n >= MaxWebhooksPerKey {
			return Errorf(KindInvalid, CodeWebhookLimit,
				"this API key already has %d webhooks, the most allowed; delete one before creating another", MaxWebhooksPerKey)
		}
		if err := tx.Webhooks().CreateWebhook(ctx, sc, w); err != nil {
			return err
		}
		return tx.Audit().AppendAudit(ctx, NewAudit(ctx, sc, ActorOf(ctx), AuditWebhookCreated, w.ID, now))
	})
	return w, err
}

// Webhook returns one of the scope's webhooks. Errors: INVALID_FIELDS,
// WEBHOOK_NOT_FOUND.
func (s *WebhookService) Webhook(ctx context.Context, sc Scope, id string) (Webhook, error) {
	if err := CheckID("webhook_id", id); err != nil {
		return Webhook{}, err
	}
	w, err := s.tx.Webhooks().Webhook(ctx, sc, id)
	if errors.Is(err, ErrNoRows) {
		return Webhook{}, Errorf(KindNotFound, CodeWebhookNotFound, "no webhook with id %s", id)
	}
	return w, err
}

// Webhooks pages the scope's webhooks.
func (s *WebhookService) Webhooks(ctx context.Context, sc Scope, p PageRequest) (Page[Webhook], error) {
	return s.tx.Webhooks().FindWebhooks(ctx, sc, p)
}

// Update changes url, enabled_events and status. Setting status active
// again forgets past failures, so a resumed webhook has 30 fresh days.
func (s *WebhookService) Update(ctx context.Context, sc Scope, id string, in WebhookInput) (Webhook, error) {
	w, err := s.Webhook(ctx, sc, id)
	if err != nil {
		return Webhook{}, err
	}
	var p Problems
	if in.Version != nil {
		p.Invalid("version", "cannot change; create a new webhook with the new version and delete this one")
	}
	if in.URL != nil {
		s.checkURL(ctx, &p, *in.URL)
		w.URL = *in.URL
	}
	if in.EnabledEvents != nil {
		w.EnabledEvents = checkEvents(&p, in.EnabledEvents)
	}
	if in.Status != nil {
		st := checkStatus(&p, in.Status)
		if st == WebhookActive && w.Status == WebhookPaused {
			w.FailingSince = nil
		}
		w.Status = st
	}
	if err := p.Err(); err != nil {
		return Webhook{}, err
	}
	w.LastUpdated = s.clock.Now()
	return w, s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
		if err := tx.Webhooks().UpdateWebhook(ctx, sc, w); err != nil {
			return err
		}
		return tx.Audit().AppendAudit(ctx, NewAudit(ctx, sc, ActorOf(ctx), AuditWebhookUpdated, w.ID, w.LastUpdated))
	})
}

// Delete removes a webhook; queued deliveries to it are dropped.
func (s *WebhookService) Delete(ctx context.Context, sc Scope, id string) error {
	if _, err := s.Webhook(ctx, sc, id); err != nil {
		return err
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
		if err := tx.Webhooks().DeleteWebhook(ctx, sc, id); err != nil {
			return err
		}
		return tx.Audit().AppendAudit(ctx, NewAudit(ctx, sc, ActorOf(ctx), AuditWebhookDeleted, id, s.clock.Now()))
	})
}

// Deliveries pages a webhook's delivery attempts, newest first.
func (s *WebhookService) Deliveries(ctx context.Context, sc Scope, id string, p PageRequest) (Page[Delivery], error) {
	if _, err := s.Webhook(ctx, sc, id); err != nil {
		return Page[Delivery]{}, err
	}
	return s.tx.Webhooks().FindDeliveries(ctx, sc, id, p)
}

// DeliveryResult says what the queue should do after an attempt.
type DeliveryResult int

const (
	// DeliveryDone: delivered, or nothing (more) to deliver.
	DeliveryDone DeliveryResult = iota
	// DeliveryRetry: try again at the scheduled time.
	DeliveryRetry
	// DeliveryGiveUp: a final failure, no more attempts.
	DeliveryGiveUp
)

// Deliver makes attempt number attempt (1-based) to deliver an event to a
// webhook. next is when the queue will try again if this attempt fails
// in a way worth retrying (5XX or no response), nil on the last attempt.
// 200 is success; any other 2XX, 3XX (redirects are not followed) and
// 4XX are final failures.
func (s *WebhookService) Deliver(ctx context.Context, run DeliveryRun, attempt int, next *time.Time) (DeliveryResult, error) {
	_, result, err := s.deliver(ctx, run, attempt, next)
	return result, err
}

// deliver is Deliver, also returning the attempt it recorded: the zero
// Delivery when it recorded none (the webhook is gone, or a listener's).
func (s *WebhookService) deliver(ctx context.Context, run DeliveryRun, attempt int, next *time.Time) (Delivery, DeliveryResult, error) {
	sc := run.Scope
	w, e, err := s.tx.Webhooks().DeliveryTarget(ctx, sc, run.WebhookID, run.EventID)
	if errors.Is(err, ErrNoRows) {
		return Delivery{}, DeliveryDone, nil // the webhook was deleted since (events are never deleted)
	}
	if err != nil {
		return Delivery{}, DeliveryRetry, fmt.Errorf("read webhook %s and event %s: %w", run.WebhookID, run.EventID, err)
	}
	if w.IsListener() {
		return Delivery{}, DeliveryDone, nil // its listen connection delivers
	}
	d := Delivery{ID: NewID(), WebhookID: w.ID, EventID: e.ID, EventName: e.Name, Attempt: attempt, CreatedAt: s.clock.Now()}
	if w.Status == WebhookPaused {
		d.Outcome, d.Error = DeliverySkipped, "the webhook is paused"
		return recorded(d, DeliveryDone, s.tx.Webhooks().RecordDelivery(ctx, sc, d))
	}
	if why := unsupportedForVersion(w, e); why != "" {
		d.Outcome, d.Error = DeliverySkipped, why
		return recorded(d, DeliveryDone, s.tx.Webhooks().RecordDelivery(ctx, sc, d))
	}
	secret, err := s.signingSecret(ctx, sc, w.APIKeyID)
	if err != nil {
		return Delivery{}, DeliveryRetry, err
	}
	req, err := signedRequest(w, e, secret, s.clock.Now())
	if err != nil {
		return Delivery{}, DeliveryGiveUp, err
	}
	start := time.Now() // a latency: the monotonic clock, not the (injectable) wall clock
	resp, sendErr := s.sender.Send(ctx, req)
	status := resp.Status
	d.Latency, d.StatusCode, d.ResponseExcerpt = time.Since(start), status, resp.Excerpt
	result := DeliveryDone
	switch {
	case sendErr == nil && status == 200:
		d.Outcome = DeliveryDelivered
	case sendErr != nil || status >= 500:
		d.Error = fmt.Sprintf("status %d", status)
		if sendErr != nil {
			d.Error = sendErr.Error()
		}
		d.Outcome, d.NextAttempt, result = DeliveryRetrying, next, DeliveryRetry
		if next == nil {
			d.Outcome, result = DeliveryFailed, DeliveryGiveUp
		}
	default:
		d.Outcome, d.Error, result = DeliveryFailed, fmt.Sprintf("status %d is final: only 200 acknowledges a delivery", status), DeliveryGiveUp
	}
	observerOr(s.observer).WebhookDelivered(d.Outcome, d.Latency)
	now := s.clock.Now()
	if d.Outcome == DeliveryDelivered && w.FailingSince == nil && w.LastSuccess != nil && now.Sub(*w.LastSuccess) < successRefresh {
		return recorded(d, result, s.tx.Webhooks().RecordDelivery(ctx, sc, d)) // nothing about the webhook changes
	}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
		cur, err := tx.Webhooks().Webhook(ctx, sc, w.ID)
		if errors.Is(err, ErrNoRows) {
			d = Delivery{} // deleted while it was sent: nothing to record
			return nil
		}
		if err != nil {
			return err
		}
		if d.Outcome == DeliveryDelivered {
			cur.FailingSince, cur.LastSuccess = nil, &now
		} else {
			if cur.FailingSince == nil {
				cur.FailingSince = &now
			}
			if now.Sub(*cur.FailingSince) >= WebhookPauseAfter && cur.Status == WebhookActive {
				cur.Status, cur.LastUpdated = WebhookPaused, now
			}
		}
		if err := tx.Webhooks().UpdateWebhook(ctx, sc, cur); err != nil {
			return err
		}
		return tx.Webhooks().RecordDelivery(ctx, sc, d)
	})
	return recorded(d, result, err)
}

// recorded is what deliver returns once it tried to record d: d, or the
// zero Delivery when the record failed.
func recorded(d Delivery, result DeliveryResult, err error) (Delivery, DeliveryResult, error) {
	if err != nil {
		return Delivery{}, result, err
	}
	return d, result, nil
}

// awaitListened waits for a listener's connection to log the delivery of
// event eventID; the connection may be on another instance.
func (s *WebhookService) awaitListened(ctx context.Context, sc Scope, webhookID, eventID string) (Delivery, error) {
	ctx, cancel := context.WithTimeout(ctx, ListenerAnswerTimeout+5*time.Second)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		page, err := s.tx.Webhooks().FindDeliveries(ctx, sc, webhookID, PageRequest{Limit: 5})
		if err != nil && ctx.Err() == nil {
			return Delivery{}, err
		}
		for _, d := range page.Items {
			if d.EventID == eventID {
				return d, nil
			}
		}
		select {
		case <-ctx.Done():
			return Delivery{}, Errorf(KindConflict, CodeConflict,
				"no `payline webhooks listen` answered for webhook %s; is the CLI still running?", webhookID)
		case <-tick.C:
		}
	}
}

// unsupportedForVersion explains why an event cannot be delivered in a
// webhook's version: before 2023-11-22 switch payloads always carry
// params.action, which platform-matching switches do not have.
func unsupportedForVersion(w Webhook, e Event) string {
	if !VersionBefore(w.Version, PlatformMatchingVersion) || e.Name != string(JobDirectDepositSwitch)+".added" {
		return ""
	}
	var p struct {
		Params struct {
			Action string `json:"action"`
		} `json:"params"`
	}
	if json.Unmarshal(e.Payload, &p) == nil && p.Params.Action == "" {
		return "a platform-matching switch has no action, which webhook versions before 2023-11-22 require; use a webhook of version 2023-11-22 or later"
	}
	return ""
}

// SendTest posts a signed webhook.test event to a webhook now, through
// the same path as real deliveries, and returns the attempt it logged
// (not whichever attempt was logged last). Sandbox only. Errors:
// WEBHOOK_NOT_FOUND, also for a webhook deleted while the event was
// being sent (which logs no attempt).
func (s *WebhookService) SendTest(ctx context.Context, sc Scope, id string) (Delivery, error) {
	if err := sandboxOnly(sc); err != nil {
		return Delivery{}, err
	}
	w, err := s.Webhook(ctx, sc, id)
	if err != nil {
		return Delivery{}, err
	}
	payload, _ := json.Marshal(map[string]string{"webhook_id": w.ID, "message": "This is a test event from Payline."})
	e := Event{ID: NewID(), Name: "webhook.test", CreatedAt: s.clock.Now(), Payload: payload}
	if err := s.tx.Events().CreateEvent(ctx, sc, e); err != nil {
		return Delivery{}, err
	}
	if w.IsListener() {
		return s.awaitListened(ctx, sc, w.ID, e.ID)
	}
	d, _, err := s.deliver(ctx, DeliveryRun{Scope: sc, WebhookID: w.ID, EventID: e.ID}, 1, nil)
	if err != nil {
		return Delivery{}, err
	}
	if d.ID == "" {
		// The attempt recorded nothing: the webhook went away meanwhile.
		// An empty delivery with no error would read as a success.
		return Delivery{}, Errorf(KindNotFound, CodeWebhookNotFound, "webhook %s was deleted while its test event was being sent", w.ID)
	}
	return d, nil
}

// DeliveriesOfWebhooks pages each webhook's delivery attempts, newest first.
func (s *WebhookService) DeliveriesOfWebhooks(ctx context.Context, sc Scope, ids []string, p PageRequest) (map[string]Page[Delivery], error) {
	return s.tx.Webhooks().DeliveriesOfWebhooks(ctx, sc, ids, p)
}

// WebhooksByID loads webhooks for a batch read.
func (s *WebhookService) WebhooksByID(ctx context.Context, sc Scope, ids []string) ([]Webhook, []error) {
	found, err := s.tx.Webhooks().WebhooksByID(ctx, sc, ids)
	if err != nil {
		return failAll[Webhook](len(ids), err)
	}
	return inOrder(ids, found, func(w Webhook) string { return w.ID }, func(id string) error {
		return Errorf(KindNotFound, CodeWebhookNotFound, "no webhook with id %s", id)
	})
}

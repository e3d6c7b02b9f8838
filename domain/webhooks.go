package domain

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// WebhookStatus is active or paused.
type WebhookStatus string

// Webhook statuses of the spec.
const (
	WebhookActive WebhookStatus = "active"
	WebhookPaused WebhookStatus = "paused"
)

// Webhook limits and timings of the spec.
const (
	MaxWebhooksPerKey  = 10
	WebhookTimeout     = 15 * time.Second
	WebhookMaxAttempts = 6 // the first and up to 5 further attempts
	WebhookRetryWindow = 15 * time.Minute
	WebhookPauseAfter  = 30 * 24 * time.Hour
)

// EventNames lists the events a webhook can enable: account.added, one
// <job>.added per job type, and the data and lifecycle events.
func EventNames() []string {
	names := []string{"account.added"}
	for _, j := range JobTypes {
		names = append(names, string(j)+".added")
	}
	names = append(names, "documents.added", EventDocumentsParsed, EventDocumentsReviewRequired, EventDocumentsReviewed,
		"voie_report.refreshed", "voe_report.refreshed",
		"earnings_stream.payouts.refreshed", "account.monitoring_status.updated")
	names = append(names, LinkOrderEvents...)
	names = append(names, DisputeEvents...)
	return append(names, EventConsentRevoked)
}

// Webhook is a customer's endpoint for events. APIKeyID is the key that
// created it: deliveries are signed with that key's secret, and the quota
// of ten counts per key.
type Webhook struct {
	ID            string
	CustomerID    string
	Mode          Mode
	APIKeyID      string
	URL           string
	EnabledEvents []string
	Status        WebhookStatus
	Version       string
	CreatedAt     time.Time
	LastUpdated   time.Time
	// FailingSince is the first failed delivery after the last 200; the
	// webhook pauses when it is WebhookPauseAfter old.
	FailingSince *time.Time
	LastSuccess  *time.Time
}

// Enables reports whether the webhook subscribes to the event.
func (w Webhook) Enables(event string) bool { return slices.Contains(w.EnabledEvents, event) }

// Delivery is one attempt to deliver an event to a webhook.
type Delivery struct {
	ID         string
	WebhookID  string
	EventID    string
	EventName  string
	Attempt    int
	StatusCode int // 0 when no response arrived
	Latency    time.Duration
	Error      string
	// ResponseExcerpt is the start of the endpoint's answer
	// (ResponseExcerpt), "" when none arrived or it was empty.
	ResponseExcerpt string
	Outcome         string // delivered, retrying, failed, skipped
	NextAttempt     *time.Time
	CreatedAt       time.Time
}

// Delivery outcomes.
const (
	DeliveryDelivered = "delivered"
	DeliveryRetrying  = "retrying"
	DeliveryFailed    = "failed"
	DeliverySkipped   = "skipped"
)

// ListWebhooks and ListDeliveries are cursor list names.
const (
	ListWebhooks   = "webhooks"
	ListDeliveries = "webhook_deliveries"
)

// WebhookStore holds webhooks and their delivery log.
type WebhookStore interface {
	CreateWebhook(ctx context.Context, s Scope, w Webhook) error
	// Webhook returns ErrNoRows when the scope has no such webhook.
	Webhook(ctx context.Context, s Scope, id string) (Webhook, error)
	// WebhooksByID returns the scope's webhooks with the given ids in one
	// query, in no particular order; unknown ids are left out.
	WebhooksByID(ctx context.Context, s Scope, ids []string) ([]Webhook, error)
	FindWebhooks(ctx context.Context, s Scope, p PageRequest) (Page[Webhook], error)
	// CountWebhooksOfKey counts the webhooks a key created. Inside a
	// transaction it first locks the key, so concurrent creates for one
	// key count one after the other and the quota holds.
	CountWebhooksOfKey(ctx context.Context, s Scope, apiKeyID string) (int, error)
	// ActiveWebhooksFor lists the scope's active webhooks enabling event,
	// listeners excluded (their connections deliver).
	ActiveWebhooksFor(ctx context.Context, s Scope, event string) ([]Webhook, error)
	UpdateWebhook(ctx context.Context, s Scope, w Webhook) error
	// DeleteWebhook returns ErrNoRows when the scope has no such webhook.
	DeleteWebhook(ctx context.Context, s Scope, id string) error
	RecordDelivery(ctx context.Context, s Scope, d Delivery) error
	// DeleteStaleListeners deletes, across every tenant, the webhooks whose
	// URL starts with prefix and that were last updated before before.
	DeleteStaleListeners(ctx context.Context, prefix string, before time.Time) (int, error)
	// FindDeliveries pages a webhook's attempts, newest first.
	FindDeliveries(ctx context.Context, s Scope, webhookID string, p PageRequest) (Page[Delivery], error)
	// DeliveriesOfWebhooks pages FindDeliveries per webhook, in one query.
	DeliveriesOfWebhooks(ctx context.Context, s Scope, webhookIDs []string, p PageRequest) (map[string]Page[Delivery], error)
	// Event returns ErrNoRows when the scope has no such event.
	Event(ctx context.Context, s Scope, id string) (Event, error)
	// DeliveryTarget reads a webhook and an event in one query; ErrNoRows
	// when either is gone.
	DeliveryTarget(ctx context.Context, s Scope, webhookID, eventID string) (Webhook, Event, error)
}

// DeliveryRun is a queued delivery of one event to one webhook.
type DeliveryRun struct {
	Scope     Scope
	WebhookID string
	EventID   string
}

// WebhookRequest is one outgoing POST.
type WebhookRequest struct {
	URL     string
	Headers map[string]string
	Body    []byte
}

// WebhookSender posts deliveries. It returns what the endpoint answered,
// or an error when no response arrived (network failure, refused address).
type WebhookSender interface {
	Send(ctx context.Context, r WebhookRequest) (WebhookResponse, error)
}

// WebhookResponse is what a delivery's endpoint answered: its status and
// the start of its body (ResponseExcerpt), which the delivery log keeps
// so a customer can see why their endpoint refused a delivery.
type WebhookResponse struct {
	Status  int
	Excerpt string
}

// ResponseExcerptBytes is how much of a response body the delivery log
// keeps.
const ResponseExcerptBytes = 512

// ResponseExcerpt is the start of a response body as the delivery log
// keeps it: at most ResponseExcerptBytes, cut on a character boundary,
// with invalid UTF-8 and control characters (but newlines and tabs)
// written as U+FFFD, and trailing space trimmed.
func ResponseExcerpt(body []byte) string {
	if len(body) > ResponseExcerptBytes {
		body = body[:ResponseExcerptBytes]
		// Drop a character the cut split.
		for i := 1; i <= utf8.UTFMax && i <= len(body); i++ {
			if utf8.RuneStart(body[len(body)-i]) {
				if !utf8.FullRune(body[len(body)-i:]) {
					body = body[:len(body)-i]
				}
				break
			}
		}
	}
	var b strings.Builder
	for len(body) > 0 {
		r, n := utf8.DecodeRune(body)
		if r == utf8.RuneError || (unicode.IsControl(r) && r != '\n' && r != '\t') {
			r = utf8.RuneError
		}
		b.WriteRune(r)
		body = body[n:]
	}
	return strings.TrimRightFunc(b.String(), unicode.IsSpace)
}

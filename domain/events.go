package domain

import (
	"context"
	"encoding/json"
	"strings"
	"time"
)

// EventTx is what publishing an event writes in a transaction: the event
// and its deliveries. Every Tx is one; a use case whose transaction
// reaches less declares its own that embeds it (DocumentReviewTx).
type EventTx interface {
	Events() EventStore
	Webhooks() WebhookStore
	// EnqueueDelivery queues a webhook delivery, visible once the
	// transaction commits.
	EnqueueDelivery(ctx context.Context, r DeliveryRun) error
}

// PublishEvent records an event in the transaction of the change behind it
// and queues its delivery to every active webhook of the tenant that
// enables it, in that same transaction: a crash loses neither, and an
// aborted change sends nothing.
func PublishEvent(ctx context.Context, tx EventTx, s Scope, name string, at time.Time, payload any) error {
	b, err := json.Marshal(payload)
	if err != nil {
		return err
	}
	e := Event{ID: NewID(), Name: name, CreatedAt: at, Payload: b}
	if err := tx.Events().CreateEvent(ctx, s, e); err != nil {
		return err
	}
	hooks, err := tx.Webhooks().ActiveWebhooksFor(ctx, s, name)
	if err != nil {
		return err
	}
	for _, w := range hooks {
		if err := tx.EnqueueDelivery(ctx, DeliveryRun{Scope: s, WebhookID: w.ID, EventID: e.ID}); err != nil {
			return err
		}
	}
	return nil
}

// EventResource is the resource an event's payload shows, for the version
// table: <job>.added events carry a job; "" for events with no changes.
func EventResource(name string) string {
	if job, ok := strings.CutSuffix(name, ".added"); ok {
		if _, isJob := ParseJobType(job); isJob {
			return ResourceJob
		}
	}
	return ""
}

// APITime formats a timestamp as the API does: UTC, microseconds, +00:00.
func APITime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000000") + "+00:00"
}

// accountAddedPayload is the spec's account.added payload.
func accountAddedPayload(a Account) map[string]any {
	return map[string]any{
		"account_id": a.ID, "end_user_id": a.EndUserID, "link_token_id": a.LinkTokenID,
		"platform_id": a.PlatformID, "created_at": APITime(a.CreatedAt), "connected": a.Connected,
	}
}

// JobEventPayload is the payload of <job name>.added events: the fields of
// direct_deposit_switch.added in the spec, for every job.
func JobEventPayload(j Job) map[string]any {
	var ts any
	if j.Timestamp != nil {
		ts = APITime(*j.Timestamp)
	}
	return map[string]any{
		"id": j.ID, "account_id": j.AccountID, "end_user_id": j.EndUserID, "link_token_id": j.LinkTokenID,
		"name": j.Name, "timestamp": ts, "outcome": j.Outcome, "params": j.Params,
	}
}

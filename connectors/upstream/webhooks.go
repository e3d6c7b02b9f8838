package upstream

import (
	"context"
	"fmt"
	"slices"
	"time"

	"payline/domain"
)

// VerifyWebhook implements domain.Upstream: the spec's v2 HMAC over
// "v2:timestamp:body" keyed by the upstream secret, in the spec's header
// (x-service-signature) or the vendor's (x-pinwheel-signature).
func (c *Client) VerifyWebhook(header func(string) string, body []byte, now time.Time) error {
	sig := header("x-service-signature")
	if sig == "" {
		sig = header("x-pinwheel-signature")
	}
	return domain.VerifyWebhookSignature(c.secret, header("x-timestamp"), sig, body, now)
}

// WebhookEvents are the upstream events the relay subscribes to: an
// account's arrival and the outcome of every job the vendor's API names
// an event for (it has none for direct_deposit_payment and
// bill_cancellation; those jobs arrive with the account's follow-up
// ingests, domain.DefaultIngestFollowUps, or the reconciliation).
func WebhookEvents() []string {
	events := []string{"account.added"}
	for _, j := range domain.JobTypes {
		if slices.Contains(domain.UpstreamEventlessJobs, j) {
			continue // the relay follows these up by polling (domain.DefaultIngestFollowUps)
		}
		events = append(events, string(j)+".added")
	}
	return events
}

type webhookJSON struct {
	ID            string   `json:"id"`
	URL           string   `json:"url"`
	Status        string   `json:"status"`
	EnabledEvents []string `json:"enabled_events"`
	Version       string   `json:"version"`
}

// EnsureWebhook registers, once, the upstream webhook that delivers
// WebhookEvents to url: an existing one with that URL is updated to the
// events, version and active status, and otherwise one is created. Run at
// every start, so it is idempotent.
func (c *Client) EnsureWebhook(ctx context.Context, url string) error {
	body := map[string]any{"url": url, "enabled_events": WebhookEvents(), "version": c.version, "status": "active"}
	var found *webhookJSON
	err := each(ctx, c, "/v1/webhooks", nil, func(items []webhookJSON) (bool, error) {
		for i := range items {
			if items[i].URL == url {
				found = &items[i]
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("list the upstream's webhooks: %w", err)
	}
	var out webhookJSON
	switch {
	case found != nil && found.Version == c.version:
		delete(body, "version") // a webhook's version cannot change
		err = c.do(ctx, "PUT", "/v1/webhooks/"+found.ID, body, &out)
	default:
		// New, or of another version: the spec has a new one created and
		// the old one deleted.
		if err = c.do(ctx, "POST", "/v1/webhooks", body, &out); err == nil && found != nil {
			err = c.do(ctx, "DELETE", "/v1/webhooks/"+found.ID, nil, nil)
		}
	}
	if err != nil {
		return fmt.Errorf("register the upstream webhook for %s: %w", url, err)
	}
	return nil
}

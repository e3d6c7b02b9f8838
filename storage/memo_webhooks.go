package storage

import (
	"context"

	"payline/domain"
)

// Webhooks memoises ActiveWebhooksFor for the transaction; a webhook
// change made in it forgets what was memoised.
func (t *txStores) Webhooks() domain.WebhookStore { return memoWebhooks{stores: t.stores, t: t} }

type hookKey struct {
	scope domain.Scope
	event string
}

type memoWebhooks struct {
	stores
	t *txStores
}

func (m memoWebhooks) ActiveWebhooksFor(ctx context.Context, sc domain.Scope, event string) ([]domain.Webhook, error) {
	k := hookKey{sc, event}
	if hooks, ok := m.t.hooks[k]; ok {
		return hooks, nil
	}
	hooks, err := m.stores.ActiveWebhooksFor(ctx, sc, event)
	if err == nil {
		m.t.hooks[k] = hooks
	}
	return hooks, err
}

func (m memoWebhooks) CreateWebhook(ctx context.Context, sc domain.Scope, w domain.Webhook) error {
	clear(m.t.hooks)
	return m.stores.CreateWebhook(ctx, sc, w)
}

func (m memoWebhooks) UpdateWebhook(ctx context.Context, sc domain.Scope, w domain.Webhook) error {
	clear(m.t.hooks)
	return m.stores.UpdateWebhook(ctx, sc, w)
}

func (m memoWebhooks) DeleteWebhook(ctx context.Context, sc domain.Scope, id string) error {
	clear(m.t.hooks)
	return m.stores.DeleteWebhook(ctx, sc, id)
}

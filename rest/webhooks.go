package rest

import (
	"net/http"

	"payline/domain"
	"payline/rest/wire"
)

type webhookJSON struct {
	ID            string               `json:"id"`
	URL           string               `json:"url"`
	EnabledEvents []string             `json:"enabled_events"`
	Status        domain.WebhookStatus `json:"status"`
	Version       string               `json:"version"`
	CreatedAt     wire.Time            `json:"created_at"`
	LastUpdated   wire.Time            `json:"last_updated"`
}

func newWebhookJSON(w domain.Webhook) webhookJSON {
	return webhookJSON{ID: w.ID, URL: w.URL, EnabledEvents: w.EnabledEvents, Status: w.Status, Version: w.Version,
		CreatedAt: wire.Time(w.CreatedAt), LastUpdated: wire.Time(w.LastUpdated)}
}

type webhookBody struct {
	URL           *string  `json:"url"`
	EnabledEvents []string `json:"enabled_events"`
	Status        *string  `json:"status"`
	Version       *string  `json:"version"`
}

func (b webhookBody) input() domain.WebhookInput {
	return domain.WebhookInput{URL: b.URL, EnabledEvents: b.EnabledEvents, Status: b.Status, Version: b.Version}
}

func (s *Server) createWebhook(r *http.Request) (response, error) {
	var b webhookBody
	if err := wire.Decode(r, &b); err != nil {
		return response{}, err
	}
	key, _ := domain.APIKeyFrom(r.Context())
	w, err := s.webhooks.Create(r.Context(), key, b.input())
	if err != nil {
		return response{}, err
	}
	return object(resWebhook, newWebhookJSON(w)), nil
}

func (s *Server) listWebhooks(r *http.Request) (response, error) {
	q := newQuery(r.URL)
	p := q.page(domain.ListWebhooks)
	if err := q.err(); err != nil {
		return response{}, err
	}
	pg, err := s.webhooks.Webhooks(r.Context(), scopeOf(r), p)
	if err != nil {
		return response{}, err
	}
	return page(resWebhook, mapAll(pg.Items, newWebhookJSON), pg.Next), nil
}

func (s *Server) getWebhook(r *http.Request) (response, error) {
	w, err := s.webhooks.Webhook(r.Context(), scopeOf(r), r.PathValue("webhook_id"))
	if err != nil {
		return response{}, err
	}
	return object(resWebhook, newWebhookJSON(w)), nil
}

func (s *Server) updateWebhook(r *http.Request) (response, error) {
	var b webhookBody
	if err := wire.Decode(r, &b); err != nil {
		return response{}, err
	}
	w, err := s.webhooks.Update(r.Context(), scopeOf(r), r.PathValue("webhook_id"), b.input())
	if err != nil {
		return response{}, err
	}
	return object(resWebhook, newWebhookJSON(w)), nil
}

func (s *Server) deleteWebhook(r *http.Request) (response, error) {
	if err := s.webhooks.Delete(r.Context(), scopeOf(r), r.PathValue("webhook_id")); err != nil {
		return response{}, err
	}
	return response{status: http.StatusOK, resource: resWebhook, raw: true, data: struct{}{}}, nil
}

type deliveryJSON struct {
	ID         string  `json:"id"`
	Event      string  `json:"event"`
	EventID    string  `json:"event_id"`
	Attempt    int     `json:"attempt"`
	StatusCode *int    `json:"status_code"`
	LatencyMS  float64 `json:"latency_ms"`
	Outcome    string  `json:"outcome"`
	Error      *string `json:"error"`
	// ResponseExcerpt is the start of the endpoint's answer.
	ResponseExcerpt *string    `json:"response_excerpt"`
	NextAttempt     *wire.Time `json:"next_attempt"`
	CreatedAt       wire.Time  `json:"created_at"`
}

func newDeliveryJSON(d domain.Delivery) deliveryJSON {
	out := deliveryJSON{ID: d.ID, Event: d.EventName, EventID: d.EventID, Attempt: d.Attempt,
		LatencyMS: float64(d.Latency.Microseconds()) / 1000, Outcome: d.Outcome, CreatedAt: wire.Time(d.CreatedAt)}
	if d.StatusCode != 0 {
		out.StatusCode = &d.StatusCode
	}
	if d.Error != "" {
		out.Error = &d.Error
	}
	if d.ResponseExcerpt != "" {
		out.ResponseExcerpt = &d.ResponseExcerpt
	}
	if d.NextAttempt != nil {
		t := wire.Time(*d.NextAttempt)
		out.NextAttempt = &t
	}
	return out
}

func (s *Server) listDeliveries(r *http.Request) (response, error) {
	q := newQuery(r.URL)
	p := q.page(domain.ListDeliveries)
	if err := q.err(); err != nil {
		return response{}, err
	}
	pg, err := s.webhooks.Deliveries(r.Context(), scopeOf(r), r.PathValue("webhook_id"), p)
	if err != nil {
		return response{}, err
	}
	return page(resDelivery, mapAll(pg.Items, newDeliveryJSON), pg.Next), nil
}

func (s *Server) sandboxTestWebhook(r *http.Request) (response, error) {
	d, err := s.webhooks.SendTest(r.Context(), scopeOf(r), r.PathValue("webhook_id"))
	if err != nil {
		return response{}, err
	}
	return object(resDelivery, newDeliveryJSON(d)), nil
}

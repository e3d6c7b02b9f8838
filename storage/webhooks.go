package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"payline/domain"
)

type webhookRow struct {
	ID            string     `db:"id"`
	CustomerID    string     `db:"customer_id"`
	Mode          string     `db:"mode"`
	APIKeyID      string     `db:"api_key_id"`
	URL           string     `db:"url"`
	EnabledEvents string     `db:"enabled_events"`
	Status        string     `db:"status"`
	Version       string     `db:"version"`
	CreatedAt     time.Time  `db:"created_at"`
	LastUpdated   time.Time  `db:"last_updated"`
	FailingSince  *time.Time `db:"failing_since"`
	LastSuccess   *time.Time `db:"last_success"`
}

const webhookColumns = `id, customer_id, mode, api_key_id, url, enabled_events, status, version, created_at,
	last_updated, failing_since, last_success`

func (r webhookRow) domain() (domain.Webhook, error) {
	w := domain.Webhook{ID: r.ID, CustomerID: r.CustomerID, Mode: domain.Mode(r.Mode), APIKeyID: r.APIKeyID, URL: r.URL,
		Status: domain.WebhookStatus(r.Status), Version: r.Version, CreatedAt: r.CreatedAt.UTC(), LastUpdated: r.LastUpdated.UTC(),
		FailingSince: utcPtr(r.FailingSince), LastSuccess: utcPtr(r.LastSuccess)}
	err := json.Unmarshal([]byte(r.EnabledEvents), &w.EnabledEvents)
	return w, err
}

func (s stores) CreateWebhook(ctx context.Context, sc domain.Scope, w domain.Webhook) error {
	_, err := s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO webhooks (`+webhookColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		w.ID, sc.CustomerID, string(sc.Mode), w.APIKeyID, w.URL, jsonText(orEmpty(w.EnabledEvents)), string(w.Status), w.Version,
		w.CreatedAt, w.LastUpdated, w.FailingSince, w.LastSuccess)
	return translate(err)
}

func (s stores) Webhook(ctx context.Context, sc domain.Scope, id string) (domain.Webhook, error) {
	var r webhookRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT `+webhookColumns+` FROM webhooks
		WHERE id = ? AND customer_id = ? AND mode = ?`), id, sc.CustomerID, string(sc.Mode)); err != nil {
		return domain.Webhook{}, translate(err)
	}
	return r.domain()
}

func (s stores) FindWebhooks(ctx context.Context, sc domain.Scope, p domain.PageRequest) (domain.Page[domain.Webhook], error) {
	q := sqlBuilder{}
	q.where("customer_id = ? AND mode = ?", sc.CustomerID, string(sc.Mode))
	return selectPage(ctx, s.q, webhooksOldest, `SELECT `+webhookColumns+` FROM webhooks`, q, p, webhookRow.domain)
}

// CountWebhooksOfKey locks the key's row first (on PostgreSQL; SQLite's
// write transactions already exclude each other), so two creates for one
// key under READ COMMITTED count one after the other.
func (s stores) CountWebhooksOfKey(ctx context.Context, sc domain.Scope, keyID string) (int, error) {
	var id string
	if err := sqlx.GetContext(ctx, s.q, &id, s.q.Rebind(`SELECT id FROM api_keys WHERE id = ? AND customer_id = ? AND mode = ?`+
		rowLock(s.q, "FOR UPDATE")), keyID, sc.CustomerID, string(sc.Mode)); err != nil {
		return 0, translate(err)
	}
	var n int
	err := sqlx.GetContext(ctx, s.q, &n, s.q.Rebind(`SELECT COUNT(*) FROM webhooks WHERE customer_id = ? AND mode = ? AND api_key_id = ?`),
		sc.CustomerID, string(sc.Mode), keyID)
	return n, translate(err)
}

// ActiveWebhooksFor filters enabled events in Go: a tenant has a handful
// of webhooks, and the JSON list stays portable across both engines.
func (s stores) ActiveWebhooksFor(ctx context.Context, sc domain.Scope, event string) ([]domain.Webhook, error) {
	var rows []webhookRow
	if err := sqlx.SelectContext(ctx, s.q, &rows, s.q.Rebind(`SELECT `+webhookColumns+` FROM webhooks
		WHERE customer_id = ? AND mode = ? AND status = ? AND url NOT LIKE ? ORDER BY created_at, id`),
		sc.CustomerID, string(sc.Mode), string(domain.WebhookActive), domain.ListenerURLPrefix+"%"); err != nil {
		return nil, translate(err)
	}
	all, err := convertAll(rows, webhookRow.domain)
	if err != nil {
		return nil, err
	}
	var out []domain.Webhook
	for _, w := range all {
		if w.Enables(event) {
			out = append(out, w)
		}
	}
	return out, nil
}

func (s stores) UpdateWebhook(ctx context.Context, sc domain.Scope, w domain.Webhook) error {
	return expectOne(s.q.ExecContext(ctx, s.q.Rebind(`UPDATE webhooks SET url = ?, enabled_events = ?, status = ?,
		last_updated = ?, failing_since = ?, last_success = ? WHERE id = ? AND customer_id = ? AND mode = ?`),
		w.URL, jsonText(orEmpty(w.EnabledEvents)), string(w.Status), w.LastUpdated, w.FailingSince, w.LastSuccess,
		w.ID, sc.CustomerID, string(sc.Mode)))
}

func (s stores) DeleteWebhook(ctx context.Context, sc domain.Scope, id string) error {
	if _, err := s.q.ExecContext(ctx, s.q.Rebind(`DELETE FROM webhook_deliveries WHERE webhook_id = ? AND customer_id = ? AND mode = ?`),
		id, sc.CustomerID, string(sc.Mode)); err != nil {
		return translate(err)
	}
	return expectOne(s.q.ExecContext(ctx, s.q.Rebind(`DELETE FROM webhooks WHERE id = ? AND customer_id = ? AND mode = ?`),
		id, sc.CustomerID, string(sc.Mode)))
}

func (s stores) DeleteStaleListeners(ctx context.Context, prefix string, before time.Time) (int, error) {
	stale := `SELECT id FROM webhooks WHERE url LIKE ? AND last_updated < ?`
	if _, err := s.q.ExecContext(ctx, s.q.Rebind(`DELETE FROM webhook_deliveries WHERE webhook_id IN (`+stale+`)`), prefix+"%", before.UTC()); err != nil {
		return 0, translate(err)
	}
	res, err := s.q.ExecContext(ctx, s.q.Rebind(`DELETE FROM webhooks WHERE id IN (`+stale+`)`), prefix+"%", before.UTC())
	if err != nil {
		return 0, translate(err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}

type deliveryRow struct {
	ID          string     `db:"id"`
	WebhookID   string     `db:"webhook_id"`
	EventID     string     `db:"event_id"`
	EventName   string     `db:"event_name"`
	Attempt     int        `db:"attempt"`
	StatusCode  *int       `db:"status_code"`
	LatencyUS   int64      `db:"latency_us"`
	Error       string     `db:"error"`
	Excerpt     []byte     `db:"response_excerpt"` // sealed
	Outcome     string     `db:"outcome"`
	NextAttempt *time.Time `db:"next_attempt"`
	CreatedAt   time.Time  `db:"created_at"`
}

const deliveryColumns = `id, webhook_id, event_id, event_name, attempt, status_code, latency_us, error, response_excerpt, outcome, next_attempt, created_at`

// delivery opens a delivery row's sealed excerpt.
func (s stores) delivery(r deliveryRow) (domain.Delivery, error) {
	d, err := r.domain()
	if err != nil || len(r.Excerpt) == 0 {
		return d, err
	}
	excerpt, err := s.seal.open(r.Excerpt, "webhook_deliveries", r.ID)
	d.ResponseExcerpt = string(excerpt)
	return d, err
}

// sealExcerpt seals a delivery's response excerpt; nil when it has none.
func (s stores) sealExcerpt(d domain.Delivery) ([]byte, error) {
	if d.ResponseExcerpt == "" {
		return nil, nil
	}
	return s.seal.seal([]byte(d.ResponseExcerpt), "webhook_deliveries", d.ID)
}

func (r deliveryRow) domain() (domain.Delivery, error) {
	d := domain.Delivery{ID: r.ID, WebhookID: r.WebhookID, EventID: r.EventID, EventName: r.EventName, Attempt: r.Attempt,
		Latency: time.Duration(r.LatencyUS) * time.Microsecond, Error: r.Error, Outcome: r.Outcome,
		NextAttempt: utcPtr(r.NextAttempt), CreatedAt: r.CreatedAt.UTC()}
	if r.StatusCode != nil {
		d.StatusCode = *r.StatusCode
	}
	return d, nil
}

// RecordDelivery writes one attempt: in the transaction, or outside one
// through the database's group-committing delivery log.
func (s stores) RecordDelivery(ctx context.Context, sc domain.Scope, d domain.Delivery) error {
	excerpt, err := s.sealExcerpt(d)
	if err != nil {
		return err
	}
	if db, ok := s.q.(*DB); ok {
		_, err := db.deliveries.do(ctx, loggedDelivery{sc, d, excerpt})
		return err
	}
	_, err = s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO webhook_deliveries (customer_id, mode, `+deliveryColumns+`)
		VALUES `+deliveryPlaceholders), deliveryValues(sc, d, excerpt)...)
	return translate(err)
}

func (s stores) FindDeliveries(ctx context.Context, sc domain.Scope, webhookID string, p domain.PageRequest) (domain.Page[domain.Delivery], error) {
	q := sqlBuilder{}
	q.where("customer_id = ? AND mode = ? AND webhook_id = ?", sc.CustomerID, string(sc.Mode), webhookID)
	return selectPage(ctx, s.q, deliveriesNewest, `SELECT `+deliveryColumns+` FROM webhook_deliveries`, q, p, s.delivery)
}

func (s stores) Event(ctx context.Context, sc domain.Scope, id string) (domain.Event, error) {
	var r struct {
		ID        string    `db:"id"`
		Name      string    `db:"name"`
		CreatedAt time.Time `db:"created_at"`
		Payload   string    `db:"payload"`
	}
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT id, name, created_at, payload FROM events
		WHERE id = ? AND customer_id = ? AND mode = ?`), id, sc.CustomerID, string(sc.Mode)); err != nil {
		return domain.Event{}, translate(err)
	}
	return domain.Event{ID: r.ID, Name: r.Name, CreatedAt: r.CreatedAt.UTC(), Payload: domain.EventPayload(r.Payload)}, nil
}

// DeliveryTarget joins the webhook and the event a delivery needs, so an
// attempt costs one read.
// DeliveryTarget reads the webhook and the event of a delivery in one
// query; outside a transaction concurrent workers' reads are grouped
// (newTargetReader).
func (s stores) DeliveryTarget(ctx context.Context, sc domain.Scope, webhookID, eventID string) (domain.Webhook, domain.Event, error) {
	k := targetKey{sc: sc, webhookID: webhookID, eventID: eventID}
	var t deliveryTarget
	if db, ok := s.q.(*DB); ok {
		var err error
		if t, err = db.targets.do(ctx, k); err != nil {
			return domain.Webhook{}, domain.Event{}, err
		}
	} else {
		found, err := readTargets(ctx, s.q, []targetKey{k})
		if err != nil {
			return domain.Webhook{}, domain.Event{}, err
		}
		t = found[0]
	}
	if !t.found {
		return domain.Webhook{}, domain.Event{}, translate(sql.ErrNoRows)
	}
	return t.webhook, t.event, nil
}

type targetKey struct {
	sc                 domain.Scope
	webhookID, eventID string
}

type deliveryTarget struct {
	found   bool
	webhook domain.Webhook
	event   domain.Event
}

// maxTargetsPerRead bounds a grouped read's parameters (4 a target).
const maxTargetsPerRead = 200

func newTargetReader(db *DB) *grouped[targetKey, deliveryTarget] {
	return &grouped[targetKey, deliveryTarget]{max: maxTargetsPerRead, life: db.life, run: func(ctx context.Context, keys []targetKey) ([]deliveryTarget, error) {
		return readTargets(ctx, db, keys)
	}}
}

// readTargets reads the webhook and event of each key with one query;
// keys with no match (a deleted webhook) come back not found.
func readTargets(ctx context.Context, q sqlx.ExtContext, keys []targetKey) ([]deliveryTarget, error) {
	var where strings.Builder
	args := make([]any, 0, 4*len(keys))
	for i, k := range keys {
		if i > 0 {
			where.WriteString(" OR ")
		}
		where.WriteString("(w.id = ? AND e.id = ? AND w.customer_id = ? AND w.mode = ?)")
		args = append(args, k.webhookID, k.eventID, k.sc.CustomerID, string(k.sc.Mode))
	}
	var rows []struct {
		webhookRow
		EventID        string    `db:"event_id"`
		EventName      string    `db:"event_name"`
		EventCreatedAt time.Time `db:"event_created_at"`
		EventPayload   string    `db:"event_payload"`
	}
	err := sqlx.SelectContext(ctx, q, &rows, q.Rebind(`SELECT w.id, w.customer_id, w.mode, w.api_key_id, w.url, w.enabled_events,
		w.status, w.version, w.created_at, w.last_updated, w.failing_since, w.last_success,
		e.id AS event_id, e.name AS event_name, e.created_at AS event_created_at, e.payload AS event_payload
		FROM webhooks w JOIN events e ON e.customer_id = w.customer_id AND e.mode = w.mode
		WHERE `+where.String()), args...)
	if err != nil {
		return nil, translate(err)
	}
	byKey := make(map[[2]string]deliveryTarget, len(rows))
	for _, r := range rows {
		w, err := r.webhookRow.domain()
		if err != nil {
			return nil, err
		}
		byKey[[2]string{w.ID, r.EventID}] = deliveryTarget{found: true, webhook: w,
			event: domain.Event{ID: r.EventID, Name: r.EventName, CreatedAt: r.EventCreatedAt.UTC(), Payload: domain.EventPayload(r.EventPayload)}}
	}
	out := make([]deliveryTarget, len(keys))
	for i, k := range keys {
		out[i] = byKey[[2]string{k.webhookID, k.eventID}]
	}
	return out, nil
}

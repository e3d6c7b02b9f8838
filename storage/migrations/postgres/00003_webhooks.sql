-- +goose Up
CREATE TABLE webhooks (
    id             TEXT PRIMARY KEY,
    customer_id    TEXT NOT NULL REFERENCES customers (id),
    mode           TEXT NOT NULL,
    api_key_id     TEXT NOT NULL REFERENCES api_keys (id),
    url            TEXT NOT NULL,
    enabled_events TEXT NOT NULL,
    status         TEXT NOT NULL,
    version        TEXT NOT NULL,
    created_at     TIMESTAMPTZ NOT NULL,
    last_updated   TIMESTAMPTZ NOT NULL,
    failing_since  TIMESTAMPTZ,
    last_success   TIMESTAMPTZ
);
CREATE INDEX webhooks_tenant ON webhooks (customer_id, mode, created_at, id);
CREATE INDEX webhooks_key ON webhooks (customer_id, mode, api_key_id);

-- One row per delivery attempt: the log customers read.
CREATE TABLE webhook_deliveries (
    id           TEXT PRIMARY KEY,
    customer_id  TEXT NOT NULL,
    mode         TEXT NOT NULL,
    webhook_id   TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_id     TEXT NOT NULL,
    event_name   TEXT NOT NULL,
    attempt      INTEGER NOT NULL,
    status_code  INTEGER,
    latency_us   BIGINT NOT NULL,
    error        TEXT NOT NULL,
    outcome      TEXT NOT NULL,
    next_attempt TIMESTAMPTZ,
    created_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (webhook_id, created_at, id);

-- +goose Down
DROP TABLE webhook_deliveries;
DROP TABLE webhooks;

-- +goose Up
-- Link orders (issue 48): Link sent to a person by e-mail, text or a
-- printed QR code. The link's code is found by its SHA-256 (code_hash)
-- and kept sealed (sealed_code) to show the link again; the addresses
-- (sealed_contacts), the link token request the order mints its tokens
-- from (sealed_request: it may hold deposit accounts) and the token the
-- link opens now (sealed_link_token) are sealed too, each bound to the
-- order. deliveries is JSON without addresses: each channel's latest
-- status, when it was sent, why it failed. version counts writes: an
-- update names the version it read (domain.LinkOrderStore).
CREATE TABLE link_orders (
    id                 TEXT PRIMARY KEY,
    customer_id        TEXT NOT NULL REFERENCES customers (id),
    mode               TEXT NOT NULL,
    status             TEXT NOT NULL,
    end_user_id        TEXT NOT NULL,
    org_name           TEXT NOT NULL,
    api_version        TEXT NOT NULL,
    code_hash          TEXT NOT NULL UNIQUE,
    sealed_code        BLOB NOT NULL,
    sealed_request     BLOB NOT NULL,
    sealed_contacts    BLOB NOT NULL,
    deliveries         TEXT NOT NULL,
    sms_consent        BOOLEAN NOT NULL,
    time_zone          TEXT NOT NULL,
    reminders          INTEGER NOT NULL,
    reminders_sent     INTEGER NOT NULL,
    next_reminder_at   TIMESTAMP,
    send_due_at        TIMESTAMP,
    messages_queued    INTEGER NOT NULL,
    expires_at         TIMESTAMP NOT NULL,
    link_token_id      TEXT,
    link_token_expires TIMESTAMP,
    sealed_link_token  BLOB,
    account_id         TEXT,
    created_at         TIMESTAMP NOT NULL,
    updated_at         TIMESTAMP NOT NULL,
    opened_at          TIMESTAMP,
    closed_at          TIMESTAMP,
    version            INTEGER NOT NULL
);
CREATE INDEX link_orders_tenant ON link_orders (customer_id, mode, created_at, id);
CREATE INDEX link_orders_end_user ON link_orders (customer_id, mode, end_user_id, created_at);
-- The sweep reads open orders only.
CREATE INDEX link_orders_open ON link_orders (status, expires_at);

-- Every link token an order minted, so the login or upload that spends
-- one completes its order.
CREATE TABLE link_order_tokens (
    link_token_id TEXT PRIMARY KEY,
    link_order_id TEXT NOT NULL REFERENCES link_orders (id),
    customer_id   TEXT NOT NULL,
    mode          TEXT NOT NULL
);

-- +goose Down
DROP TABLE link_order_tokens;
DROP TABLE link_orders;

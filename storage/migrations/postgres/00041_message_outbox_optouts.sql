-- +goose Up
-- The sandbox outbox: what a sandbox without SMTP or an SMS provider
-- would have sent, kept for the dashboard to show each customer exactly
-- as the person would have received it. The recipient and the bodies
-- (which hold a link that opens Link) are sealed; to_masked is what lists
-- show.
CREATE TABLE outbox_messages (
    id           TEXT PRIMARY KEY,
    customer_id  TEXT NOT NULL,
    mode         TEXT NOT NULL,
    channel      TEXT NOT NULL,
    to_masked    TEXT NOT NULL,
    sealed_to    BYTEA NOT NULL,
    from_name    TEXT NOT NULL,
    subject      TEXT NOT NULL,
    body_text    BYTEA NOT NULL,
    body_html    BYTEA NOT NULL,
    ref          TEXT NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX outbox_messages_tenant ON outbox_messages (customer_id, mode, created_at, id);

-- The keys of keyed hashes (HMAC-SHA256) of people's identifiers that
-- must be found again without being kept: random, sealed under the master
-- key (and sealed again when it rotates), so a hash outlives a rotation.
CREATE TABLE lookup_keys (
    name        TEXT PRIMARY KEY,
    sealed_key  BYTEA NOT NULL
);

-- Phone numbers whose owners replied STOP (or whose opt-out the SMS
-- provider reported), by a keyed hash of the number (lookup_keys
-- 'message_opt_outs.phone'), never the number itself. Opting out
-- belongs to the person, so the row is per mode, not per customer; START
-- sets opted_out back to false and keeps the row's history of the last
-- change.
CREATE TABLE message_opt_outs (
    mode        TEXT NOT NULL,
    phone_hash  BYTEA NOT NULL,
    opted_out   BOOLEAN NOT NULL,
    source      TEXT NOT NULL,
    changed_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (mode, phone_hash)
);

-- +goose Down
DROP TABLE message_opt_outs;
DROP TABLE lookup_keys;
DROP TABLE outbox_messages;

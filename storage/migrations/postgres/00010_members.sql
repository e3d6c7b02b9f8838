-- +goose Up
-- Keys that expire, for rotation without downtime.
ALTER TABLE api_keys ADD COLUMN expires_at TIMESTAMPTZ;

-- A customer's team: who signs in to the dashboard and the admin API.
-- Only a bcrypt hash of each password is kept.
CREATE TABLE members (
    id            TEXT PRIMARY KEY,
    customer_id   TEXT NOT NULL REFERENCES customers (id),
    email         TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    role          TEXT NOT NULL CHECK (role IN ('administrator', 'developer', 'viewer')),
    created_at    TIMESTAMPTZ NOT NULL
);
CREATE INDEX members_customer ON members (customer_id);

-- Signed-in members (admin API tokens, dashboard cookies), by the
-- SHA-256 of the token.
CREATE TABLE member_sessions (
    token_hash TEXT PRIMARY KEY,
    member_id  TEXT NOT NULL REFERENCES members (id),
    mode       TEXT NOT NULL CHECK (mode IN ('sandbox', 'development', 'production')),
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX member_sessions_member ON member_sessions (member_id);

-- Every change to a tenant's credentials, and every sign-in.
CREATE TABLE audit_log (
    id          TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customers (id),
    mode        TEXT NOT NULL,
    actor       TEXT NOT NULL,
    action      TEXT NOT NULL,
    target      TEXT NOT NULL,
    at          TIMESTAMPTZ NOT NULL
);
CREATE INDEX audit_log_tenant ON audit_log (customer_id, mode, at);

-- The dashboard's overview counts a tenant's delivery attempts by day.
CREATE INDEX webhook_deliveries_tenant ON webhook_deliveries (customer_id, mode, created_at);

-- +goose Down
DROP INDEX webhook_deliveries_tenant;
DROP TABLE audit_log;
DROP TABLE member_sessions;
DROP TABLE members;
ALTER TABLE api_keys DROP COLUMN expires_at;

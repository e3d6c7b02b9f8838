-- +goose Up
-- The person's own page (issue 50). A portal link signs a person in to
-- the page that shows what they shared with one customer: its code is
-- random, single-use and expires in minutes, and only its hash is kept
-- (code_hash). Redeeming it starts a portal session, bound to that end
-- user at that customer and mode, whose cookie value is kept only as a
-- hash (token_hash); signing out or revoking ends it (revoked_at).
CREATE TABLE portal_links (
    id          TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    mode        TEXT NOT NULL,
    end_user_id TEXT NOT NULL,
    code_hash   TEXT NOT NULL UNIQUE,
    created_at  TIMESTAMPTZ NOT NULL,
    expires     TIMESTAMPTZ NOT NULL,
    used_at     TIMESTAMPTZ
);
CREATE INDEX portal_links_end_user ON portal_links (customer_id, mode, end_user_id);

CREATE TABLE portal_sessions (
    id          TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    mode        TEXT NOT NULL,
    end_user_id TEXT NOT NULL,
    token_hash  TEXT NOT NULL UNIQUE,
    created_at  TIMESTAMPTZ NOT NULL,
    expires     TIMESTAMPTZ NOT NULL,
    revoked_at  TIMESTAMPTZ
);
CREATE INDEX portal_sessions_end_user ON portal_sessions (customer_id, mode, end_user_id);

-- The address a person gave for their receipt (in Link) or a Link order
-- was sent to: where a fresh portal link goes. Sealed, bound to the row.
CREATE TABLE portal_addresses (
    customer_id  TEXT NOT NULL,
    mode         TEXT NOT NULL,
    end_user_id  TEXT NOT NULL,
    sealed_email BYTEA NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (customer_id, mode, end_user_id)
);

-- Consent taken back by the person: which account (all of the person's
-- at the customer when they revoked everything, one row each), when,
-- whether the source was told, and what was kept and why (the law's
-- reason), never the data itself.
CREATE TABLE consent_revocations (
    id            TEXT PRIMARY KEY,
    customer_id   TEXT NOT NULL,
    mode          TEXT NOT NULL,
    end_user_id   TEXT NOT NULL,
    account_id    TEXT NOT NULL,
    revoked_at    TIMESTAMPTZ NOT NULL,
    source_told   TEXT NOT NULL,
    deleted       TEXT NOT NULL,
    kept          TEXT NOT NULL,
    kept_reason   TEXT NOT NULL
);
CREATE INDEX consent_revocations_end_user ON consent_revocations (customer_id, mode, end_user_id);

-- Who ended an account's connection: '' while connected or when the
-- customer disconnected it, end_user when the person revoked consent.
ALTER TABLE accounts ADD COLUMN disconnected_by TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE accounts DROP COLUMN disconnected_by;
DROP TABLE consent_revocations;
DROP TABLE portal_addresses;
DROP TABLE portal_sessions;
DROP TABLE portal_links;

-- +goose Up
CREATE TABLE link_tokens (
    id                               TEXT PRIMARY KEY,
    customer_id                      TEXT NOT NULL REFERENCES customers (id),
    mode                             TEXT NOT NULL,
    token_hash                       TEXT NOT NULL UNIQUE,
    created_at                       TIMESTAMP NOT NULL,
    expires                          TIMESTAMP NOT NULL,
    used_at                          TIMESTAMP,
    api_version                      TEXT NOT NULL,
    org_name                         TEXT NOT NULL,
    end_user_id                      TEXT NOT NULL,
    solution                         TEXT NOT NULL,
    features                         TEXT NOT NULL,
    required_jobs                    TEXT NOT NULL,
    employer_id                      TEXT,
    platform_id                      TEXT,
    account_id                       TEXT,
    amount                           REAL,
    skip_intro_screen                BOOLEAN NOT NULL,
    disable_direct_deposit_splitting BOOLEAN NOT NULL,
    language                         TEXT NOT NULL,
    sealed_allocation                BLOB,
    sealed_matching                  BLOB
);
CREATE INDEX link_tokens_tenant ON link_tokens (customer_id, mode, created_at);

CREATE TABLE accounts (
    id                TEXT PRIMARY KEY,
    customer_id       TEXT NOT NULL REFERENCES customers (id),
    mode              TEXT NOT NULL,
    created_at        TIMESTAMP NOT NULL,
    link_token_id     TEXT NOT NULL REFERENCES link_tokens (id),
    platform_id       TEXT NOT NULL REFERENCES platforms (id),
    employer_id       TEXT,
    end_user_id       TEXT NOT NULL,
    connected         BOOLEAN NOT NULL,
    monitoring_status TEXT NOT NULL,
    data_updated_at   TEXT NOT NULL,
    data_refreshed_at TEXT NOT NULL,
    connection        TEXT NOT NULL
);
CREATE INDEX accounts_tenant ON accounts (customer_id, mode, created_at, id);
CREATE INDEX accounts_end_user ON accounts (customer_id, mode, end_user_id, created_at);
CREATE INDEX accounts_link_token ON accounts (link_token_id);

CREATE TABLE jobs (
    id            TEXT PRIMARY KEY,
    customer_id   TEXT NOT NULL REFERENCES customers (id),
    mode          TEXT NOT NULL,
    account_id    TEXT NOT NULL REFERENCES accounts (id),
    platform_id   TEXT NOT NULL,
    platform_name TEXT NOT NULL,
    end_user_id   TEXT NOT NULL,
    link_token_id TEXT NOT NULL,
    name          TEXT NOT NULL,
    created_at    TIMESTAMP NOT NULL,
    completed_at  TIMESTAMP,
    outcome       TEXT,
    error_code    TEXT,
    error_type    TEXT,
    params        TEXT NOT NULL,
    monitoring    BOOLEAN NOT NULL
);
CREATE INDEX jobs_listed ON jobs (customer_id, mode, completed_at, id);
CREATE INDEX jobs_link_token ON jobs (customer_id, mode, link_token_id);
CREATE INDEX jobs_account ON jobs (customer_id, mode, account_id);

-- The transactional outbox of webhook events: written with the change
-- that causes each one.
CREATE TABLE events (
    id          TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customers (id),
    mode        TEXT NOT NULL,
    name        TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL,
    payload     TEXT NOT NULL
);
CREATE INDEX events_tenant ON events (customer_id, mode, created_at, id);

-- +goose Down
DROP TABLE events;
DROP TABLE jobs;
DROP TABLE accounts;
DROP TABLE link_tokens;

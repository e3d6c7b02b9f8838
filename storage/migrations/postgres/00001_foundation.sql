-- +goose Up
CREATE TABLE customers (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    created_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE api_keys (
    id            TEXT PRIMARY KEY,
    customer_id   TEXT NOT NULL REFERENCES customers (id),
    mode          TEXT NOT NULL CHECK (mode IN ('sandbox', 'development', 'production')),
    secret_hash   TEXT NOT NULL UNIQUE,
    sealed_secret BYTEA NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    revoked_at    TIMESTAMPTZ
);
CREATE INDEX api_keys_tenant ON api_keys (customer_id, mode, created_at);

CREATE TABLE platforms (
    id                          TEXT PRIMARY KEY,
    name                        TEXT COLLATE "C" NOT NULL,
    display_name                TEXT NOT NULL,
    type                        TEXT NOT NULL,
    esp                         BOOLEAN NOT NULL,
    partnership                 BOOLEAN NOT NULL,
    last_updated                TIMESTAMPTZ NOT NULL,
    logo_url                    TEXT,
    merchant_categories         TEXT NOT NULL,
    merchant_category           TEXT,
    supported_jobs              TEXT NOT NULL,
    amount_supported            BOOLEAN NOT NULL,
    fractional_amount_supported BOOLEAN NOT NULL,
    min_amount                  BIGINT,
    max_amount                  BIGINT,
    percentage_supported        BOOLEAN NOT NULL,
    min_percentage              INTEGER NOT NULL,
    max_percentage              INTEGER NOT NULL
);
CREATE INDEX platforms_name ON platforms (name, id);
CREATE INDEX platforms_last_updated ON platforms (last_updated);

CREATE TABLE employers (
    id                          TEXT PRIMARY KEY,
    name                        TEXT COLLATE "C" NOT NULL,
    ein                         TEXT NOT NULL UNIQUE,
    platform_id                 TEXT NOT NULL REFERENCES platforms (id),
    last_updated                TIMESTAMPTZ NOT NULL,
    logo_url                    TEXT,
    supported_jobs              TEXT NOT NULL,
    amount_supported            BOOLEAN NOT NULL,
    fractional_amount_supported BOOLEAN NOT NULL,
    min_amount                  BIGINT,
    max_amount                  BIGINT,
    percentage_supported        BOOLEAN NOT NULL,
    min_percentage              INTEGER NOT NULL,
    max_percentage              INTEGER NOT NULL
);
CREATE INDEX employers_name ON employers (name, id);
CREATE INDEX employers_last_updated ON employers (last_updated);

-- One row: bumped by every directory write, so servers know when to
-- rebuild their search index.
CREATE TABLE directory_revision (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    revision BIGINT NOT NULL
);
INSERT INTO directory_revision (id, revision) VALUES (1, 0);

-- +goose Down
DROP TABLE directory_revision;
DROP TABLE employers;
DROP TABLE platforms;
DROP TABLE api_keys;
DROP TABLE customers;

-- +goose Up
-- A relayed mode's employers are its upstream's, whose directory carries
-- neither an EIN nor the platform an employer's staff log in to (the
-- upstream's own Link knows that): both become optional. SQLite cannot
-- drop a NOT NULL, so the table is rebuilt; an EIN stays unique where
-- there is one.
CREATE TABLE employers_new (
    id                          TEXT PRIMARY KEY,
    name                        TEXT NOT NULL,
    ein                         TEXT UNIQUE,
    platform_id                 TEXT REFERENCES platforms (id),
    last_updated                TIMESTAMP NOT NULL,
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
INSERT INTO employers_new SELECT id, name, ein, platform_id, last_updated, logo_url, supported_jobs, amount_supported,
    fractional_amount_supported, min_amount, max_amount, percentage_supported, min_percentage, max_percentage FROM employers;
DROP TABLE employers;
ALTER TABLE employers_new RENAME TO employers;
CREATE INDEX employers_name ON employers (name, id);
CREATE INDEX employers_last_updated ON employers (last_updated);

-- +goose Down
-- Employers without an EIN or a platform cannot stay in the older table.
DELETE FROM employers WHERE ein IS NULL OR platform_id IS NULL;
CREATE TABLE employers_old (
    id                          TEXT PRIMARY KEY,
    name                        TEXT NOT NULL,
    ein                         TEXT NOT NULL UNIQUE,
    platform_id                 TEXT NOT NULL REFERENCES platforms (id),
    last_updated                TIMESTAMP NOT NULL,
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
INSERT INTO employers_old SELECT * FROM employers;
DROP TABLE employers;
ALTER TABLE employers_old RENAME TO employers;
CREATE INDEX employers_name ON employers (name, id);
CREATE INDEX employers_last_updated ON employers (last_updated);

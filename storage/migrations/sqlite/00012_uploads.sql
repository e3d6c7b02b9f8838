-- +goose Up
-- Documents a user uploads in Link belong to the end user, not to an
-- account: account_id may be null. SQLite cannot drop a NOT NULL, so the
-- table is rebuilt.
CREATE TABLE account_records_new (
    id            TEXT PRIMARY KEY,
    customer_id   TEXT NOT NULL,
    mode          TEXT NOT NULL,
    kind          TEXT NOT NULL,
    account_id    TEXT REFERENCES accounts (id),
    end_user_id   TEXT NOT NULL,
    document_type TEXT NOT NULL,
    sort_key      TEXT NOT NULL,
    created_at    TIMESTAMP NOT NULL,
    body          TEXT NOT NULL
);
INSERT INTO account_records_new SELECT id, customer_id, mode, kind, account_id, end_user_id, document_type, sort_key, created_at, body FROM account_records;
DROP TABLE account_records;
ALTER TABLE account_records_new RENAME TO account_records;
CREATE INDEX account_records_account ON account_records (customer_id, mode, kind, account_id, sort_key, id);
CREATE INDEX account_records_end_user ON account_records (customer_id, mode, kind, end_user_id, sort_key, id);

-- +goose Down
DELETE FROM account_records WHERE account_id IS NULL;

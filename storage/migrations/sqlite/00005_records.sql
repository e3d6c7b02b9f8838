-- +goose Up
-- List products: tax forms and shifts of an account, documents of an end
-- user. body is the item as JSON; sort_key orders a list.
CREATE TABLE account_records (
    id            TEXT PRIMARY KEY,
    customer_id   TEXT NOT NULL,
    mode          TEXT NOT NULL,
    kind          TEXT NOT NULL,
    account_id    TEXT NOT NULL REFERENCES accounts (id),
    end_user_id   TEXT NOT NULL,
    document_type TEXT NOT NULL,
    sort_key      TEXT NOT NULL,
    created_at    TIMESTAMP NOT NULL,
    body          TEXT NOT NULL
);
CREATE INDEX account_records_account ON account_records (customer_id, mode, kind, account_id, sort_key, id);
CREATE INDEX account_records_end_user ON account_records (customer_id, mode, kind, end_user_id, sort_key, id);

CREATE TABLE bill_navigator (
    customer_id TEXT NOT NULL,
    mode        TEXT NOT NULL,
    end_user_id TEXT NOT NULL,
    status      TEXT NOT NULL,
    reason      TEXT NOT NULL,
    updated_at  TIMESTAMP NOT NULL,
    PRIMARY KEY (customer_id, mode, end_user_id)
);

-- +goose Down
DROP TABLE bill_navigator;
DROP TABLE account_records;

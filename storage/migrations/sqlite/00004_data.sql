-- +goose Up
ALTER TABLE accounts ADD COLUMN employer_name TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN switch_target TEXT NOT NULL DEFAULT '';

-- The single-object data products of an account: identity, employment,
-- income, direct_deposit_allocations. body is the product as JSON.
CREATE TABLE account_products (
    account_id  TEXT NOT NULL REFERENCES accounts (id),
    product     TEXT NOT NULL,
    customer_id TEXT NOT NULL,
    mode        TEXT NOT NULL,
    id          TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL,
    updated_at  TIMESTAMP NOT NULL,
    body        TEXT NOT NULL,
    PRIMARY KEY (account_id, product)
);

CREATE TABLE paystubs (
    id          TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    mode        TEXT NOT NULL,
    account_id  TEXT NOT NULL REFERENCES accounts (id),
    pay_date    TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL,
    body        TEXT NOT NULL
);
CREATE INDEX paystubs_account ON paystubs (customer_id, mode, account_id, pay_date, id);

-- +goose Down
DROP TABLE paystubs;
DROP TABLE account_products;
ALTER TABLE jobs DROP COLUMN switch_target;
ALTER TABLE accounts DROP COLUMN employer_name;

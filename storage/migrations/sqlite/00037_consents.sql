-- +goose Up
-- The end user's consent, given in Link, to share an account's data with
-- the customer the link token was made for: when, and which version of
-- the consent text they read. One per account (an On Demand Update keeps
-- the first); reports print it per employment.
CREATE TABLE consents (
    account_id   TEXT PRIMARY KEY REFERENCES accounts (id),
    customer_id  TEXT NOT NULL,
    mode         TEXT NOT NULL,
    given_at     TIMESTAMP NOT NULL,
    text_version TEXT NOT NULL
);

-- +goose Down
DROP TABLE consents;

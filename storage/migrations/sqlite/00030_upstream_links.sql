-- +goose Up
-- A relayed mode's link tokens and the upstream's tokens they created:
-- the upstream's events name only its own token id, which finds the
-- customer here; the upstream token's value (what its Link opens with)
-- is sealed like every secret.
CREATE TABLE upstream_links (
    link_token_id     TEXT PRIMARY KEY REFERENCES link_tokens (id) ON DELETE CASCADE,
    customer_id       TEXT NOT NULL REFERENCES customers (id),
    mode              TEXT NOT NULL,
    upstream_token_id TEXT NOT NULL UNIQUE,
    sealed            BLOB NOT NULL,
    created_at        TIMESTAMP NOT NULL
);

-- +goose Down
DROP TABLE upstream_links;

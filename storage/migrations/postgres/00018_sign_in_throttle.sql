-- +goose Up
-- Failed sign-ins of every instance (storage.SignInThrottle, when no
-- Redis is shared): per throttled key (a hash of an e-mail address or a
-- client address), the moment its failures are all forgiven, in
-- microseconds since 1970. An integer keeps the token bucket's arithmetic
-- in one portable, atomic statement. Rows whose moment has passed say
-- nothing and are deleted as new failures arrive, so the table holds only
-- the keys that failed within the last few minutes.
CREATE TABLE sign_in_throttle (
    throttle_key TEXT PRIMARY KEY,
    free_at      BIGINT NOT NULL
);
CREATE INDEX sign_in_throttle_free_at ON sign_in_throttle (free_at);

-- +goose Down
DROP TABLE sign_in_throttle;

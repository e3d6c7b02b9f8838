-- +goose Up
-- Which master key seals this database's secrets: an id and a check value
-- derived from the key (HMAC-SHA256 under distinct labels), never the key.
-- A start with another key, or none, is refused instead of sealing new
-- secrets under a key the old ones do not open.
CREATE TABLE master_key (
    singleton   INTEGER PRIMARY KEY CHECK (singleton = 1),
    key_id      TEXT NOT NULL,
    check_value TEXT NOT NULL,
    recorded_at TIMESTAMPTZ NOT NULL
);

-- +goose Down
DROP TABLE master_key;

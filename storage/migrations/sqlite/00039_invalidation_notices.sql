-- +goose Up
-- Changes other processes on the same database must stop serving stale
-- (storage.notifyInvalidate's messages: "key <id>", "member <id>"), for
-- SQLite, which has no LISTEN/NOTIFY: the change writes its notice in its
-- own transaction, and every server reads the notices after the last id
-- it read, a few times a second (storage.ListenInvalidations). The id
-- only grows (AUTOINCREMENT never reuses one), and SQLite commits one
-- writer at a time, so a reader never skips a notice committed after it
-- looked. Notices are pruned a few minutes after they were written (at,
-- microseconds since 1970). PostgreSQL announces the same messages with
-- NOTIFY and leaves this table empty; it exists there too so the two
-- schemas stay alike.
CREATE TABLE invalidation_notices (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    message TEXT NOT NULL,
    at      BIGINT NOT NULL
);
CREATE INDEX invalidation_notices_at ON invalidation_notices (at);

-- +goose Down
DROP TABLE invalidation_notices;

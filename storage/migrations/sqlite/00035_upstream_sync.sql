-- +goose Up
-- Where a relayed mode's background work with its upstream stands
-- (the directory sync, reconciliation), one row each, so a restart
-- resumes a pass at the page it stopped at: state is the pass as JSON.
CREATE TABLE upstream_state (
    name       TEXT PRIMARY KEY,
    state      TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

-- The upstream's event ids handled within the replay window, so a
-- replayed delivery costs no upstream read.
CREATE TABLE upstream_events (
    event_id   TEXT PRIMARY KEY,
    handled_at TIMESTAMP NOT NULL
);
CREATE INDEX upstream_events_handled_at ON upstream_events (handled_at);

-- +goose Down
DROP TABLE upstream_events;
DROP TABLE upstream_state;

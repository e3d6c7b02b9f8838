-- +goose Up
-- Every running process's queue client beats here; a running job whose
-- client stopped beating was cut off by a crash and is queued again at
-- once (storage.Rescuer), instead of after River's stuck-job threshold.
CREATE TABLE queue_clients (
    client_id    TEXT PRIMARY KEY,
    instance_id  TEXT NOT NULL,
    started_at   TIMESTAMP NOT NULL,
    heartbeat_at TIMESTAMP NOT NULL
);

-- +goose Down
DROP TABLE queue_clients;

-- +goose Up
-- The start of each delivery's response (512 bytes at most), so the
-- delivery log shows why an endpoint refused. Sealed like every body a
-- third party wrote: it may hold anything.
ALTER TABLE webhook_deliveries ADD COLUMN response_excerpt BYTEA;

-- +goose Down
ALTER TABLE webhook_deliveries DROP COLUMN response_excerpt;

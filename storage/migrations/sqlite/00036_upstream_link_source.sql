-- +goose Up
-- Which of a relayed mode's upstreams holds each upstream token (and so
-- the account its Link connects): several upstreams may serve one mode,
-- and a failed-over token's account is read from the upstream that took
-- it, whatever the platform's preferred one. '' for tokens made before
-- there could be several: the mode's first upstream.
ALTER TABLE upstream_links ADD COLUMN source TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE upstream_links DROP COLUMN source;

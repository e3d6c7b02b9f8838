-- +goose Up
-- People's data is sealed at rest with the master key (storage/sealed.go).
-- SQLite keeps the sealed bytes as BLOBs in the existing TEXT columns, so
-- no column changes; rows written before keep their plaintext, which the
-- stores still read, until `payline keys rotate-master` seals them.

-- The audit log records where a change came from: the caller's address,
-- or "cli" for the command line.
ALTER TABLE audit_log ADD COLUMN address TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE audit_log DROP COLUMN address;

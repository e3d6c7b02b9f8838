-- +goose Up
-- A Link session handed from one device to another (issue 48): the
-- computer's Link asks for a code, shows it as a QR code, and the phone
-- that opens it continues the same link token at the step it was at.
-- Only hashes are kept: code_hash of the single-use code in the QR code
-- (expiring in minutes), key_hash of the key the phone was given when it
-- claimed the code, which opens the link token for that phone only.
-- screen, platform_id and employer_id are the step to continue at.
CREATE TABLE link_handoffs (
    id            TEXT PRIMARY KEY,
    customer_id   TEXT NOT NULL,
    mode          TEXT NOT NULL,
    link_token_id TEXT NOT NULL,
    code_hash     TEXT NOT NULL UNIQUE,
    key_hash      TEXT UNIQUE,
    screen        TEXT NOT NULL,
    platform_id   TEXT NOT NULL DEFAULT '',
    employer_id   TEXT NOT NULL DEFAULT '',
    created_at    TIMESTAMPTZ NOT NULL,
    expires       TIMESTAMPTZ NOT NULL,
    claimed_at    TIMESTAMPTZ
);
CREATE INDEX link_handoffs_token ON link_handoffs (link_token_id);

-- +goose Down
DROP TABLE link_handoffs;

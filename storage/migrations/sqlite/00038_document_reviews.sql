-- +goose Up
-- The review queue: an uploaded document the checks left in doubt waits
-- for a person. Its body is sealed, so the review's status (required or
-- completed; null when none is needed) is a column of its own, which the
-- queue lists newest first per tenant. Documents stored before reviews
-- existed need none: the column starts null.
ALTER TABLE account_records ADD COLUMN review_status TEXT;
CREATE INDEX account_records_review ON account_records (customer_id, mode, review_status, sort_key, id)
    WHERE review_status IS NOT NULL;
-- An audit entry may say more of what was done (a review's outcome and
-- the names of the fields it corrected), never people's data.
ALTER TABLE audit_log ADD COLUMN detail TEXT NOT NULL DEFAULT '';

-- Members of the reviewer role review uploaded documents and change
-- nothing else. SQLite cannot change a CHECK constraint, so the table is
-- rebuilt, and member_sessions, which refers to it, with it (its rows
-- wait in a copy while members is replaced, so no reference is ever
-- broken and foreign keys stay on).
CREATE TABLE members_new (
    id            TEXT PRIMARY KEY,
    customer_id   TEXT NOT NULL REFERENCES customers (id),
    email         TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    role          TEXT NOT NULL CHECK (role IN ('administrator', 'developer', 'reviewer', 'viewer')),
    created_at    TIMESTAMP NOT NULL
);
INSERT INTO members_new (id, customer_id, email, password_hash, role, created_at)
    SELECT id, customer_id, email, password_hash, role, created_at FROM members;
CREATE TEMP TABLE member_sessions_copy AS SELECT token_hash, member_id, mode, created_at, expires_at FROM member_sessions;
DROP TABLE member_sessions;
DROP TABLE members;
ALTER TABLE members_new RENAME TO members;
CREATE INDEX members_customer ON members (customer_id);
CREATE TABLE member_sessions (
    token_hash TEXT PRIMARY KEY,
    member_id  TEXT NOT NULL REFERENCES members (id),
    mode       TEXT NOT NULL CHECK (mode IN ('sandbox', 'development', 'production')),
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL
);
INSERT INTO member_sessions (token_hash, member_id, mode, created_at, expires_at)
    SELECT token_hash, member_id, mode, created_at, expires_at FROM member_sessions_copy;
DROP TABLE member_sessions_copy;
CREATE INDEX member_sessions_member ON member_sessions (member_id);

-- +goose Down
-- The members table keeps its wider check: only its reviewers go.
DELETE FROM member_sessions WHERE member_id IN (SELECT id FROM members WHERE role = 'reviewer');
DELETE FROM members WHERE role = 'reviewer';
ALTER TABLE audit_log DROP COLUMN detail;
DROP INDEX account_records_review;
ALTER TABLE account_records DROP COLUMN review_status;

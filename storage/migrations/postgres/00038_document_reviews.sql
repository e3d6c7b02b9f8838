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
-- nothing else.
ALTER TABLE members DROP CONSTRAINT members_role_check;
ALTER TABLE members ADD CONSTRAINT members_role_check CHECK (role IN ('administrator', 'developer', 'reviewer', 'viewer'));

-- +goose Down
DELETE FROM member_sessions WHERE member_id IN (SELECT id FROM members WHERE role = 'reviewer');
DELETE FROM members WHERE role = 'reviewer';
ALTER TABLE members DROP CONSTRAINT members_role_check;
ALTER TABLE members ADD CONSTRAINT members_role_check CHECK (role IN ('administrator', 'developer', 'viewer'));
ALTER TABLE audit_log DROP COLUMN detail;
DROP INDEX account_records_review;
ALTER TABLE account_records DROP COLUMN review_status;

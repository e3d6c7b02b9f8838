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

-- +goose Down
ALTER TABLE audit_log DROP COLUMN detail;
DROP INDEX account_records_review;
ALTER TABLE account_records DROP COLUMN review_status;

-- +goose Up
-- A bill switch's new card number, sealed with the master key and bound to
-- the job's id; the API shows only its last four digits.
ALTER TABLE jobs ADD COLUMN sealed_payment BYTEA;
-- A link token makes one bill change, however many requests race.
CREATE UNIQUE INDEX jobs_one_bill_per_link_token ON jobs (link_token_id) WHERE name IN ('bill_switch', 'bill_cancellation');

-- +goose Down
DROP INDEX jobs_one_bill_per_link_token;
ALTER TABLE jobs DROP COLUMN sealed_payment;

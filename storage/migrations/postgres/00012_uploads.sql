-- +goose Up
-- Documents a user uploads in Link belong to the end user, not to an
-- account: account_id may be null.
ALTER TABLE account_records ALTER COLUMN account_id DROP NOT NULL;

-- +goose Down
DELETE FROM account_records WHERE account_id IS NULL;
ALTER TABLE account_records ALTER COLUMN account_id SET NOT NULL;

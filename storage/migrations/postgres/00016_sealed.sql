-- +goose Up
-- People's data is sealed at rest with the master key (storage/sealed.go):
-- the columns that hold it become bytes. Rows written before keep their
-- plaintext, which the stores still read, until `payline keys
-- rotate-master` seals them.
ALTER TABLE accounts ALTER COLUMN connection TYPE BYTEA USING convert_to(connection, 'UTF8');
ALTER TABLE account_products ALTER COLUMN body TYPE BYTEA USING convert_to(body, 'UTF8');
ALTER TABLE paystubs ALTER COLUMN body TYPE BYTEA USING convert_to(body, 'UTF8');
ALTER TABLE account_records ALTER COLUMN body TYPE BYTEA USING convert_to(body, 'UTF8');
ALTER TABLE verification_reports ALTER COLUMN body TYPE BYTEA USING convert_to(body, 'UTF8');

-- The audit log records where a change came from: the caller's address,
-- or "cli" for the command line.
ALTER TABLE audit_log ADD COLUMN address TEXT NOT NULL DEFAULT '';

-- +goose Down
-- Only a database whose data is not sealed goes down: sealed bytes are
-- not text, and the conversion refuses them.
ALTER TABLE audit_log DROP COLUMN address;
ALTER TABLE verification_reports ALTER COLUMN body TYPE TEXT USING convert_from(body, 'UTF8');
ALTER TABLE account_records ALTER COLUMN body TYPE TEXT USING convert_from(body, 'UTF8');
ALTER TABLE paystubs ALTER COLUMN body TYPE TEXT USING convert_from(body, 'UTF8');
ALTER TABLE account_products ALTER COLUMN body TYPE TEXT USING convert_from(body, 'UTF8');
ALTER TABLE accounts ALTER COLUMN connection TYPE TEXT USING convert_from(connection, 'UTF8');

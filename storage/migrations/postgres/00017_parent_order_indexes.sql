-- +goose Up
-- The per-parent pages (an end user's accounts, an account's jobs) read
-- one parent's rows in the list's order. With the order columns in the
-- parent's index the planner finds them there however stale its
-- statistics; without them, on a freshly grown table, it walked the
-- tenant's order index and filtered every row (docs/benchmarks.md, reads
-- as the data grows).
DROP INDEX accounts_end_user;
CREATE INDEX accounts_end_user ON accounts (customer_id, mode, end_user_id, created_at, id);
DROP INDEX jobs_account;
CREATE INDEX jobs_account ON jobs (customer_id, mode, account_id, completed_at, id);

-- +goose Down
DROP INDEX jobs_account;
CREATE INDEX jobs_account ON jobs (customer_id, mode, account_id);
DROP INDEX accounts_end_user;
CREATE INDEX accounts_end_user ON accounts (customer_id, mode, end_user_id, created_at);

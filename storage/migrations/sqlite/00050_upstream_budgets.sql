-- +goose Up
-- The request budget every instance relaying to one upstream shares
-- (storage.SQLUpstreamBudgets; issue 47): one row per upstream holding
-- domain.BudgetBucket as JSON, read and written in one transaction with
-- the row locked, so N instances together send what one would. Used when
-- the instances share no Redis (with --redis-url the bucket lives there).
CREATE TABLE upstream_budgets (
    name  TEXT PRIMARY KEY,
    state TEXT NOT NULL
);

-- +goose Down
DROP TABLE upstream_budgets;

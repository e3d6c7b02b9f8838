-- +goose Up
-- Money in integer cents end to end: the legacy amount of a link token
-- was a float of dollars.
ALTER TABLE link_tokens ADD COLUMN amount_cents BIGINT;
UPDATE link_tokens SET amount_cents = CAST(ROUND(amount * 100) AS INTEGER) WHERE amount IS NOT NULL;
ALTER TABLE link_tokens DROP COLUMN amount;

-- Job params had allocation.value as a float of dollars (or a percentage).
-- They now store amount_cents or percentage.
UPDATE jobs SET params = json_set(json_remove(params, '$.allocation.value'), '$.allocation.amount_cents',
        CAST(ROUND(json_extract(params, '$.allocation.value') * 100) AS INTEGER))
    WHERE json_extract(params, '$.allocation.type') = 'amount' AND json_extract(params, '$.allocation.value') IS NOT NULL;
UPDATE jobs SET params = json_set(json_remove(params, '$.allocation.value'), '$.allocation.percentage',
        CAST(ROUND(json_extract(params, '$.allocation.value')) AS INTEGER))
    WHERE json_extract(params, '$.allocation.type') = 'percentage' AND json_extract(params, '$.allocation.value') IS NOT NULL;

-- A link token switches deposits once, even under concurrent requests.
CREATE UNIQUE INDEX jobs_one_switch_per_link_token ON jobs (link_token_id) WHERE name = 'direct_deposit_switch';

-- +goose Down
DROP INDEX jobs_one_switch_per_link_token;
UPDATE jobs SET params = json_set(json_remove(params, '$.allocation.amount_cents'), '$.allocation.value',
        json_extract(params, '$.allocation.amount_cents') / 100.0)
    WHERE json_extract(params, '$.allocation.amount_cents') IS NOT NULL;
UPDATE jobs SET params = json_set(json_remove(params, '$.allocation.percentage'), '$.allocation.value',
        json_extract(params, '$.allocation.percentage'))
    WHERE json_extract(params, '$.allocation.percentage') IS NOT NULL;
ALTER TABLE link_tokens ADD COLUMN amount REAL;
UPDATE link_tokens SET amount = amount_cents / 100.0 WHERE amount_cents IS NOT NULL;
ALTER TABLE link_tokens DROP COLUMN amount_cents;

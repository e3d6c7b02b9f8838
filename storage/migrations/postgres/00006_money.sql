-- +goose Up
-- Money in integer cents end to end: the legacy amount of a link token
-- was a float of dollars.
ALTER TABLE link_tokens ADD COLUMN amount_cents BIGINT;
UPDATE link_tokens SET amount_cents = ROUND(amount * 100)::BIGINT WHERE amount IS NOT NULL;
ALTER TABLE link_tokens DROP COLUMN amount;

-- Job params had allocation.value as a float of dollars (or a percentage).
-- They now store amount_cents or percentage; the text goes through numeric
-- so 19.99 becomes exactly 1999.
UPDATE jobs SET params = jsonb_set(params::jsonb #- '{allocation,value}', '{allocation,amount_cents}',
        to_jsonb(ROUND((params::jsonb #>> '{allocation,value}')::numeric * 100)::BIGINT))::text
    WHERE params::jsonb #>> '{allocation,type}' = 'amount' AND params::jsonb #> '{allocation,value}' IS NOT NULL;
UPDATE jobs SET params = jsonb_set(params::jsonb #- '{allocation,value}', '{allocation,percentage}',
        to_jsonb(ROUND((params::jsonb #>> '{allocation,value}')::numeric)::INTEGER))::text
    WHERE params::jsonb #>> '{allocation,type}' = 'percentage' AND params::jsonb #> '{allocation,value}' IS NOT NULL;

-- A link token switches deposits once, even under concurrent requests.
CREATE UNIQUE INDEX jobs_one_switch_per_link_token ON jobs (link_token_id) WHERE name = 'direct_deposit_switch';

-- +goose Down
DROP INDEX jobs_one_switch_per_link_token;
UPDATE jobs SET params = jsonb_set(params::jsonb #- '{allocation,amount_cents}', '{allocation,value}',
        to_jsonb((params::jsonb #>> '{allocation,amount_cents}')::numeric / 100))::text
    WHERE params::jsonb #> '{allocation,amount_cents}' IS NOT NULL;
UPDATE jobs SET params = jsonb_set(params::jsonb #- '{allocation,percentage}', '{allocation,value}',
        params::jsonb #> '{allocation,percentage}')::text
    WHERE params::jsonb #> '{allocation,percentage}' IS NOT NULL;
ALTER TABLE link_tokens ADD COLUMN amount DOUBLE PRECISION;
UPDATE link_tokens SET amount = amount_cents / 100.0 WHERE amount_cents IS NOT NULL;
ALTER TABLE link_tokens DROP COLUMN amount_cents;

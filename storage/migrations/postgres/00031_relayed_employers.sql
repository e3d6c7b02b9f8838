-- +goose Up
-- A relayed mode's employers are its upstream's, whose directory carries
-- neither an EIN nor the platform an employer's staff log in to (the
-- upstream's own Link knows that): both become optional. An EIN stays
-- unique where there is one.
ALTER TABLE employers ALTER COLUMN ein DROP NOT NULL, ALTER COLUMN platform_id DROP NOT NULL;

-- +goose Down
-- Employers without an EIN or a platform cannot stay in the older table.
DELETE FROM employers WHERE ein IS NULL OR platform_id IS NULL;
ALTER TABLE employers ALTER COLUMN ein SET NOT NULL, ALTER COLUMN platform_id SET NOT NULL;

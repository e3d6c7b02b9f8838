-- +goose Up
-- A legacy hosted site (POST /v1/sites) sends the browser here when Link ends.
ALTER TABLE link_tokens ADD COLUMN redirect_url TEXT;

-- +goose Down
ALTER TABLE link_tokens DROP COLUMN redirect_url;

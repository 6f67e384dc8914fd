-- An owner who has dealt with a leak report marks it as handled, and the
-- console's banner stops showing those keys: leak_seen_at is when.

-- +goose Up
ALTER TABLE api_keys ADD COLUMN leak_seen_at TIMESTAMP;

-- +goose Down
ALTER TABLE api_keys DROP COLUMN leak_seen_at;

-- A gateway call's usage in buckets that never overlap: input_tokens is
-- the input neither written to nor read from the provider's prompt cache,
-- cache_write_tokens and cache_read_tokens the rest of the input (each
-- priced apart by the providers), output_tokens the output, of which
-- reasoning_tokens were the model's thinking. A call costs the quota
-- input + cache write + cache read + output. NULL for the calls recorded
-- before, and for other events.

-- +goose Up
ALTER TABLE audit_events ADD COLUMN cache_write_tokens BIGINT;
ALTER TABLE audit_events ADD COLUMN cache_read_tokens BIGINT;
ALTER TABLE audit_events ADD COLUMN reasoning_tokens BIGINT;

-- +goose Down
ALTER TABLE audit_events DROP COLUMN reasoning_tokens;
ALTER TABLE audit_events DROP COLUMN cache_read_tokens;
ALTER TABLE audit_events DROP COLUMN cache_write_tokens;

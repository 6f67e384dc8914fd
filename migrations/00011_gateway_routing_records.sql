-- A gateway call is routed to one or more (provider, model) targets: its
-- record names the provider that answered, every attempt (a JSON list of
-- provider, model, status, code and milliseconds), and its cost in
-- integer micro-dollars with the price table's version. The month's
-- counter and the day's rows sum the cost as they sum tokens, so spend
-- is read without scanning the calls.

-- +goose Up
ALTER TABLE audit_events ADD COLUMN provider TEXT;
ALTER TABLE audit_events ADD COLUMN attempts TEXT;
ALTER TABLE audit_events ADD COLUMN cost_micros BIGINT;
ALTER TABLE audit_events ADD COLUMN price_version TEXT;
ALTER TABLE usage_counters ADD COLUMN cost_micros BIGINT NOT NULL DEFAULT 0;
ALTER TABLE usage_daily ADD COLUMN cost_micros BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE usage_daily DROP COLUMN cost_micros;
ALTER TABLE usage_counters DROP COLUMN cost_micros;
ALTER TABLE audit_events DROP COLUMN price_version;
ALTER TABLE audit_events DROP COLUMN cost_micros;
ALTER TABLE audit_events DROP COLUMN attempts;
ALTER TABLE audit_events DROP COLUMN provider;

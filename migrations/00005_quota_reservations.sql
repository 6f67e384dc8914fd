-- Gateway quota reservations: before calling the upstream, a call holds
-- its worst case (input estimate + max_tokens) against the month's quota;
-- the hold is settled to the real usage when the call's record is
-- written, or released when it expires (a crashed instance's holds).
-- usage_counters.reserved is the sum of the live holds, so admission is
-- one conditional UPDATE of that row. audit_events.usage_flag says how a
-- call's usage was known: NULL (the upstream's report), 'clamped' or
-- 'estimated'.

-- +goose Up
ALTER TABLE usage_counters ADD COLUMN reserved BIGINT NOT NULL DEFAULT 0;

CREATE TABLE quota_reservations (
    id         TEXT PRIMARY KEY,
    org_id     TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    product_id TEXT NOT NULL,
    period     TEXT NOT NULL,
    tokens     BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX quota_reservations_expiry ON quota_reservations (org_id, product_id, period, expires_at);

ALTER TABLE audit_events ADD COLUMN usage_flag TEXT;

-- +goose Down
ALTER TABLE audit_events DROP COLUMN usage_flag;
DROP TABLE quota_reservations;
ALTER TABLE usage_counters DROP COLUMN reserved;

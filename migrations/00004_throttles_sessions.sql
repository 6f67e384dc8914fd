-- Throttle counters shared by every instance when Redis is not configured
-- (sign-in per account, per address and per device; sign-up per address),
-- and what the account page shows of each session.

-- +goose Up
-- One row per throttle key: hits counted in the window that ends at
-- reset_at. One INSERT ... ON CONFLICT DO UPDATE ... RETURNING counts a hit
-- and reads the total atomically, on Postgres and SQLite alike.
CREATE TABLE throttles (
    key      TEXT PRIMARY KEY,
    hits     INTEGER NOT NULL,
    reset_at TIMESTAMP NOT NULL
);
CREATE INDEX throttles_reset_idx ON throttles (reset_at);

ALTER TABLE sessions ADD COLUMN user_agent TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN ip TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE sessions DROP COLUMN ip;
ALTER TABLE sessions DROP COLUMN user_agent;
DROP TABLE throttles;

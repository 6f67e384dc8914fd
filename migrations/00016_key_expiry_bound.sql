-- A key's expiry is at most 10 years ahead (keys.MaxExpiryYears). Before
-- that bound a key could expire at the end of 9999-12-31, stored as year
-- 10000, which SQLite cannot read back: every page listing the
-- organization's keys failed. Such a key now expires on the last day the
-- databases read, as far ahead as it ever meant. The text of a five-digit
-- year is the same on Postgres and SQLite.

-- +goose Up
UPDATE api_keys SET expires_at = '9999-12-31 00:00:00'
WHERE CAST(expires_at AS TEXT) LIKE '_____-%';

-- +goose Down
-- Nothing to undo: year 10000 was never readable.
SELECT 1;

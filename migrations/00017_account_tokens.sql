-- Password reset and email verification links: a random token mailed to
-- the account's address, of which only the SHA-256 is stored; each works
-- once (used_at, set by one conditional UPDATE) until expires_at. email is
-- the address the link was sent to: a link proves that address only.
-- email_verified_at is when the account's address was proven.

-- +goose Up
CREATE TABLE account_tokens (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose    TEXT NOT NULL,
    email      TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    used_at    TIMESTAMP
);
CREATE UNIQUE INDEX account_tokens_hash_key ON account_tokens (token_hash);
CREATE INDEX account_tokens_user_idx ON account_tokens (user_id, purpose);

ALTER TABLE users ADD COLUMN email_verified_at TIMESTAMP;

-- +goose Down
ALTER TABLE users DROP COLUMN email_verified_at;
DROP TABLE account_tokens;

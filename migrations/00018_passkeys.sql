-- Passkeys (WebAuthn credentials) of an account, and the state of the
-- WebAuthn ceremonies under way. Binary values (credential id, public key,
-- AAGUID) are stored base64url-encoded so the SQL stays portable.
-- users.passkey_count is kept with the rows, in the same transaction, so
-- "has a second factor" reads from the user row alone on every page.
-- A ceremony row is found by the SHA-256 of a token the browser holds in
-- a signed cookie, and deleted when used (each challenge works once).

-- +goose Up
CREATE TABLE passkeys (
    id              TEXT PRIMARY KEY,
    user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    credential_id   TEXT NOT NULL,
    public_key      TEXT NOT NULL,
    sign_count      BIGINT NOT NULL DEFAULT 0,
    transports      TEXT NOT NULL DEFAULT '',
    aaguid          TEXT NOT NULL DEFAULT '',
    backup_eligible BOOLEAN NOT NULL DEFAULT FALSE,
    user_verified   BOOLEAN NOT NULL DEFAULT FALSE,
    name            TEXT NOT NULL,
    created_at      TIMESTAMP NOT NULL,
    last_used_at    TIMESTAMP
);
CREATE UNIQUE INDEX passkeys_credential_key ON passkeys (credential_id);
CREATE INDEX passkeys_user_idx ON passkeys (user_id);

CREATE TABLE webauthn_ceremonies (
    id         TEXT PRIMARY KEY,
    user_id    TEXT REFERENCES users (id) ON DELETE CASCADE,
    purpose    TEXT NOT NULL,
    data       TEXT NOT NULL,
    expires_at TIMESTAMP NOT NULL
);
CREATE INDEX webauthn_ceremonies_expiry_idx ON webauthn_ceremonies (expires_at);

ALTER TABLE users ADD COLUMN passkey_count INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE users DROP COLUMN passkey_count;
DROP TABLE webauthn_ceremonies;
DROP TABLE passkeys;

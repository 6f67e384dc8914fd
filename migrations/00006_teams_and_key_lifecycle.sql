-- Organizations as teams, and the whole key lifecycle: key scopes, expiry,
-- rolls with a grace period and leak reports; invitations; two-factor
-- sign-in. Existing data is kept: every existing key gets every scope (it
-- could do everything before), existing memberships keep their role (every
-- one so far is the organization's creator, an owner).

-- +goose Up
-- Scopes are a space-separated list of scope names.
ALTER TABLE api_keys ADD COLUMN scopes TEXT NOT NULL DEFAULT 'public logs scan gateway';
-- After expires_at the key is refused. A roll sets it to the end of the
-- grace period and rolled_at to when the replacement was made.
ALTER TABLE api_keys ADD COLUMN expires_at TIMESTAMP;
ALTER TABLE api_keys ADD COLUMN rolled_at TIMESTAMP;
-- Set when a leak report revoked the key: the owners' banner reads it.
ALTER TABLE api_keys ADD COLUMN leaked_at TIMESTAMP;
CREATE INDEX api_keys_leaked_idx ON api_keys (org_id, leaked_at);

UPDATE memberships SET role = 'owner' WHERE role NOT IN ('owner', 'admin', 'member', 'viewer');

-- An invitation is a link with a random token; only its SHA-256 is stored.
CREATE TABLE invitations (
    id          TEXT PRIMARY KEY,
    org_id      TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    email       TEXT NOT NULL,
    role        TEXT NOT NULL,
    token_hash  TEXT NOT NULL,
    invited_by  TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at  TIMESTAMP NOT NULL,
    expires_at  TIMESTAMP NOT NULL,
    accepted_at TIMESTAMP,
    accepted_by TEXT REFERENCES users (id) ON DELETE SET NULL,
    revoked_at  TIMESTAMP
);
CREATE UNIQUE INDEX invitations_token_key ON invitations (token_hash);
CREATE INDEX invitations_org_idx ON invitations (org_id, created_at);

-- Two-factor sign-in: the TOTP secret (set at enrolment, confirmed when
-- totp_enabled_at is set) and single-use recovery codes, stored hashed.
ALTER TABLE users ADD COLUMN totp_secret TEXT;
ALTER TABLE users ADD COLUMN totp_enabled_at TIMESTAMP;
-- The time step of the last code accepted: a code works once (RFC 6238 5.2).
ALTER TABLE users ADD COLUMN totp_last_step BIGINT;
CREATE TABLE recovery_codes (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash  TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    used_at    TIMESTAMP
);
CREATE INDEX recovery_codes_user_idx ON recovery_codes (user_id);

-- An owner may require two-factor sign-in of every member.
ALTER TABLE organizations ADD COLUMN require_2fa BOOLEAN NOT NULL DEFAULT FALSE;

-- +goose Down
ALTER TABLE organizations DROP COLUMN require_2fa;
DROP TABLE recovery_codes;
ALTER TABLE users DROP COLUMN totp_last_step;
ALTER TABLE users DROP COLUMN totp_enabled_at;
ALTER TABLE users DROP COLUMN totp_secret;
DROP TABLE invitations;
DROP INDEX api_keys_leaked_idx;
ALTER TABLE api_keys DROP COLUMN leaked_at;
ALTER TABLE api_keys DROP COLUMN rolled_at;
ALTER TABLE api_keys DROP COLUMN expires_at;
ALTER TABLE api_keys DROP COLUMN scopes;

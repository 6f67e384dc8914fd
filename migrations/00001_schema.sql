-- The product's tables. Portable SQL: it runs unchanged on Postgres and on
-- SQLite. IDs are prefixed strings made by the application; timestamps are
-- UTC and written by the application (no database defaults that differ).

-- +goose Up
CREATE TABLE users (
    id                  TEXT PRIMARY KEY,
    email               TEXT NOT NULL,
    password_hash       TEXT NOT NULL,
    is_staff            BOOLEAN NOT NULL DEFAULT FALSE,
    created_at          TIMESTAMP NOT NULL,
    password_changed_at TIMESTAMP NOT NULL
);
-- Emails are stored lowercased, so a plain unique index makes them
-- case-insensitively unique.
CREATE UNIQUE INDEX users_email_key ON users (email);

CREATE TABLE organizations (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    slug       TEXT NOT NULL,
    created_by TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX organizations_slug_key ON organizations (slug);

CREATE TABLE memberships (
    org_id     TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role       TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (org_id, user_id)
);
CREATE INDEX memberships_user_idx ON memberships (user_id);

-- Server-side sessions: the cookie carries a random token, the table only
-- its SHA-256, so a copy of the table cannot be replayed as cookies.
CREATE TABLE sessions (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    data         TEXT NOT NULL,
    created_at   TIMESTAMP NOT NULL,
    last_seen_at TIMESTAMP NOT NULL,
    expires_at   TIMESTAMP NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);

CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY,
    org_id       TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    hint         TEXT NOT NULL,
    hash         TEXT NOT NULL,
    created_by   TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at   TIMESTAMP NOT NULL,
    last_used_at TIMESTAMP,
    revoked_at   TIMESTAMP,
    revoked_by   TEXT REFERENCES users (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX api_keys_hash_key ON api_keys (hash);
CREATE INDEX api_keys_org_idx ON api_keys (org_id, created_at);
-- A name is unique among an organization's active keys only: a revoked
-- key's name may be reused.
CREATE UNIQUE INDEX api_keys_active_name_key ON api_keys (org_id, name) WHERE revoked_at IS NULL;

CREATE TABLE products (
    id              TEXT PRIMARY KEY,
    slug            TEXT NOT NULL,
    name            TEXT NOT NULL,
    tagline         TEXT NOT NULL,
    description     TEXT NOT NULL,
    category        TEXT NOT NULL,
    platform_pillar TEXT NOT NULL,
    lifecycle       TEXT NOT NULL,
    url             TEXT NOT NULL,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX products_slug_key ON products (slug);

CREATE TABLE entitlements (
    org_id         TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    product_id     TEXT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    monthly_tokens BIGINT NOT NULL,
    created_at     TIMESTAMP NOT NULL,
    updated_at     TIMESTAMP NOT NULL,
    revoked_at     TIMESTAMP,
    PRIMARY KEY (org_id, product_id)
);

-- One row per organization, product and calendar month (UTC): the quota
-- check and the atomic usage increment work on this row.
CREATE TABLE usage_counters (
    org_id     TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    product_id TEXT NOT NULL,
    period     TEXT NOT NULL,
    requests   BIGINT NOT NULL,
    tokens     BIGINT NOT NULL,
    PRIMARY KEY (org_id, product_id, period)
);

CREATE TABLE audit_events (
    id            TEXT PRIMARY KEY,
    org_id        TEXT,
    actor_user_id TEXT,
    actor_key_id  TEXT,
    action        TEXT NOT NULL,
    target        TEXT NOT NULL,
    ip            TEXT NOT NULL,
    request_id    TEXT NOT NULL,
    created_at    TIMESTAMP NOT NULL,
    status        INTEGER,
    error_code    TEXT,
    model         TEXT,
    stream        BOOLEAN,
    input_tokens  BIGINT,
    output_tokens BIGINT,
    upstream_ms   BIGINT,
    total_ms      BIGINT,
    detail        TEXT
);
CREATE INDEX audit_events_org_idx ON audit_events (org_id, created_at);
CREATE INDEX audit_events_action_idx ON audit_events (action, created_at);

-- +goose Down
DROP TABLE audit_events;
DROP TABLE usage_counters;
DROP TABLE entitlements;
DROP TABLE products;
DROP TABLE api_keys;
DROP TABLE sessions;
DROP TABLE memberships;
DROP TABLE organizations;
DROP TABLE users;

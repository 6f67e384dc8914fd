-- Gateway usage per organization, actor (a key or a playground user) and
-- UTC day, kept beside the audit log so the console's usage page reads a
-- few rows instead of scanning every call.

-- +goose Up
CREATE TABLE usage_daily (
    org_id        TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    product_id    TEXT NOT NULL,
    actor         TEXT NOT NULL,
    day           TEXT NOT NULL,
    requests      BIGINT NOT NULL,
    input_tokens  BIGINT NOT NULL,
    output_tokens BIGINT NOT NULL,
    PRIMARY KEY (org_id, product_id, actor, day)
);

-- +goose Down
DROP TABLE usage_daily;

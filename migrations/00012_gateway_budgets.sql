-- Monthly budgets in money (micro-dollars) for an organization's gateway
-- calls (key_id '') and, optionally, for one of its keys. A call reserves
-- its worst-case cost against each budget that applies before the
-- provider is called, and the call's record settles it to the real cost,
-- like the token quota: budget_counters holds the month's spend and live
-- reservations, budget_holds each reservation with its expiry (a crashed
-- instance's holds are released once expired). budget_alerts remembers
-- which of the 50/80/100% mails went out each month, so each goes once.

-- +goose Up
CREATE TABLE gateway_budgets (
    org_id         TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    key_id         TEXT NOT NULL DEFAULT '',
    monthly_micros BIGINT NOT NULL,
    updated_at     TIMESTAMP NOT NULL,
    PRIMARY KEY (org_id, key_id)
);

CREATE TABLE budget_counters (
    org_id          TEXT NOT NULL,
    key_id          TEXT NOT NULL,
    period          TEXT NOT NULL,
    spent_micros    BIGINT NOT NULL DEFAULT 0,
    reserved_micros BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (org_id, key_id, period)
);

CREATE TABLE budget_holds (
    id         TEXT PRIMARY KEY,
    org_id     TEXT NOT NULL,
    key_id     TEXT NOT NULL,
    period     TEXT NOT NULL,
    micros     BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX budget_holds_expiry_idx ON budget_holds (org_id, key_id, expires_at);

CREATE TABLE budget_alerts (
    org_id    TEXT NOT NULL,
    key_id    TEXT NOT NULL,
    period    TEXT NOT NULL,
    threshold INTEGER NOT NULL,
    PRIMARY KEY (org_id, key_id, period, threshold)
);

-- +goose Down
DROP TABLE budget_alerts;
DROP TABLE budget_holds;
DROP TABLE budget_counters;
DROP TABLE gateway_budgets;

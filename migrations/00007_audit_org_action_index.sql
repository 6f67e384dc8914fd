-- The console's audit log filtered by action (its gateway calls) lists an
-- organization's events of that action, newest first. With
-- (org_id, created_at) alone it read every event of the organization to
-- find them. The index on (action, created_at) served no query (nothing
-- lists one action across organizations): it is replaced, so recording
-- an event updates as many indexes as before.

-- +goose Up
CREATE INDEX audit_events_org_action_idx ON audit_events (org_id, action, created_at);
DROP INDEX audit_events_action_idx;

-- +goose Down
CREATE INDEX audit_events_action_idx ON audit_events (action, created_at);
DROP INDEX audit_events_org_action_idx;

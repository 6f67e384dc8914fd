-- The console's audit log filtered by action (a key revoked, a member's
-- role changed) lists an organization's events of that action, newest
-- first. With (org_id, created_at) alone it read every event of the
-- organization to find them, and a busy gateway writes one per call.

-- +goose Up
CREATE INDEX audit_events_org_action_idx ON audit_events (org_id, action, created_at);

-- +goose Down
DROP INDEX audit_events_org_action_idx;

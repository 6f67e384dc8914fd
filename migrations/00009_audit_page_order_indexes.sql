-- The console's audit log pages an organization's events newest first by
-- (created_at, id): id breaks ties, so a page boundary never repeats or
-- skips an event. The indexes ended at created_at, so each page sorted
-- every matching event again on id before taking its 50 (Postgres read
-- them all; SQLite sorted each run of equal times). Ending both indexes
-- with id serves the order from the index alone, filtered by action or
-- not. They replace the old ones: recording an event updates as many
-- indexes as before.

-- +goose Up
CREATE INDEX audit_events_org_page_idx ON audit_events (org_id, created_at, id);
DROP INDEX audit_events_org_idx;
CREATE INDEX audit_events_org_action_page_idx ON audit_events (org_id, action, created_at, id);
DROP INDEX audit_events_org_action_idx;

-- +goose Down
CREATE INDEX audit_events_org_action_idx ON audit_events (org_id, action, created_at);
DROP INDEX audit_events_org_action_page_idx;
CREATE INDEX audit_events_org_idx ON audit_events (org_id, created_at);
DROP INDEX audit_events_org_page_idx;

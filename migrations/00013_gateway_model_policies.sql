-- The models an organization's gateway calls may name (key_id ''), and a
-- key's own subset: a space-separated list of the model names clients
-- send (GATEWAY_CONFIG's). No row: every model.

-- +goose Up
CREATE TABLE gateway_model_policies (
    org_id     TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    key_id     TEXT NOT NULL DEFAULT '',
    models     TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    PRIMARY KEY (org_id, key_id)
);

-- +goose Down
DROP TABLE gateway_model_policies;

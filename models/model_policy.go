package models

import (
	"context"
	"strings"

	"gorm.io/gorm"
)

// ActionModelPolicySet is the audit action of a model policy set or
// cleared.
const ActionModelPolicySet = "gateway.models.set"

// ModelPolicy is the models an organization (KeyID "") or one of its keys
// may call; an empty list is every model.
type ModelPolicy struct {
	KeyID  string
	Models []string
}

// ModelPoliciesOf lists the policies that apply to a call by keyID ("":
// a playground call, the organization's only) of orgID.
func ModelPoliciesOf(ctx context.Context, db *gorm.DB, orgID, keyID string) ([]ModelPolicy, error) {
	var rows []struct{ KeyID, Models string }
	if err := db.WithContext(ctx).Raw(`SELECT key_id, models FROM gateway_model_policies WHERE org_id = ? AND (key_id = '' OR key_id = ?) ORDER BY key_id`,
		orgID, keyID).Scan(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]ModelPolicy, len(rows))
	for i, r := range rows {
		out[i] = ModelPolicy{KeyID: r.KeyID, Models: strings.Fields(r.Models)}
	}
	return out, nil
}

// SetModelPolicy sets the models of an organization (keyID "") or a key;
// an empty list removes the policy (every model).
func SetModelPolicy(tx *gorm.DB, orgID, keyID string, models []string) error {
	if len(models) == 0 {
		return tx.Exec(`DELETE FROM gateway_model_policies WHERE org_id = ? AND key_id = ?`, orgID, keyID).Error
	}
	return tx.Exec(`INSERT INTO gateway_model_policies (org_id, key_id, models, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (org_id, key_id) DO UPDATE SET models = excluded.models, updated_at = excluded.updated_at`,
		orgID, keyID, strings.Join(models, " "), Now()).Error
}

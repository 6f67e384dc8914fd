package models

import (
	"context"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// RollAPIKey replaces an active key of an organization by next, which
// takes the old key's name and scopes (next carries its own hash, hint and
// expiry). The old key keeps working until graceEnd (sooner if it expired
// before), renamed "<name> (rolled …)" so the name is free for next.
// The old key counts against MaxActiveKeys until then.
func RollAPIKey(ctx context.Context, db *gorm.DB, orgID, keyID string, next *APIKey, graceEnd time.Time) (*APIKey, error) {
	var old APIKey
	err := withinKeyBound(ctx, db, orgID, func(tx *gorm.DB) error {
		if err := tx.Where("id = ? AND org_id = ? AND revoked_at IS NULL AND rolled_at IS NULL", keyID, orgID).Take(&old).Error; err != nil {
			return notFound(err)
		}
		if old.Expired(Now()) {
			return ErrNotFound
		}
		end := graceEnd
		if old.ExpiresAt != nil && old.ExpiresAt.Before(end) {
			end = *old.ExpiresAt
		}
		if err := tx.Model(&APIKey{}).Where("id = ?", old.ID).Updates(map[string]any{
			"name": old.Name + " (rolled " + old.Hint + ")", "rolled_at": Now(), "expires_at": end,
		}).Error; err != nil {
			return err
		}
		next.OrgID, next.Name, next.Scopes = old.OrgID, old.Name, old.Scopes
		if err := checkMaker(tx, orgID, next.CreatedBy, next.Scopes); err != nil {
			return err
		}
		return tx.Create(next).Error
	})
	return &old, err
}

// RevokeLeakedKeys revokes, at once, the keys with these hashes that are
// still active, marks them leaked, and returns them (to audit and to tell
// their organizations' owners).
func RevokeLeakedKeys(ctx context.Context, db *gorm.DB, hashes []string) ([]APIKey, error) {
	if len(hashes) == 0 {
		return nil, nil
	}
	var found []APIKey
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Where("hash IN ? AND revoked_at IS NULL", hashes).Find(&found).Error; err != nil {
			return err
		}
		if len(found) == 0 {
			return nil
		}
		ids := make([]string, len(found))
		for i, k := range found {
			ids[i] = k.ID
		}
		now := Now()
		return tx.Model(&APIKey{}).Where("id IN ? AND revoked_at IS NULL", ids).
			Updates(map[string]any{"revoked_at": now, "leaked_at": now}).Error
	})
	return found, err
}

// MarkLeaksSeen marks the leaks of the organization's keys ids as handled
// and returns the keys it marked: only leaked keys of that organization
// not marked before, so a key of another organization, or a leak reported
// after the owner's page was shown, is left alone. One statement marks
// and returns them, so two owners marking at once mark each key once.
func MarkLeaksSeen(ctx context.Context, db *gorm.DB, orgID string, ids []string) ([]APIKey, error) {
	var marked []APIKey
	if len(ids) == 0 {
		return nil, nil
	}
	err := db.WithContext(ctx).Model(&marked).Clauses(clause.Returning{}).
		Where("org_id = ? AND id IN ? AND leaked_at IS NOT NULL AND leak_seen_at IS NULL", orgID, ids).
		Update("leak_seen_at", Now()).Error
	return marked, err
}

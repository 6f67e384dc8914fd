package models

import (
	"context"
	"errors"

	"gorm.io/gorm"
)

// ActionOrgDelete is the audit action of deleting an organization.
const ActionOrgDelete = "org.delete"

// ErrNotOwner refuses deleting an organization by someone who is not (or
// no longer) one of its owners.
var ErrNotOwner = errors.New("only an owner can delete the organization")

// DeleteOrg deletes an organization in one transaction and records e, its
// audit event, in the same one. The schema's ON DELETE CASCADE removes its
// keys (so they are refused from then on), memberships (so every session
// that had it as its current organization loses it on its next request),
// invitations, entitlements and usage; audit events, which have no foreign
// key, are kept. With ownerID set, the deletion is refused with
// ErrNotOwner unless that user is an owner at that moment. It returns the
// ids of the organization's keys, for the verifier's cache to forget.
func DeleteOrg(ctx context.Context, db *gorm.DB, orgID string, ownerID *string, e *AuditEvent) (keyIDs []string, err error) {
	err = db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockOrg(tx, orgID); err != nil {
			return err
		}
		if ownerID != nil {
			var m Membership
			err := tx.Where("org_id = ? AND user_id = ?", orgID, *ownerID).Take(&m).Error
			if errors.Is(err, gorm.ErrRecordNotFound) || err == nil && m.Role != RoleOwner {
				return ErrNotOwner
			}
			if err != nil {
				return err
			}
		}
		if err := tx.Model(&APIKey{}).Where("org_id = ?", orgID).Pluck("id", &keyIDs).Error; err != nil {
			return err
		}
		if err := tx.Where("id = ?", orgID).Delete(&Organization{}).Error; err != nil {
			return err
		}
		return RecordAudit(ctx, tx, e)
	})
	return keyIDs, err
}

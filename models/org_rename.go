package models

import (
	"context"

	"gorm.io/gorm"
)

// ActionOrgRename is the audit action of renaming an organization.
const ActionOrgRename = "org.rename"

// RenameOrg gives an organization a new name. Its slug stays: scripts and
// the CLI name organizations by slug, and a rename must not break them.
func RenameOrg(ctx context.Context, db *gorm.DB, orgID, name string) error {
	res := db.WithContext(ctx).Model(&Organization{}).Where("id = ?", orgID).Update("name", name)
	if res.Error == nil && res.RowsAffected == 0 {
		return ErrNotFound
	}
	return res.Error
}

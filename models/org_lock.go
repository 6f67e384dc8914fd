package models

import (
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// lockOrg takes the organization's row lock for the rest of tx, so that
// changes checked against the organization's state (its owners, its
// number of keys) are made one at a time. SQLite serializes writers
// already.
func lockOrg(tx *gorm.DB, orgID string) error {
	lock := tx
	if tx.Dialector.Name() == "postgres" {
		lock = tx.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	var org Organization
	return notFound(lock.Where("id = ?", orgID).Take(&org).Error)
}

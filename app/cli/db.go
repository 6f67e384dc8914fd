package cli

import (
	"context"
	"fmt"
	"strings"

	"gorm.io/gorm"

	"parapet/app"
	"parapet/models"
)

// openDB opens the database without migrating it: admin commands need an
// up-to-date schema, which `parapet migrate` provides.
func openDB(cfg app.Config) (*models.DB, error) {
	return models.Open(cfg.DatabaseURL, 4)
}

// withDB runs an admin command's work on the configured database. Admin
// commands do not migrate, so a missing table or column means a database
// that was never (or not fully) migrated, and the error says what to do.
func (r *runner) withDB(ctx context.Context, fn func(db *gorm.DB, cfg app.Config) error) error {
	cfg, err := r.config()
	if err != nil {
		return err
	}
	db, err := openDB(cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	err = fn(db.DB.WithContext(ctx), cfg)
	if err != nil && isMissingSchema(err) {
		return fmt.Errorf("%w\nthe database schema is missing or out of date: run `parapet migrate` first", err)
	}
	return err
}

// isMissingSchema tells a missing table or column (SQLite's "no such …",
// Postgres's SQLSTATE 42P01 and 42703) apart from other failures.
func isMissingSchema(err error) bool {
	msg := err.Error()
	for _, s := range []string{"no such table", "no such column", "SQLSTATE 42P01", "SQLSTATE 42703"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

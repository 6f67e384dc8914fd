package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"gorm.io/gorm"

	"parapet/app"
	"parapet/models"
)

// openDB loads the configuration and opens the database without migrating
// it: admin commands need an up-to-date schema, which `parapet migrate`
// provides. The configuration's warnings are about serving (sessions, the
// gateway's upstream, metrics), so they are not printed here.
func (r *runner) openDB() (*models.DB, app.Config, error) {
	cfg, _, err := app.LoadConfig(r.getenv)
	if err != nil {
		return nil, cfg, err
	}
	db, err := models.Open(cfg.DatabaseURL, 4)
	return db, cfg, err
}

// work is what an admin command works with: the database in the command's
// context, the configuration, and the organization its --org names.
type work struct {
	db  *gorm.DB
	cfg app.Config
	org *models.Organization
}

// withDB runs an admin command's work on the configured database, once it
// has found the organization c's --org names. Admin commands do not
// migrate, so a missing table or column means a database that was never
// (or not fully) migrated, and the error says what to do.
func (r *runner) withDB(ctx context.Context, c *cmdline, fn func(w *work) error) error {
	db, cfg, err := r.openDB()
	if err != nil {
		return err
	}
	defer db.Close()
	w := &work{db: db.DB.WithContext(ctx), cfg: cfg}
	if c.orgRef != nil {
		w.org, err = findOrg(ctx, w.db, *c.orgRef)
	}
	if err == nil {
		err = fn(w)
	}
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

// audited makes a change and records its audit event in one transaction,
// so the audit log never misses an operator's change, nor records one
// that did not happen. change returns the event, or nil when it changed
// nothing; the event is recorded only when change returns no error. The
// event comes from the command line, not a request: its IP and request id
// say "cli".
func (w *work) audited(change func(tx *gorm.DB) (*models.AuditEvent, error)) error {
	return w.db.Transaction(func(tx *gorm.DB) error {
		e, err := change(tx)
		if err != nil || e == nil {
			return err
		}
		e.IP, e.RequestID = "cli", "cli"
		return models.RecordAudit(tx.Statement.Context, tx, e) // the command's context, as w.db's
	})
}

// notFound is err, unless it is models.ErrNotFound: then the error that
// says, in the command's words, what was not found.
func notFound(err error, format string, a ...any) error {
	if errors.Is(err, models.ErrNotFound) {
		return fmt.Errorf(format, a...)
	}
	return err
}

// findOrg finds the organization ORG names, by id or slug.
func findOrg(ctx context.Context, db *gorm.DB, ref string) (*models.Organization, error) {
	org, err := models.OrgByIDOrSlug(ctx, db, ref)
	return org, notFound(err, "no organization has the id or slug %q", ref)
}

// findUser finds an account by email.
func findUser(ctx context.Context, db *gorm.DB, email string) (*models.User, error) {
	u, err := models.UserByEmail(ctx, db, email)
	return u, notFound(err, "no account has the email %q", email)
}

// findProduct finds a product of the registry by slug.
func findProduct(ctx context.Context, db *gorm.DB, slug string) (*models.Product, error) {
	p, err := models.ProductBySlug(ctx, db, slug)
	return p, notFound(err, "no product has the slug %q", slug)
}

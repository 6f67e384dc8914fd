package cli

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"gorm.io/gorm"

	"parapet/app"
	"parapet/models"
)

// runOrgCreate creates an organization with the default entitlements, as
// the console does; with --owner, an existing account owns it.
func runOrgCreate(ctx context.Context, r *runner, args []string) error {
	fs := newFlags()
	name := fs.String("name", "", "the organization's name")
	owner := fs.String("owner", "", "the email of an existing account that will own it")
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	if err := requireFlags(fs, "name"); err != nil {
		return err
	}
	// Runs of spaces collapse, as in the console's form.
	orgName := strings.Join(strings.Fields(*name), " ")
	if utf8.RuneCountInString(orgName) > models.MaxOrgNameLength {
		return usageError{fmt.Sprintf("--name must be at most %d characters long", models.MaxOrgNameLength)}
	}
	return r.withDB(ctx, func(db *gorm.DB, cfg app.Config) error {
		var ownerID string
		var actor *string
		if *owner != "" {
			u, err := findUser(ctx, db, *owner)
			if err != nil {
				return err
			}
			ownerID, actor = u.ID, &u.ID
		}
		var org *models.Organization
		err := audited(ctx, db, func(tx *gorm.DB) (*models.AuditEvent, error) {
			var err error
			if org, err = models.CreateOrg(ctx, tx, orgName, ownerID, cfg.Gateway.MonthlyTokens); err != nil {
				return nil, err
			}
			return &models.AuditEvent{OrgID: &org.ID, ActorUserID: actor, Action: models.ActionOrgCreate,
				Target: org.Name + " (" + org.Slug + ")"}, nil
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(r.stdout, "created organization %s (slug %s)\n", org.ID, org.Slug)
		return nil
	})
}

// runOrgDelete deletes an organization, as its owner can in the console.
// Its keys are refused by running servers within the verifier's cache
// time, as with `key revoke`.
func runOrgDelete(ctx context.Context, r *runner, args []string) error {
	fs := newFlags()
	orgRef := fs.String("org", "", "the organization's id or slug")
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	if err := requireFlags(fs, "org"); err != nil {
		return err
	}
	return r.withDB(ctx, func(db *gorm.DB, _ app.Config) error {
		org, err := findOrg(ctx, db, *orgRef)
		if err != nil {
			return err
		}
		e := &models.AuditEvent{OrgID: &org.ID, Action: models.ActionOrgDelete, Target: org.Name + " (" + org.Slug + ")", IP: "cli", RequestID: "cli"}
		if _, err := models.DeleteOrg(ctx, db, org.ID, nil, e); err != nil {
			return err
		}
		fmt.Fprintf(r.stdout, "deleted organization %s (slug %s)\n", org.ID, org.Slug)
		return nil
	})
}

package cli

import (
	"context"
	"fmt"
	"strings"

	"gorm.io/gorm"

	"parapet/models"
)

var orgCommands = []command{
	{"org create", "--name N [--owner EMAIL]", "create an organization, owned by an existing account if given", runOrgCreate},
	{"org delete", "--org ORG", "delete an organization: its keys, members, invitations and usage (audit events stay)", runOrgDelete},
}

// runOrgCreate creates an organization with the default entitlements, as
// the console does; with --owner, an existing account owns it.
func runOrgCreate(ctx context.Context, r *runner, c *cmdline) error {
	name := c.need("name", "the organization's name")
	owner := c.String("owner", "", "the email of an existing account that will own it")
	if _, err := c.parse(); err != nil {
		return err
	}
	// Runs of spaces collapse, as in the console's form.
	orgName := strings.Join(strings.Fields(*name), " ")
	if msg := models.OrgNameProblem(orgName); msg != "" {
		return usageError{"--name: " + msg}
	}
	return r.withDB(ctx, c, func(w *work) error {
		var ownerID string
		var actor *string
		if *owner != "" {
			u, err := findUser(ctx, w.db, *owner)
			if err != nil {
				return err
			}
			ownerID, actor = u.ID, &u.ID
		}
		var org *models.Organization
		err := w.audited(func(tx *gorm.DB) (*models.AuditEvent, error) {
			var err error
			if org, err = models.CreateOrg(ctx, tx, orgName, ownerID, w.cfg.Gateway.MonthlyTokens); err != nil {
				return nil, err
			}
			return &models.AuditEvent{OrgID: &org.ID, ActorUserID: actor, Action: models.ActionOrgCreate, Target: org.AuditTarget()}, nil
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
// time, as with `key revoke`. DeleteOrg records the audit event itself,
// in the transaction that deletes.
func runOrgDelete(ctx context.Context, r *runner, c *cmdline) error {
	c.needOrg()
	if _, err := c.parse(); err != nil {
		return err
	}
	return r.withDB(ctx, c, func(w *work) error {
		e := &models.AuditEvent{OrgID: &w.org.ID, Action: models.ActionOrgDelete, Target: w.org.AuditTarget(), IP: "cli", RequestID: "cli"}
		if _, err := models.DeleteOrg(ctx, w.db, w.org.ID, nil, e); err != nil {
			return err
		}
		fmt.Fprintf(r.stdout, "deleted organization %s (slug %s)\n", w.org.ID, w.org.Slug)
		return nil
	})
}

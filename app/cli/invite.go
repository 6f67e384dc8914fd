package cli

import (
	"context"
	"errors"
	"fmt"
	"text/tabwriter"
	"time"

	"gorm.io/gorm"

	"parapet/app"
	"parapet/models"
)

// runInviteCreate invites an email to an organization and prints the
// link: built on PUBLIC_URL, or a path when it is unset. The token exists
// only in this output (and the mail the console sends).
func runInviteCreate(ctx context.Context, r *runner, args []string) error {
	fs := newFlags()
	orgRef := fs.String("org", "", "the organization's id or slug")
	email := fs.String("email", "", "whom to invite")
	role := fs.String("role", models.RoleMember, "the role they get: owner, admin, member or viewer")
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	if err := requireFlags(fs, "org", "email"); err != nil {
		return err
	}
	if err := checkEmail(models.NormalizeEmail(*email)); err != nil {
		return err
	}
	if err := checkRole(*role); err != nil {
		return err
	}
	return r.withDB(ctx, func(db *gorm.DB, cfg app.Config) error {
		org, err := findOrg(ctx, db, *orgRef)
		if err != nil {
			return err
		}
		var inv *models.Invitation
		var token string
		err = audited(ctx, db, func(tx *gorm.DB) (*models.AuditEvent, error) {
			if inv, token, err = models.CreateInvitation(ctx, tx, org.ID, *email, *role, nil); err != nil {
				return nil, err
			}
			return &models.AuditEvent{OrgID: &org.ID, Action: models.ActionInviteCreate, Target: inv.Email + " as " + inv.Role}, nil
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(r.stdout, "id: %s\nlink: %s\nexpires: %s\n", inv.ID, cfg.PublicURL+models.InvitationPath(org.ID, token), formatTime(inv.ExpiresAt))
		return nil
	})
}

// runInviteList lists an organization's invitations with their state.
func runInviteList(ctx context.Context, r *runner, args []string) error {
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
		rows, err := models.InvitationsOfOrg(ctx, db, org.ID)
		if err != nil {
			return err
		}
		now := time.Now()
		tw := tabwriter.NewWriter(r.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tEMAIL\tROLE\tSTATE\tCREATED\tEXPIRES")
		for _, i := range rows {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", i.ID, i.Email, i.Role, i.State(now), formatTime(i.CreatedAt), formatTime(i.ExpiresAt))
		}
		return tw.Flush()
	})
}

// runInviteRevoke revokes a pending invitation.
func runInviteRevoke(ctx context.Context, r *runner, args []string) error {
	fs := newFlags()
	orgRef := fs.String("org", "", "the organization's id or slug")
	pos, err := parseArgs(fs, args, "INVITATION_ID")
	if err != nil {
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
		inv, err := models.InvitationOfOrg(ctx, db, org.ID, pos[0])
		if errors.Is(err, models.ErrNotFound) {
			return fmt.Errorf("%s has no invitation with the id %q", org.Slug, pos[0])
		}
		if err != nil {
			return err
		}
		var revoked bool
		err = audited(ctx, db, func(tx *gorm.DB) (*models.AuditEvent, error) {
			if revoked, err = models.RevokeInvitation(ctx, tx, org.ID, inv.ID); err != nil || !revoked {
				return nil, err
			}
			return &models.AuditEvent{OrgID: &org.ID, Action: models.ActionInviteRevoke, Target: inv.Email + " as " + inv.Role}, nil
		})
		if err != nil {
			return err
		}
		if !revoked {
			return fmt.Errorf("the invitation of %s is %s: only a pending invitation can be revoked", inv.Email, inv.State(time.Now()))
		}
		fmt.Fprintf(r.stdout, "revoked the invitation of %s\n", inv.Email)
		return nil
	})
}

package cli

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"

	"parapet/models"
)

var inviteCommands = []command{
	{"invite create", "--org ORG --email E [--role R]", "invite an email (as member by default) and print the link", runInviteCreate},
	{"invite list", "--org ORG", "list an organization's invitations and their states", inviteList.run},
	{"invite revoke", "--org ORG INVITATION_ID", "revoke a pending invitation", runInviteRevoke},
}

// runInviteCreate invites an email to an organization and prints the
// link: built on PUBLIC_URL, or a path when it is unset. The token exists
// only in this output (and the mail the console sends).
func runInviteCreate(ctx context.Context, r *runner, c *cmdline) error {
	c.needOrg()
	email := c.need("email", "whom to invite")
	role := c.String("role", models.RoleMember, "the role they get: owner, admin, member or viewer")
	if _, err := c.parse(); err != nil {
		return err
	}
	if err := checkEmail(models.NormalizeEmail(*email)); err != nil {
		return err
	}
	if err := checkRole(*role); err != nil {
		return err
	}
	return r.withDB(ctx, c, func(w *work) error {
		var inv *models.Invitation
		var token string
		err := w.audited(func(tx *gorm.DB) (*models.AuditEvent, error) {
			var err error
			if inv, token, err = models.CreateInvitation(ctx, tx, w.org.ID, *email, *role, nil); err != nil {
				return nil, err
			}
			return &models.AuditEvent{OrgID: &w.org.ID, Action: models.ActionInviteCreate, Target: inv.AuditTarget()}, nil
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(r.stdout, "id: %s\nlink: %s\nexpires: %s\n", inv.ID, w.cfg.PublicURL+models.InvitationPath(w.org.ID, token), formatTime(inv.ExpiresAt))
		return nil
	})
}

// inviteList lists an organization's invitations with their state.
var inviteList = list[models.InvitationRow]{
	org: true,
	load: func(ctx context.Context, w *work) ([]models.InvitationRow, error) {
		return models.InvitationsOfOrg(ctx, w.db, w.org.ID)
	},
	header: []string{"ID", "EMAIL", "ROLE", "STATE", "CREATED", "EXPIRES"},
	cells: func(i models.InvitationRow, now time.Time) []string {
		return []string{i.ID, i.Email, i.Role, i.State(now), formatTime(i.CreatedAt), formatTime(i.ExpiresAt)}
	},
}

// runInviteRevoke revokes a pending invitation.
func runInviteRevoke(ctx context.Context, r *runner, c *cmdline) error {
	c.needOrg()
	pos, err := c.parse("INVITATION_ID")
	if err != nil {
		return err
	}
	return r.withDB(ctx, c, func(w *work) error {
		inv, err := models.InvitationOfOrg(ctx, w.db, w.org.ID, pos[0])
		if err != nil {
			return notFound(err, "%s has no invitation with the id %q", w.org.Slug, pos[0])
		}
		var revoked bool
		err = w.audited(func(tx *gorm.DB) (*models.AuditEvent, error) {
			var err error
			if revoked, err = models.RevokeInvitation(ctx, tx, w.org.ID, inv.ID); err != nil || !revoked {
				return nil, err
			}
			return &models.AuditEvent{OrgID: &w.org.ID, Action: models.ActionInviteRevoke, Target: inv.AuditTarget()}, nil
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

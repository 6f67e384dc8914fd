package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"

	"parapet/models"
)

var memberCommands = []command{
	{"member list", "--org ORG [--json]", "list an organization's members: email and role, one per line", memberList.run},
	{"member set-role", "--org ORG --email E --role R", "change a member's role (owner, admin, member, viewer)", runMemberSetRole},
	{"member remove", "--org ORG --email E", "remove a member; the last owner stays", runMemberRemove},
}

// memberJSON is a member as `member list --json` prints them.
type memberJSON struct {
	Email    string    `json:"email"`
	Role     string    `json:"role"`
	JoinedAt time.Time `json:"joined_at"`
}

// memberList prints an organization's members, one per line.
var memberList = list[models.MemberRow]{
	org: true,
	load: func(ctx context.Context, w *work) ([]models.MemberRow, error) {
		return models.MembersOfOrg(ctx, w.db, w.org.ID)
	},
	cells: func(m models.MemberRow, _ time.Time) []string { return []string{m.Email, m.Role} },
	json: func(m models.MemberRow, _ time.Time) any {
		return memberJSON{Email: m.Email, Role: m.Role, JoinedAt: m.CreatedAt}
	},
}

// runMemberSetRole changes a member's role; the last owner keeps theirs.
func runMemberSetRole(ctx context.Context, r *runner, c *cmdline) error {
	c.needOrg()
	email := c.need("email", "the member's email")
	role := c.need("role", "the new role: "+strings.Join(models.Roles, ", "))
	if _, err := c.parse(); err != nil {
		return err
	}
	if err := checkRole(*role); err != nil {
		return err
	}
	return r.withDB(ctx, c, func(w *work) error {
		m, err := findMember(ctx, w.db, w.org, *email)
		if err != nil {
			return err
		}
		detail := m.Role + " → " + *role
		err = w.audited(func(tx *gorm.DB) (*models.AuditEvent, error) {
			return &models.AuditEvent{OrgID: &w.org.ID, Action: models.ActionMemberRole, Target: m.Email, Detail: &detail},
				models.SetMemberRole(ctx, tx, w.org.ID, "", m.UserID, *role)
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(r.stdout, "%s is now %s of %s\n", m.Email, *role, w.org.Slug)
		return nil
	})
}

// runMemberRemove removes a member; the last owner stays.
func runMemberRemove(ctx context.Context, r *runner, c *cmdline) error {
	c.needOrg()
	email := c.need("email", "the member's email")
	if _, err := c.parse(); err != nil {
		return err
	}
	return r.withDB(ctx, c, func(w *work) error {
		m, err := findMember(ctx, w.db, w.org, *email)
		if err != nil {
			return err
		}
		err = w.audited(func(tx *gorm.DB) (*models.AuditEvent, error) {
			return &models.AuditEvent{OrgID: &w.org.ID, Action: models.ActionMemberRemove, Target: m.Email},
				models.RemoveMember(ctx, tx, w.org.ID, "", m.UserID)
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(r.stdout, "removed %s from %s\n", m.Email, w.org.Slug)
		return nil
	})
}

// findMember finds the member of org with an email.
func findMember(ctx context.Context, db *gorm.DB, org *models.Organization, email string) (*models.MemberRow, error) {
	u, err := findUser(ctx, db, email)
	if err != nil {
		return nil, err
	}
	m, err := models.MemberOf(ctx, db, org.ID, u.ID)
	return m, notFound(err, "%s is not a member of %s", u.Email, org.Slug)
}

// checkRole holds a --role value to the list of roles.
func checkRole(role string) error {
	if !models.ValidRole(role) {
		return usageError{"--role must be one of " + strings.Join(models.Roles, ", ")}
	}
	return nil
}

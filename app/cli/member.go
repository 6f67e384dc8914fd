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
	{"member set-role", "--org ORG --email E --role R [--keep KEY_ID]...", "change a member's role (owner, admin, member, viewer); a lower role revokes the keys they made but those kept", runMemberSetRole},
	{"member remove", "--org ORG --email E [--keep KEY_ID]...", "remove a member, revoking the keys they made but those kept; the last owner stays", runMemberRemove},
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
	var keep stringList
	c.Var(&keep, "keep", "a key the member made to keep working when the role is lowered (repeat it; a viewer keeps no gateway key)")
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
		var ended *models.EndedKeys
		err = w.audited(func(tx *gorm.DB) (*models.AuditEvent, error) {
			if ended, err = models.SetMemberRole(ctx, tx, w.org.ID, "", m.UserID, *role, keep...); err != nil {
				return nil, err
			}
			return &models.AuditEvent{OrgID: &w.org.ID, Action: models.ActionMemberRole, Target: m.Email, Detail: &detail},
				recordEndedKeys(ctx, tx, w.org.ID, ended, m.Email+", whose role was lowered to "+*role)
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(r.stdout, "%s is now %s of %s\n", m.Email, *role, w.org.Slug)
		printEndedKeys(r, ended)
		return nil
	})
}

// runMemberRemove removes a member; the last owner stays.
func runMemberRemove(ctx context.Context, r *runner, c *cmdline) error {
	c.needOrg()
	email := c.need("email", "the member's email")
	var keep stringList
	c.Var(&keep, "keep", "a key the member made to keep working, marked as made by a former member (repeat it)")
	if _, err := c.parse(); err != nil {
		return err
	}
	return r.withDB(ctx, c, func(w *work) error {
		m, err := findMember(ctx, w.db, w.org, *email)
		if err != nil {
			return err
		}
		var ended *models.EndedKeys
		err = w.audited(func(tx *gorm.DB) (*models.AuditEvent, error) {
			if ended, err = models.RemoveMember(ctx, tx, w.org.ID, "", m.UserID, keep...); err != nil {
				return nil, err
			}
			return &models.AuditEvent{OrgID: &w.org.ID, Action: models.ActionMemberRemove, Target: m.Email},
				recordEndedKeys(ctx, tx, w.org.ID, ended, m.Email+", who was removed")
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(r.stdout, "removed %s from %s\n", m.Email, w.org.Slug)
		printEndedKeys(r, ended)
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

// recordEndedKeys audits, in the change's transaction, what became of a
// member's keys (one event per key), as the console does.
func recordEndedKeys(ctx context.Context, tx *gorm.DB, orgID string, ended *models.EndedKeys, who string) error {
	record := func(action string, k models.APIKey, detail string) error {
		return models.RecordAudit(ctx, tx, &models.AuditEvent{OrgID: &orgID, Action: action, Target: k.AuditTarget(),
			Detail: &detail, IP: "cli", RequestID: "cli"})
	}
	for _, k := range ended.Revoked {
		if err := record(models.ActionKeyRevoke, k, "made by "+who); err != nil {
			return err
		}
	}
	for _, k := range ended.Kept {
		if err := record(models.ActionKeyKeep, k, "made by "+who+"; kept"); err != nil {
			return err
		}
	}
	return nil
}

// printEndedKeys says which of a member's keys were revoked or kept.
func printEndedKeys(r *runner, ended *models.EndedKeys) {
	for _, k := range ended.Revoked {
		fmt.Fprintf(r.stdout, "revoked key %s, %s\n", k.ID, k.AuditTarget())
	}
	for _, k := range ended.Kept {
		fmt.Fprintf(r.stdout, "kept key %s, %s\n", k.ID, k.AuditTarget())
	}
}

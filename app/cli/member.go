package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"gorm.io/gorm"

	"parapet/app"
	"parapet/models"
)

// memberJSON is a member as `member list --json` prints them.
type memberJSON struct {
	Email    string    `json:"email"`
	Role     string    `json:"role"`
	JoinedAt time.Time `json:"joined_at"`
}

// runMemberList prints an organization's members, one per line.
func runMemberList(ctx context.Context, r *runner, args []string) error {
	fs := newFlags()
	orgRef := fs.String("org", "", "the organization's id or slug")
	asJSON := fs.Bool("json", false, "print a JSON array")
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
		rows, err := models.MembersOfOrg(ctx, db, org.ID)
		if err != nil {
			return err
		}
		if *asJSON {
			out := make([]memberJSON, 0, len(rows))
			for _, m := range rows {
				out = append(out, memberJSON{Email: m.Email, Role: m.Role, JoinedAt: m.CreatedAt})
			}
			return printJSON(r.stdout, out)
		}
		tw := tabwriter.NewWriter(r.stdout, 0, 0, 2, ' ', 0)
		for _, m := range rows {
			fmt.Fprintf(tw, "%s\t%s\n", m.Email, m.Role)
		}
		return tw.Flush()
	})
}

// checkRole holds a --role value to the list of roles.
func checkRole(role string) error {
	if !models.ValidRole(role) {
		return usageError{"--role must be one of " + strings.Join(models.Roles, ", ")}
	}
	return nil
}

// findMember finds the member of org with an email.
func findMember(ctx context.Context, db *gorm.DB, org *models.Organization, email string) (*models.MemberRow, error) {
	u, err := findUser(ctx, db, email)
	if err != nil {
		return nil, err
	}
	m, err := models.MemberOf(ctx, db, org.ID, u.ID)
	if errors.Is(err, models.ErrNotFound) {
		return nil, fmt.Errorf("%s is not a member of %s", u.Email, org.Slug)
	}
	return m, err
}

// runMemberSetRole changes a member's role; the last owner keeps theirs.
func runMemberSetRole(ctx context.Context, r *runner, args []string) error {
	fs := newFlags()
	orgRef := fs.String("org", "", "the organization's id or slug")
	email := fs.String("email", "", "the member's email")
	role := fs.String("role", "", "the new role: "+strings.Join(models.Roles, ", "))
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	if err := requireFlags(fs, "org", "email", "role"); err != nil {
		return err
	}
	if err := checkRole(*role); err != nil {
		return err
	}
	return r.withDB(ctx, func(db *gorm.DB, _ app.Config) error {
		org, err := findOrg(ctx, db, *orgRef)
		if err != nil {
			return err
		}
		m, err := findMember(ctx, db, org, *email)
		if err != nil {
			return err
		}
		err = audited(ctx, db, func(tx *gorm.DB) (*models.AuditEvent, error) {
			if err := models.SetMemberRole(ctx, tx, org.ID, m.UserID, *role); err != nil {
				return nil, err
			}
			detail := m.Role + " → " + *role
			return &models.AuditEvent{OrgID: &org.ID, Action: models.ActionMemberRole, Target: m.Email, Detail: &detail}, nil
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(r.stdout, "%s is now %s of %s\n", m.Email, *role, org.Slug)
		return nil
	})
}

// runMemberRemove removes a member; the last owner stays.
func runMemberRemove(ctx context.Context, r *runner, args []string) error {
	fs := newFlags()
	orgRef := fs.String("org", "", "the organization's id or slug")
	email := fs.String("email", "", "the member's email")
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	if err := requireFlags(fs, "org", "email"); err != nil {
		return err
	}
	return r.withDB(ctx, func(db *gorm.DB, _ app.Config) error {
		org, err := findOrg(ctx, db, *orgRef)
		if err != nil {
			return err
		}
		m, err := findMember(ctx, db, org, *email)
		if err != nil {
			return err
		}
		err = audited(ctx, db, func(tx *gorm.DB) (*models.AuditEvent, error) {
			if err := models.RemoveMember(ctx, tx, org.ID, m.UserID); err != nil {
				return nil, err
			}
			return &models.AuditEvent{OrgID: &org.ID, Action: models.ActionMemberRemove, Target: m.Email}, nil
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(r.stdout, "removed %s from %s\n", m.Email, org.Slug)
		return nil
	})
}

package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"gorm.io/gorm"

	"parapet/app/auth"
	"parapet/models"
)

var userCommands = []command{
	{"user create", "--email E  (password on stdin)", "create an account; its password is the first line of stdin", runUserCreate},
	{"user staff", "--email E [--revoke]", "grant staff rights to an account (--revoke takes them away)", runUserStaff},
}

// runUserCreate creates an account. The password comes from stdin rather
// than a flag so that it stays out of shell history and the process list.
func runUserCreate(ctx context.Context, r *runner, c *cmdline) error {
	email := c.need("email", "the account's email address")
	if _, err := c.parse(); err != nil {
		return err
	}
	if err := checkEmail(strings.TrimSpace(*email)); err != nil {
		return err
	}
	pw, err := readPassword(r.stdin)
	if err != nil {
		return err
	}
	if err := auth.CheckNewPassword(pw, strings.TrimSpace(*email)); err != nil {
		return err
	}
	hash, err := auth.HashPassword(pw)
	if err != nil {
		return err
	}
	return r.withDB(ctx, c, func(w *work) error {
		var u *models.User
		err := w.audited(func(tx *gorm.DB) (*models.AuditEvent, error) {
			var err error
			if u, err = models.CreateUser(ctx, tx, *email, hash); err != nil {
				return nil, err
			}
			// An operator vouches for the address of an account they make.
			if err := models.SetEmailVerified(ctx, tx, u.ID); err != nil {
				return nil, err
			}
			return &models.AuditEvent{ActorUserID: &u.ID, Action: models.ActionUserCreate, Target: u.Email}, nil
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(r.stdout, "created user %s (%s)\n", u.ID, u.Email)
		return nil
	})
}

// runUserStaff grants or takes away the staff flag. Staff rights reach
// every organization's products, so each change is audited.
func runUserStaff(ctx context.Context, r *runner, c *cmdline) error {
	email := c.need("email", "the account's email address")
	revoke := c.Bool("revoke", false, "take staff rights away instead of granting them")
	if _, err := c.parse(); err != nil {
		return err
	}
	return r.withDB(ctx, c, func(w *work) error {
		u, err := findUser(ctx, w.db, *email)
		if err != nil {
			return err
		}
		action, now := models.ActionStaffGrant, "now staff"
		if *revoke {
			action, now = models.ActionStaffRevoke, "no longer staff"
		}
		err = w.audited(func(tx *gorm.DB) (*models.AuditEvent, error) {
			if u.IsStaff == !*revoke {
				return nil, nil // nothing changes, nothing to record
			}
			return &models.AuditEvent{ActorUserID: &u.ID, Action: action, Target: u.Email},
				models.SetStaff(ctx, tx, u.ID, !*revoke)
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(r.stdout, "%s is %s\n", u.Email, now)
		return nil
	})
}

// checkEmail holds an address to the sign-up form's rule: one bare
// address, with a dot in its domain.
func checkEmail(email string) error {
	if !models.ValidEmail(email) {
		return usageError{fmt.Sprintf("--email %q is not a valid email address", email)}
	}
	return nil
}

// readPassword reads the first line of stdin without its line ending, so
// that a pipe, a here-doc and a file with Windows line endings all work.
func readPassword(stdin io.Reader) (string, error) {
	line, err := bufio.NewReader(stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("read the password from stdin: %w", err)
	}
	pw := strings.TrimRight(line, "\r\n")
	if pw == "" {
		return "", errors.New("no password on stdin: give it as the first line of stdin")
	}
	return pw, nil
}

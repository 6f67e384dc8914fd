package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"gorm.io/gorm"

	"parapet/app"
	"parapet/app/auth"
	"parapet/models"
)

// runUserCreate creates an account. The password comes from stdin rather
// than a flag so that it stays out of shell history and the process list.
func runUserCreate(ctx context.Context, r *runner, args []string) error {
	fs := newFlags()
	email := fs.String("email", "", "the account's email address")
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	if err := requireFlags(fs, "email"); err != nil {
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
	return r.withDB(ctx, func(db *gorm.DB, _ app.Config) error {
		var u *models.User
		err := audited(ctx, db, func(tx *gorm.DB) (*models.AuditEvent, error) {
			var err error
			if u, err = models.CreateUser(ctx, tx, *email, hash); err != nil {
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
func runUserStaff(ctx context.Context, r *runner, args []string) error {
	fs := newFlags()
	email := fs.String("email", "", "the account's email address")
	revoke := fs.Bool("revoke", false, "take staff rights away instead of granting them")
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	if err := requireFlags(fs, "email"); err != nil {
		return err
	}
	return r.withDB(ctx, func(db *gorm.DB, _ app.Config) error {
		u, err := findUser(ctx, db, *email)
		if err != nil {
			return err
		}
		action := models.ActionStaffGrant
		if *revoke {
			action = models.ActionStaffRevoke
		}
		err = audited(ctx, db, func(tx *gorm.DB) (*models.AuditEvent, error) {
			if u.IsStaff == !*revoke {
				return nil, nil // nothing changes, nothing to record
			}
			return &models.AuditEvent{ActorUserID: &u.ID, Action: action, Target: u.Email},
				models.SetStaff(ctx, tx, u.ID, !*revoke)
		})
		if err != nil {
			return err
		}
		if *revoke {
			fmt.Fprintf(r.stdout, "%s is no longer staff\n", u.Email)
		} else {
			fmt.Fprintf(r.stdout, "%s is now staff\n", u.Email)
		}
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

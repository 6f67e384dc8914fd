package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"gorm.io/gorm"

	"parapet/models"
)

// What the admin commands share: parsing their command lines, finding the
// organization or account they name, and auditing the changes they make.

// newFlags makes a command's flag set. The flag package prints nothing:
// every mistake becomes one usageError, which Run prints with the usage
// line.
func newFlags() *flag.FlagSet {
	fs := flag.NewFlagSet("parapet", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseArgs parses a command line whose flags may come before, between or
// after its positional arguments (the flag package alone stops at the
// first positional), and checks that there is exactly one positional for
// each name in want.
func parseArgs(fs *flag.FlagSet, args []string, want ...string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				var b strings.Builder
				fs.SetOutput(&b)
				fs.PrintDefaults()
				if b.Len() == 0 {
					return nil, usageError{"this command has no flags"}
				}
				return nil, usageError{"the flags are:\n" + strings.TrimRight(b.String(), "\n")}
			}
			return nil, usageError{err.Error()}
		}
		if fs.NArg() == 0 {
			break
		}
		pos, args = append(pos, fs.Arg(0)), fs.Args()[1:]
	}
	switch {
	case len(pos) < len(want):
		return nil, usageError{"missing " + want[len(pos)]}
	case len(pos) > len(want):
		return nil, usageError{fmt.Sprintf("unexpected argument %q", pos[len(want)])}
	}
	return pos, nil
}

// requireFlags reports the first of the named string flags that is unset
// or blank.
func requireFlags(fs *flag.FlagSet, names ...string) error {
	for _, n := range names {
		if strings.TrimSpace(fs.Lookup(n).Value.String()) == "" {
			return usageError{"missing --" + n}
		}
	}
	return nil
}

// givenFlags is the set of flags the command line set, even to their
// default value: what an update changes.
func givenFlags(fs *flag.FlagSet) map[string]bool {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	return given
}

// findOrg finds the organization ORG names, by id or slug.
func findOrg(ctx context.Context, db *gorm.DB, ref string) (*models.Organization, error) {
	org, err := models.OrgByIDOrSlug(ctx, db, ref)
	if errors.Is(err, models.ErrNotFound) {
		return nil, fmt.Errorf("no organization has the id or slug %q", ref)
	}
	return org, err
}

// findUser finds an account by email.
func findUser(ctx context.Context, db *gorm.DB, email string) (*models.User, error) {
	u, err := models.UserByEmail(ctx, db, email)
	if errors.Is(err, models.ErrNotFound) {
		return nil, fmt.Errorf("no account has the email %q", email)
	}
	return u, err
}

// audited makes a change and records its audit event in one transaction,
// so the audit log never misses an operator's change, nor records one
// that did not happen. change returns the event, or nil when it changed
// nothing. The event comes from the command line, not a request: its IP
// and request id say "cli".
func audited(ctx context.Context, db *gorm.DB, change func(tx *gorm.DB) (*models.AuditEvent, error)) error {
	return db.Transaction(func(tx *gorm.DB) error {
		e, err := change(tx)
		if err != nil || e == nil {
			return err
		}
		e.IP, e.RequestID = "cli", "cli"
		return models.RecordAudit(ctx, tx, e)
	})
}

// printJSON writes v as one indented JSON document.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

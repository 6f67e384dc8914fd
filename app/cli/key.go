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
	"parapet/app/keys"
	"parapet/models"
)

// runKeyCreate makes an API key for an organization and prints it. Only
// its hash is stored, so this output is the only place the key exists.
func runKeyCreate(ctx context.Context, r *runner, args []string) error {
	fs := newFlags()
	orgRef := fs.String("org", "", "the organization's id or slug")
	name := fs.String("name", "", "the key's name, unique among the organization's active keys")
	asJSON := fs.Bool("json", false, `print {"id","key","org"} as JSON`)
	var scopeList stringList
	fs.Var(&scopeList, "scope", "a scope the key holds: public, logs, scan or gateway (repeat it, or separate with commas; default every scope)")
	expiry := fs.String("expires", "never", "when the key stops working: 7, 30 or 90 (days), a date YYYY-MM-DD, or never")
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	if err := requireFlags(fs, "org", "name"); err != nil {
		return err
	}
	keyName := strings.TrimSpace(*name)
	if err := checkKeyName(keyName); err != nil {
		return err
	}
	if len(scopeList) == 0 {
		scopeList = keys.Scopes
	}
	scopes, err := keys.ParseScopes(scopeList)
	if err != nil {
		return usageError{"--scope: " + err.Error()}
	}
	expiresAt, err := keys.ParseExpiry(*expiry, models.Now())
	if err != nil {
		return usageError{"--expires: " + err.Error()}
	}
	return r.withDB(ctx, func(db *gorm.DB, _ app.Config) error {
		org, err := findOrg(ctx, db, *orgRef)
		if err != nil {
			return err
		}
		text, hash, hint := keys.Generate()
		k := &models.APIKey{ID: models.NewID("key"), OrgID: org.ID, Name: keyName, Hint: hint, Hash: hash, CreatedAt: models.Now(),
			Scopes: scopes, ExpiresAt: expiresAt}
		err = audited(ctx, db, func(tx *gorm.DB) (*models.AuditEvent, error) {
			if err := models.CreateAPIKey(ctx, tx, k); err != nil {
				return nil, err
			}
			return &models.AuditEvent{OrgID: &org.ID, Action: models.ActionKeyCreate, Target: keyLabel(k)}, nil
		})
		if err != nil {
			return err
		}
		fmt.Fprintln(r.stderr, "warning: store the key now: it is not shown again and cannot be recovered")
		if *asJSON {
			return printJSON(r.stdout, struct {
				ID  string `json:"id"`
				Key string `json:"key"`
				Org string `json:"org"`
			}{k.ID, text, org.ID})
		}
		fmt.Fprintf(r.stdout, "id: %s\nkey: %s\n", k.ID, text)
		return nil
	})
}

// keyJSON is a key as `key list --json` prints it.
type keyJSON struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"`
	Hint       string     `json:"hint"`
	Status     string     `json:"status"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	RevokedAt  *time.Time `json:"revoked_at"`
	Scopes     []string   `json:"scopes"`
	ExpiresAt  *time.Time `json:"expires_at"`
}

// runKeyList lists an organization's keys, newest first. The keys
// themselves are not stored, so only their hints can be shown.
func runKeyList(ctx context.Context, r *runner, args []string) error {
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
		rows, err := models.APIKeysOfOrg(ctx, db, org.ID)
		if err != nil {
			return err
		}
		now := models.Now()
		if *asJSON {
			out := make([]keyJSON, 0, len(rows)) // [] rather than null when there are none
			for _, k := range rows {
				out = append(out, keyJSON{ID: k.ID, Name: k.Name, Hint: k.Hint, Status: k.Status(now),
					CreatedAt: k.CreatedAt, LastUsedAt: k.LastUsedAt, RevokedAt: k.RevokedAt,
					Scopes: strings.Fields(k.Scopes), ExpiresAt: k.ExpiresAt})
			}
			return printJSON(r.stdout, out)
		}
		tw := tabwriter.NewWriter(r.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tHINT\tSTATUS\tSCOPES\tCREATED\tLAST USED\tEXPIRES")
		for _, k := range rows {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, k.Name, k.Hint, k.Status(now),
				strings.ReplaceAll(k.Scopes, " ", ","), formatTime(k.CreatedAt), formatTimePtr(k.LastUsedAt), formatTimePtr(k.ExpiresAt))
		}
		return tw.Flush()
	})
}

// runKeyRevoke revokes a key of whichever organization owns it. Revoking
// a revoked key is not an error: the key is unusable either way.
func runKeyRevoke(ctx context.Context, r *runner, args []string) error {
	fs := newFlags()
	pos, err := parseArgs(fs, args, "KEY_ID")
	if err != nil {
		return err
	}
	return r.withDB(ctx, func(db *gorm.DB, _ app.Config) error {
		k, err := models.APIKeyByID(ctx, db, pos[0])
		if errors.Is(err, models.ErrNotFound) {
			return fmt.Errorf("no API key has the id %q", pos[0])
		}
		if err != nil {
			return err
		}
		var revoked bool
		err = audited(ctx, db, func(tx *gorm.DB) (*models.AuditEvent, error) {
			var err error
			if revoked, err = models.RevokeAPIKey(ctx, tx, k.OrgID, k.ID, nil); err != nil || !revoked {
				return nil, err
			}
			return &models.AuditEvent{OrgID: &k.OrgID, Action: models.ActionKeyRevoke, Target: keyLabel(k)}, nil
		})
		if err != nil {
			return err
		}
		if !revoked {
			fmt.Fprintf(r.stdout, "key %s, %s, was already revoked\n", k.ID, keyLabel(k))
			return nil
		}
		fmt.Fprintf(r.stdout, "revoked key %s, %s\n", k.ID, keyLabel(k))
		return nil
	})
}

// checkKeyName holds a key name to the console's rule.
func checkKeyName(name string) error {
	if msg := models.KeyNameProblem(name); msg != "" {
		return usageError{"--name: " + msg}
	}
	return nil
}

// keyLabel names a key the way people recognise it: "name (hint)".
func keyLabel(k *models.APIKey) string { return k.Name + " (" + k.Hint + ")" }

// stringList is a flag that may be given more than once.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// formatTimePtr is formatTime of an optional time, "never" when absent.
func formatTimePtr(t *time.Time) string {
	if t == nil {
		return "never"
	}
	return formatTime(*t)
}

// formatTime is how tables show a time: to the minute, in UTC.
func formatTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

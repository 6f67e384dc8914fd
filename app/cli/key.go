package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"

	"parapet/app/keys"
	"parapet/models"
)

var keyCommands = []command{
	{"key create", "--org ORG --name N [--scope S]... [--model M]... [--expires 7|30|90|YYYY-MM-DD|never] [--json]",
		"create an API key and print it: it is shown only this once", runKeyCreate},
	{"key set", "KEY_ID --models M1,M2 (empty: the organization's)", "set the gateway models a key may call", runKeySet},
	{"key list", "--org ORG [--json]", "list an organization's API keys (their hints, never the keys)", keyList.run},
	{"key revoke", "KEY_ID", "revoke an API key", runKeyRevoke},
}

// runKeyCreate makes an API key for an organization and prints it. Only
// its hash is stored, so this output is the only place the key exists.
func runKeyCreate(ctx context.Context, r *runner, c *cmdline) error {
	c.needOrg()
	name := c.need("name", "the key's name, unique among the organization's active keys")
	asJSON := c.Bool("json", false, `print {"id","key","org"} as JSON`)
	var scopeList stringList
	c.Var(&scopeList, "scope", "a scope the key holds: public, logs, scan or gateway (repeat it, or separate with commas; default every scope)")
	expiry := c.String("expires", "never", "when the key stops working: 7, 30 or 90 (days), a date YYYY-MM-DD, or never")
	var modelList stringList
	c.Var(&modelList, "model", "a gateway model the key may call (repeat it; default the organization's)")
	if _, err := c.parse(); err != nil {
		return err
	}
	keyName := strings.TrimSpace(*name)
	if msg := models.KeyNameProblem(keyName); msg != "" {
		return usageError{"--name: " + msg}
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
	keyModels, err := parseModels(strings.Join(modelList, ","))
	if err != nil {
		return usageError{"--model: " + err.Error()}
	}
	return r.withDB(ctx, c, func(w *work) error {
		if err := checkModels(w.cfg, keyModels); err != nil {
			return err
		}
		text, hash, hint := keys.Generate()
		k := &models.APIKey{ID: models.NewID("key"), OrgID: w.org.ID, Name: keyName, Hint: hint, Hash: hash, CreatedAt: models.Now(),
			Scopes: scopes, ExpiresAt: expiresAt}
		err := w.audited(func(tx *gorm.DB) (*models.AuditEvent, error) {
			ev := &models.AuditEvent{OrgID: &k.OrgID, Action: models.ActionKeyCreate, Target: k.AuditTarget()}
			if err := models.CreateAPIKey(ctx, tx, k); err != nil {
				return nil, err
			}
			return ev, models.SetModelPolicy(tx, k.OrgID, k.ID, keyModels)
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
			}{k.ID, text, k.OrgID})
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

// keyList lists an organization's keys, newest first. The keys
// themselves are not stored, so only their hints can be shown.
var keyList = list[models.APIKeyRow]{
	org: true,
	load: func(ctx context.Context, w *work) ([]models.APIKeyRow, error) {
		return models.APIKeysOfOrg(ctx, w.db, w.org.ID)
	},
	header: []string{"ID", "NAME", "HINT", "STATUS", "SCOPES", "CREATED", "LAST USED", "EXPIRES"},
	cells: func(k models.APIKeyRow, now time.Time) []string {
		return []string{k.ID, k.Name, k.Hint, k.Status(now), strings.ReplaceAll(k.Scopes, " ", ","),
			formatTime(k.CreatedAt), formatTimePtr(k.LastUsedAt), formatTimePtr(k.ExpiresAt)}
	},
	json: func(k models.APIKeyRow, now time.Time) any {
		return keyJSON{ID: k.ID, Name: k.Name, Hint: k.Hint, Status: k.Status(now),
			CreatedAt: k.CreatedAt, LastUsedAt: k.LastUsedAt, RevokedAt: k.RevokedAt,
			Scopes: strings.Fields(k.Scopes), ExpiresAt: k.ExpiresAt}
	},
}

// runKeyRevoke revokes a key of whichever organization owns it. Revoking
// a revoked key is not an error: the key is unusable either way.
func runKeyRevoke(ctx context.Context, r *runner, c *cmdline) error {
	pos, err := c.parse("KEY_ID")
	if err != nil {
		return err
	}
	return r.withDB(ctx, c, func(w *work) error {
		k, err := models.APIKeyByID(ctx, w.db, pos[0])
		if err != nil {
			return notFound(err, "no API key has the id %q", pos[0])
		}
		var revoked bool
		err = w.audited(func(tx *gorm.DB) (*models.AuditEvent, error) {
			var err error
			if revoked, err = models.RevokeAPIKey(ctx, tx, k.OrgID, k.ID, nil); err != nil || !revoked {
				return nil, err
			}
			return &models.AuditEvent{OrgID: &k.OrgID, Action: models.ActionKeyRevoke, Target: k.AuditTarget()}, nil
		})
		if err != nil {
			return err
		}
		if !revoked {
			fmt.Fprintf(r.stdout, "key %s, %s, was already revoked\n", k.ID, k.AuditTarget())
			return nil
		}
		fmt.Fprintf(r.stdout, "revoked key %s, %s\n", k.ID, k.AuditTarget())
		return nil
	})
}

package migrations_test

import (
	"context"
	"testing"
	"time"

	"parapet/migrations"
	"parapet/models"

	"parapet/app/apptest"
)

// Migration 00006 runs forward over data made before it: the existing
// member stays an owner, the existing key keeps working with every scope
// and no expiry, and nothing is lost.
func TestTeamsMigrationKeepsData(t *testing.T) {
	for _, d := range apptest.Databases(t) {
		t.Run(d.Name, func(t *testing.T) {
			ctx := context.Background()
			db, err := models.Open(apptest.FreshDatabaseURL(t, d), 2)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if err := migrations.UpTo(ctx, db.SQL(), db.Dialect, 5); err != nil {
				t.Fatal(err)
			}
			now := time.Now().UTC()
			for _, q := range []struct {
				sql  string
				args []any
			}{
				{"INSERT INTO users (id, email, password_hash, is_staff, created_at, password_changed_at) VALUES (?, ?, ?, ?, ?, ?)",
					[]any{"usr_old", "old@example.com", "x", false, now, now}},
				{"INSERT INTO organizations (id, name, slug, created_by, created_at) VALUES (?, ?, ?, ?, ?)",
					[]any{"org_old", "Old", "old", "usr_old", now}},
				{"INSERT INTO memberships (org_id, user_id, role, created_at) VALUES (?, ?, ?, ?)",
					[]any{"org_old", "usr_old", "owner", now}},
				{"INSERT INTO api_keys (id, org_id, name, hint, hash, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
					[]any{"key_old", "org_old", "legacy", "ppk_abc…wxyz", "hash-old", "usr_old", now}},
			} {
				if err := db.Exec(q.sql, q.args...).Error; err != nil {
					t.Fatalf("%s: %v", q.sql, err)
				}
			}
			if n, err := db.Migrate(ctx); err != nil || n == 0 {
				t.Fatalf("migrate forward: applied %d, %v", n, err)
			}
			k, err := models.APIKeyByID(ctx, db.DB, "key_old")
			if err != nil {
				t.Fatal(err)
			}
			if k.Scopes != "public logs scan gateway" || k.ExpiresAt != nil || k.RolledAt != nil || !k.Usable(time.Now()) || k.Name != "legacy" {
				t.Errorf("the old key after the migration: %+v", k)
			}
			org, err := models.OrgForMember(ctx, db.DB, "org_old", "usr_old")
			if err != nil || org.Role != models.RoleOwner {
				t.Errorf("the old member after the migration: %+v, %v", org, err)
			}
			for _, table := range []string{"invitations", "recovery_codes"} {
				var n int64
				if err := db.Table(table).Count(&n).Error; err != nil || n != 0 {
					t.Errorf("table %s: %d rows, %v", table, n, err)
				}
			}
		})
	}
}

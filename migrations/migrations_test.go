package migrations_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"parapet/app/apptest"
	"parapet/models"

	"gorm.io/gorm"
)

// Every migration applies on each database from empty, the schema holds
// the product's tables and seed, and running the migrations again is a
// no-op.
func TestMigrationsOnEveryDatabase(t *testing.T) {
	for _, d := range apptest.Databases(t) {
		t.Run(d.Name, func(t *testing.T) {
			ctx := context.Background()
			db, err := models.Open(apptest.FreshDatabaseURL(t, d), 2)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			pending, err := db.Pending(ctx)
			if err != nil || pending == 0 {
				t.Fatalf("a new database has %d pending migrations (err %v), want them all", pending, err)
			}
			n, err := db.Migrate(ctx)
			if err != nil {
				t.Fatalf("first run: %v", err)
			}
			if n != pending {
				t.Errorf("applied %d, want %d", n, pending)
			}
			if p, _ := db.Pending(ctx); p != 0 {
				t.Errorf("%d still pending after migrating", p)
			}
			n, err = db.Migrate(ctx)
			if err != nil || n != 0 {
				t.Fatalf("second run applied %d (err %v), want a harmless no-op", n, err)
			}
			for _, table := range []string{"users", "organizations", "memberships", "sessions", "api_keys", "products", "entitlements", "audit_events", "usage_counters", "throttles"} {
				var count int64
				if err := db.Table(table).Count(&count).Error; err != nil {
					t.Errorf("table %s: %v", table, err)
				}
			}
			var products int64
			db.Table("products").Count(&products)
			if products < 5 {
				t.Errorf("the seed left %d products", products)
			}
		})
	}
}

// The console's audit log filtered by action is served by an index on
// organization and action (migration 7), on each database.
func TestAuditFilterUsesItsIndex(t *testing.T) {
	const query = "SELECT id FROM audit_events WHERE org_id = 'org_1' AND action = 'key.revoke' ORDER BY created_at DESC LIMIT 50"
	for _, d := range apptest.Databases(t) {
		t.Run(d.Name, func(t *testing.T) {
			db, err := models.Open(apptest.FreshDatabaseURL(t, d), 1)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Migrate(context.Background()); err != nil {
				t.Fatal(err)
			}
			var plan []string
			err = db.Transaction(func(tx *gorm.DB) error {
				explain := "EXPLAIN QUERY PLAN "
				if tx.Name() == "postgres" {
					// A near-empty table is read whole unless told otherwise.
					if err := tx.Exec("SET LOCAL enable_seqscan = off").Error; err != nil {
						return err
					}
					explain = "EXPLAIN "
				}
				rows, err := tx.Raw(explain + query).Rows()
				if err != nil {
					return err
				}
				defer rows.Close()
				cols, _ := rows.Columns()
				for rows.Next() {
					vals := make([]any, len(cols))
					for i := range vals {
						vals[i] = new(any)
					}
					if err := rows.Scan(vals...); err != nil {
						return err
					}
					plan = append(plan, fmt.Sprint(*vals[len(vals)-1].(*any)))
				}
				return rows.Err()
			})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(strings.Join(plan, "\n"), "audit_events_org_action_idx") {
				t.Errorf("the filtered audit query does not use audit_events_org_action_idx:\n%s", strings.Join(plan, "\n"))
			}
		})
	}
}

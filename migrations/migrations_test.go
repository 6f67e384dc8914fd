package migrations_test

import (
	"context"
	"testing"

	"parapet/app/apptest"
	"parapet/models"
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

package migrations_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"parapet/app/apptest"
	"parapet/models"

	"gorm.io/gorm"
	"gorm.io/gorm/logger"
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

// The console's audit log pages, filtered by action or not, are served in
// their order (newest first, id breaking ties) by an index of their own
// (migration 9), with no sort, on each database: the query
// models.AuditPage sends, with its joins, is explained.
func TestAuditPagesUseTheirIndexes(t *testing.T) {
	for _, d := range apptest.Databases(t) {
		t.Run(d.Name, func(t *testing.T) {
			db, err := models.Open(apptest.FreshDatabaseURL(t, d), 1)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			ctx := context.Background()
			if _, err := db.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			for action, index := range map[string]string{"": "audit_events_org_page_idx", "key.revoke": "audit_events_org_action_page_idx"} {
				sent := &lastSQL{Interface: logger.Discard}
				if _, err := models.AuditPage(ctx, db.Session(&gorm.Session{Logger: sent}), "org_1", action, 50, 100); err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(sent.sql, "JOIN") || !strings.Contains(sent.sql, "ORDER BY") {
					t.Fatalf("not the audit page's query: %s", sent.sql)
				}
				plan := strings.Join(explain(t, db, sent.sql), "\n")
				if !strings.Contains(plan, index) || strings.Contains(plan, "Sort") || strings.Contains(plan, "B-TREE") {
					t.Errorf("the audit page (action %q) is not read in order from %s:\n%s\n%s", action, index, sent.sql, plan)
				}
			}
		})
	}
}

// explain is the database's plan of query, a line per step.
func explain(t *testing.T, db *models.DB, query string) []string {
	var plan []string
	err := db.Transaction(func(tx *gorm.DB) error {
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
	return plan
}

// lastSQL keeps the last statement GORM sent, its values written in.
type lastSQL struct {
	logger.Interface
	sql string
}

func (l *lastSQL) Trace(_ context.Context, _ time.Time, fc func() (string, int64), _ error) {
	l.sql, _ = fc()
}

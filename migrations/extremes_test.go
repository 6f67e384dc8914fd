package migrations_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"parapet/app/apptest"
	"parapet/app/keys"
	"parapet/models"
)

// Every value a column accepts reads back, on both databases: each
// table gets a row with every date and number column at its type's
// lowest value and one at its highest (dates 0001-01-01 to 9999-12-31,
// INTEGER 32 bits, BIGINT 64), and each is read back equal. A key that
// expired on 9999-12-31 was stored as year 10000, which SQLite wrote and
// could not read: every page listing the organization's keys failed. The
// columns are read from the schema, so a new column is covered by itself,
// and a column of a type this test does not know fails it.
func TestEveryColumnReadsBackItsExtremes(t *testing.T) {
	lastDay := time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
	if latest := keys.LatestExpiry(time.Now()).Add(24 * time.Hour); !latest.Before(lastDay) {
		t.Fatalf("a key may expire at %v, beyond what the databases read back", latest)
	}
	extremes := []struct {
		name string
		at   time.Time
		i32  int64
		i64  int64
		flag bool
	}{
		{"lo", time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), math.MinInt32, math.MinInt64, false},
		{"hi", time.Date(9999, 12, 31, 23, 59, 59, 999999000, time.UTC), math.MaxInt32, math.MaxInt64, true},
	}
	for _, d := range apptest.Databases(t) {
		t.Run(d.Name, func(t *testing.T) {
			ctx := context.Background()
			db, err := models.Open(apptest.FreshDatabaseURL(t, d), 2)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			tables := schemaColumns(t, db, d.Name)
			for _, x := range extremes {
				// Every text column holds the row's name, so a foreign key
				// names the parent row of the same name: tables are
				// inserted in rounds until their parents exist.
				value := func(c column) any {
					switch c.kind {
					case "timestamp":
						return x.at
					case "integer":
						return x.i32
					case "bigint":
						return x.i64
					case "boolean":
						return x.flag
					}
					return x.name
				}
				pending := map[string][]column{}
				for name, cols := range tables {
					pending[name] = cols
				}
				var lastErr error
				for round := 0; len(pending) > 0 && round <= len(tables); round++ {
					for name, cols := range pending {
						names, marks, args := []string{}, []string{}, []any{}
						for _, c := range cols {
							names, marks, args = append(names, c.name), append(marks, "?"), append(args, value(c))
						}
						q := fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", name, strings.Join(names, ", "), strings.Join(marks, ", "))
						if lastErr = db.Exec(q, args...).Error; lastErr == nil {
							delete(pending, name)
						}
					}
				}
				if len(pending) > 0 {
					t.Fatalf("%s: could not write %d tables: %v", x.name, len(pending), lastErr)
				}
				for name, cols := range tables {
					key := ""
					for _, c := range cols {
						if c.kind == "text" {
							key = c.name
							break
						}
					}
					for _, c := range cols {
						want := value(c)
						got, err := readBack(db, name, c, key, x.name)
						switch {
						case err != nil:
							t.Errorf("%s.%s = %v does not read back: %v", name, c.name, want, err)
						case c.kind == "timestamp" && !got.(time.Time).Equal(want.(time.Time)):
							t.Errorf("%s.%s: wrote %v, read %v", name, c.name, want, got)
						case c.kind != "timestamp" && got != want:
							t.Errorf("%s.%s: wrote %v, read %v", name, c.name, want, got)
						}
					}
				}
			}
		})
	}
}

type column struct{ name, kind string }

// schemaColumns lists the product's tables and their columns, each with
// its kind: timestamp, integer (32 bits), bigint, boolean or text.
func schemaColumns(t *testing.T, db *models.DB, dialect string) map[string][]column {
	q := `SELECT table_name, column_name, data_type FROM information_schema.columns
		WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`
	if dialect == "sqlite" {
		q = `SELECT m.name, p.name, p.type FROM sqlite_master m JOIN pragma_table_info(m.name) p
			WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, p.cid`
	}
	rows, err := db.Raw(q).Rows()
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	kinds := map[string]string{"timestamp": "timestamp", "timestamp without time zone": "timestamp",
		"integer": "integer", "bigint": "bigint", "boolean": "boolean", "text": "text"}
	out := map[string][]column{}
	for rows.Next() {
		var table, name, typ string
		if err := rows.Scan(&table, &name, &typ); err != nil {
			t.Fatal(err)
		}
		if table == "goose_db_version" {
			continue
		}
		kind, ok := kinds[strings.ToLower(typ)]
		if !ok {
			t.Errorf("%s.%s has type %s: teach this test its extremes", table, name, typ)
			continue
		}
		out[table] = append(out[table], column{name, kind})
	}
	if len(out) < 10 {
		t.Fatalf("found only %d tables", len(out))
	}
	return out
}

// readBack reads a column of the row whose key column is name, as the
// application's models would scan it.
func readBack(db *models.DB, table string, c column, key, name string) (any, error) {
	row := db.Raw(fmt.Sprintf("SELECT %s FROM %s WHERE %s = ?", c.name, table, key), name).Row()
	switch c.kind {
	case "timestamp":
		var v time.Time
		err := row.Scan(&v)
		return v, err
	case "integer", "bigint":
		var v int64
		err := row.Scan(&v)
		return v, err
	case "boolean":
		var v bool
		err := row.Scan(&v)
		return v, err
	}
	var v string
	err := row.Scan(&v)
	return v, err
}

// A key stored with year 10000 before expiries were bounded reads back
// after migration 00016, as 9999-12-31.
func TestFiveDigitYearExpiryIsRepaired(t *testing.T) {
	for _, d := range apptest.Databases(t) {
		t.Run(d.Name, func(t *testing.T) {
			ctx := context.Background()
			db, err := models.Open(apptest.FreshDatabaseURL(t, d), 2)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			now := models.Now()
			if err := db.Exec("INSERT INTO organizations (id, name, slug, created_at) VALUES ('o', 'o', 'o', ?)", now).Error; err != nil {
				t.Fatal(err)
			}
			if err := db.Exec("INSERT INTO api_keys (id, org_id, name, hint, hash, created_at, expires_at) VALUES ('k', 'o', 'far', 'h', 'h', ?, ?)",
				now, time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)).Error; err != nil {
				t.Fatal(err)
			}
			if d.Name == "sqlite" {
				if _, err := models.APIKeysOfOrg(ctx, db.DB, "o"); err == nil {
					t.Fatal("year 10000 read back on SQLite: this test no longer shows the failure it guards against")
				}
			}
			up, err := os.ReadFile("00016_key_expiry_bound.sql")
			if err != nil {
				t.Fatal(err)
			}
			stmt := strings.SplitN(strings.SplitN(string(up), "-- +goose Up", 2)[1], "-- +goose Down", 2)[0]
			if err := db.Exec(stmt).Error; err != nil {
				t.Fatal(err)
			}
			rows, err := models.APIKeysOfOrg(ctx, db.DB, "o")
			if err != nil || len(rows) != 1 || rows[0].ExpiresAt == nil || rows[0].ExpiresAt.Year() != 9999 {
				t.Fatalf("after the repair: %+v, %v", rows, err)
			}
		})
	}
}

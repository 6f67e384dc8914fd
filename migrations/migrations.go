// Package migrations holds the versioned SQL migrations, embedded in the
// binary, and runs them with goose. One set of portable SQL serves Postgres
// and SQLite.
package migrations

import (
	"context"
	"database/sql"
	"embed"
	"fmt"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/database"
	"github.com/pressly/goose/v3/lock"
)

//go:embed *.sql
var files embed.FS

// Dialect names the database a migration runs on.
type Dialect string

const (
	Postgres Dialect = "postgres"
	SQLite   Dialect = "sqlite"
)

func provider(db *sql.DB, d Dialect) (*goose.Provider, error) {
	var opts []goose.ProviderOption
	dialect := database.DialectSQLite3
	if d == Postgres {
		dialect = database.DialectPostgres
		// An advisory lock so two release steps (or a release step and a
		// dev server) never apply the same migration at once.
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return nil, err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	return goose.NewProvider(dialect, db, files, opts...)
}

// Up applies every pending migration and returns how many it applied.
// Running it again is harmless: nothing is pending.
func Up(ctx context.Context, db *sql.DB, d Dialect) (int, error) {
	p, err := provider(db, d)
	if err != nil {
		return 0, err
	}
	res, err := p.Up(ctx)
	if err != nil {
		return len(res), fmt.Errorf("migrate: %w", err)
	}
	return len(res), nil
}

// Pending reports how many migrations the database has not applied yet.
func Pending(ctx context.Context, db *sql.DB, d Dialect) (int, error) {
	p, err := provider(db, d)
	if err != nil {
		return 0, err
	}
	current, target, err := p.GetVersions(ctx)
	if err != nil {
		return 0, err
	}
	if current >= target {
		return 0, nil
	}
	status, err := p.Status(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, s := range status {
		if s.State == goose.StatePending {
			n++
		}
	}
	return n, nil
}

// UpTo applies the pending migrations up to and including version: tests
// use it to put data in an older schema before migrating it forward.
func UpTo(ctx context.Context, db *sql.DB, d Dialect, version int64) error {
	p, err := provider(db, d)
	if err != nil {
		return err
	}
	_, err = p.UpTo(ctx, version)
	return err
}

// DownOne undoes the newest applied migration: tests use it to make a
// migration pending again, as it would be before its release.
func DownOne(ctx context.Context, db *sql.DB, d Dialect) error {
	p, err := provider(db, d)
	if err != nil {
		return err
	}
	_, err = p.Down(ctx)
	return err
}

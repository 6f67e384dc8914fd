// Package models holds the GORM models and the queries on them, one file per
// entity, and opens the database.
package models

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/glebarez/sqlite"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"parapet/migrations"
)

// DB is the database handle with the dialect it speaks.
type DB struct {
	*gorm.DB
	Dialect migrations.Dialect
}

// Open connects to the database named by url: postgres:// or postgresql://
// for Postgres, sqlite:PATH for the embedded SQLite (its directory is
// created). maxOpen bounds the connection pool.
func Open(url string, maxOpen int) (*DB, error) {
	cfg := &gorm.Config{
		Logger:                 logger.Discard,
		NowFunc:                func() time.Time { return time.Now().UTC() },
		SkipDefaultTransaction: true,
		PrepareStmt:            false,
	}
	var (
		d       *gorm.DB
		err     error
		dialect migrations.Dialect
	)
	switch {
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		dialect = migrations.Postgres
		d, err = gorm.Open(postgres.Open(url), cfg)
	case strings.HasPrefix(url, "sqlite:"):
		dialect = migrations.SQLite
		path := strings.TrimPrefix(url, "sqlite:")
		if path == "" {
			return nil, fmt.Errorf("DATABASE_URL %q names no file", url)
		}
		if dir := filepath.Dir(path); dir != "." {
			if err := os.MkdirAll(dir, 0o700); err != nil {
				return nil, fmt.Errorf("create database directory: %w", err)
			}
		}
		// WAL lets readers run beside the writer; the busy timeout makes a
		// second writer wait instead of failing; immediate transactions take
		// the write lock up front so two transactions never deadlock on an
		// upgrade; foreign keys are off in SQLite unless asked for.
		dsn := "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_txlock=immediate"
		d, err = gorm.Open(sqlite.Open(dsn), cfg)
	default:
		return nil, fmt.Errorf("DATABASE_URL must start with postgres://, postgresql:// or sqlite:, got %q", redactURL(url))
	}
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	sqlDB, err := d.DB()
	if err != nil {
		return nil, err
	}
	sqlDB.SetMaxOpenConns(maxOpen)
	sqlDB.SetMaxIdleConns(maxOpen)
	sqlDB.SetConnMaxIdleTime(5 * time.Minute)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := sqlDB.PingContext(ctx); err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("connect to database: %w", err)
	}
	return &DB{DB: d, Dialect: dialect}, nil
}

// SQL returns the underlying database/sql handle.
func (db *DB) SQL() *sql.DB {
	s, _ := db.DB.DB()
	return s
}

// Close closes the connection pool.
func (db *DB) Close() error { return db.SQL().Close() }

// Migrate applies pending migrations.
func (db *DB) Migrate(ctx context.Context) (int, error) {
	return migrations.Up(ctx, db.SQL(), db.Dialect)
}

// Pending counts migrations not yet applied.
func (db *DB) Pending(ctx context.Context) (int, error) {
	return migrations.Pending(ctx, db.SQL(), db.Dialect)
}

// redactURL hides a password in a connection URL for error messages.
func redactURL(u string) string {
	if at := strings.Index(u, "@"); at > 0 {
		if scheme := strings.Index(u, "://"); scheme > 0 && scheme < at {
			return u[:scheme+3] + "…@" + u[at+1:]
		}
	}
	return u
}

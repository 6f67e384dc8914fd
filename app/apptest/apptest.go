// Package apptest boots the whole application for tests: a fresh database
// (an SQLite file always, a fresh Postgres schema when TEST_DATABASE_URL is
// set), the real middleware chain and routes behind httptest, and a client
// with a cookie jar that behaves like a browser.
package apptest

import (
	"bytes"
	"context"
	"database/sql"

	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"

	"parapet/app"
	"parapet/models"
)

// Env is one running application and what a test needs to drive it.
type Env struct {
	T      testing.TB
	App    *app.App
	DB     *models.DB
	Config app.Config
	Server *httptest.Server
	Logs   *SyncBuffer
}

// Database is a database a test runs on.
type Database struct {
	Name string // "sqlite" or "postgres"
	URL  string // as DATABASE_URL
}

// Databases lists the databases tests run on: SQLite always, Postgres when
// TEST_DATABASE_URL names one. Under CI=true Postgres is required.
func Databases(t testing.TB) []Database {
	dbs := []Database{{Name: "sqlite"}}
	if u := os.Getenv("TEST_DATABASE_URL"); u != "" {
		dbs = append(dbs, Database{Name: "postgres", URL: u})
	} else if os.Getenv("CI") == "true" {
		t.Fatal("TEST_DATABASE_URL must be set in CI: tests run on Postgres too")
	}
	return dbs
}

// EachDB runs fn as a subtest on each database of Databases, each with a
// fresh application.
func EachDB(t *testing.T, fn func(t *testing.T, env *Env), opts ...Option) {
	for _, d := range Databases(t) {
		t.Run(d.Name, func(t *testing.T) {
			fn(t, New(t, d, opts...))
		})
	}
}

// Option changes the configuration of a test application.
type Option func(env map[string]string)

// WithEnv sets an environment variable of the test application.
func WithEnv(name, value string) Option {
	return func(env map[string]string) { env[name] = value }
}

// FreshDatabaseURL makes an empty database for one test and removes it when
// the test ends: a file in the test's temp dir for SQLite, a schema of its
// own for Postgres.
func FreshDatabaseURL(t testing.TB, d Database) string {
	if d.Name == "sqlite" {
		return "sqlite:" + filepath.Join(t.TempDir(), "parapet.db")
	}
	schema := "t_" + strings.ToLower(models.RandomBase62(12))
	admin, err := sql.Open("pgx", d.URL)
	if err != nil {
		t.Fatalf("open postgres: %v", err)
	}
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec("DROP SCHEMA " + schema + " CASCADE")
		admin.Close()
	})
	return withSearchPath(d.URL, schema)
}

func withSearchPath(dbURL, schema string) string {
	u, err := url.Parse(dbURL)
	if err != nil {
		return dbURL
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// Config returns a test configuration for the given database URL.
func Config(t testing.TB, dbURL string, opts ...Option) app.Config {
	env := map[string]string{
		"PARAPET_ENV":    "development",
		"DATABASE_URL":   dbURL,
		"SESSION_SECRET": "test-secret-test-secret-test-secret-0123456789",
		// Redis outlives a test: each application (or cluster of
		// instances sharing a Config) keeps its own keys.
		"REDIS_PREFIX": "test:" + models.RandomBase62(10) + ":",
	}
	for _, o := range opts {
		o(env)
	}
	cfg, _, err := app.LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	return cfg
}

// New starts a fresh application on database d.
func New(t testing.TB, d Database, opts ...Option) *Env {
	t.Helper()
	cfg := Config(t, FreshDatabaseURL(t, d), opts...)
	return Start(t, cfg)
}

// Start runs an application with cfg behind an httptest server.
func Start(t testing.TB, cfg app.Config) *Env {
	t.Helper()
	logs := &SyncBuffer{}
	out := app.LogOutput{W: logs}
	log := out.Logger()
	db, err := app.OpenDB(context.Background(), cfg, log)
	if err != nil {
		t.Fatalf("open db: %v", err)
	}
	a, err := app.New(cfg, db, out)
	if err != nil {
		t.Fatalf("new app: %v", err)
	}
	// The server's own settings (timeouts, header limit), not httptest's.
	srv := httptest.NewUnstartedServer(a.Handler())
	srv.Config = app.NewServer(a.Handler())
	srv.Listener = app.GuardFraming(srv.Listener)
	srv.Start()
	t.Cleanup(func() {
		srv.Close()
		a.Close()
		db.Close()
	})
	return &Env{T: t, App: a, DB: db, Config: cfg, Server: srv, Logs: logs}
}

// URL is the absolute URL of a path on the test server.
func (e *Env) URL(path string) string { return e.Server.URL + path }

// SyncBuffer is a bytes.Buffer safe for concurrent writers (the logger).
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// Reset empties the buffer, keeping its memory (benchmarks that log
// every request would otherwise measure the buffer's growth).
func (b *SyncBuffer) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Reset()
}

func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

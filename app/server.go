package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"parapet/models"
)

// OpenDB opens the configured database and brings its schema up to date:
// in development serve migrates by itself; in production the release step
// (`parapet migrate`) does, and serve refuses a schema that is behind.
func OpenDB(ctx context.Context, cfg Config, log *slog.Logger) (*models.DB, error) {
	db, err := models.Open(cfg.DatabaseURL, cfg.DBMaxOpenConns)
	if err != nil {
		return nil, err
	}
	if cfg.Production() {
		n, err := db.Pending(ctx)
		if err != nil {
			db.Close()
			return nil, fmt.Errorf("check migrations: %w", err)
		}
		if n > 0 {
			db.Close()
			return nil, fmt.Errorf("the database schema is %d migration(s) behind: run `parapet migrate` first", n)
		}
		return db, nil
	}
	n, err := db.Migrate(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	if n > 0 {
		log.Info("applied migrations", "count", n)
	}
	return db, nil
}

// NewServer sets the timeouts that keep a slow or idle client from holding
// a connection: headers must arrive within 10 s, a whole request body
// within a minute, and an idle keep-alive connection is closed after two.
// The write timeout bounds ordinary responses; streaming responses extend
// their own deadline as they go. Headers are held to 16 KiB (Go allows
// 4 KiB more), ten times what browsers and SDKs send: Go parses them into
// a map that costs about 15 times their bytes when they are thousands of
// tiny fields, so 64 KiB of them held a megabyte per request.
func NewServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      90 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    16 << 10,
	}
}

// Serve runs the app on ln until ctx ends, then shuts down gracefully: the
// listener closes at once (new connections are refused), in-flight requests
// get up to cfg.ShutdownTimeout to finish, and Serve returns. The caller
// closes the database afterwards. Without a trusted proxy in front, each
// client holds at most MaxConnsPerClient connections (connlimit.go); a
// request framed two ways is refused before it is parsed (framing.go).
func (a *App) Serve(ctx context.Context, ln net.Listener) error {
	if !a.cfg.TrustProxy {
		ln = limitConnsPerClient(ln, MaxConnsPerClient)
	}
	ln = GuardFraming(ln)
	srv := NewServer(a.Handler())
	srv.ErrorLog = slog.NewLogLogger(a.log.Handler(), slog.LevelWarn)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	a.log.Info("shutting down", "timeout", a.cfg.ShutdownTimeout.String())
	sctx, cancel := context.WithTimeout(context.Background(), a.cfg.ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	if e := <-errc; e != nil && !errors.Is(e, http.ErrServerClosed) {
		return e
	}
	if err != nil {
		return fmt.Errorf("shutdown: in-flight requests did not finish within %s: %w", a.cfg.ShutdownTimeout, err)
	}
	a.log.Info("stopped")
	return nil
}

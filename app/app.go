// Package app wires Parapet together: configuration, the middleware chain,
// the routes and the server's lifecycle.
package app

import (
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/redis/go-redis/v9"

	"parapet/app/api"
	"parapet/app/gateway"
	"parapet/app/keys"
	"parapet/app/mail"
	"parapet/app/meter"
	"parapet/app/session"
	"parapet/app/web"
	"parapet/models"
)

// App is one instance of the product: its configuration, dependencies and
// HTTP router.
type App struct {
	cfg      Config
	log      *slog.Logger
	e        *echo.Echo
	pages    *web.Pages
	api      *api.API
	redis    *redis.Client
	gateway  *gateway.Proxy
	recorder *meter.Recorder
}

// New builds the application on an open, migrated database.
func New(cfg Config, db *models.DB, log *slog.Logger) (*App, error) {
	a := &App{cfg: cfg, log: log}
	sessions := session.NewStore(db.DB, cfg.SessionSecret, a.requestIsHTTPS)
	verifier := keys.NewVerifier(db.DB, log)
	var err error
	if a.recorder, err = meter.NewRecorder(db, log); err != nil {
		return nil, fmt.Errorf("gateway recorder: %w", err)
	}
	limiter, rc, err := newLimiter(cfg.RedisURL, log)
	if err != nil {
		return nil, err
	}
	a.redis = rc
	g := cfg.Gateway
	a.gateway, err = gateway.New(gateway.Config{URL: g.UpstreamURL, Key: g.UpstreamKey, Style: g.UpstreamStyle, Model: g.Model,
		MaxTokens: g.MaxTokens, MaxTokensCap: g.MaxTokensCap, ConnectTimeout: g.ConnectTimeout, Timeout: g.Timeout,
		StreamIdleTimeout: g.StreamIdleTimeout, DemoWordDelay: g.DemoWordDelay})
	if err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	a.api = api.New(api.Deps{DB: db, Keys: verifier, Limiter: limiter, PublicURL: cfg.PublicURL, IsHTTPS: a.requestIsHTTPS,
		Gateway: a.gateway, GatewayTimeout: g.Timeout, Recorder: a.recorder,
		Limits: map[api.Surface]int{
			api.SurfacePublic:  cfg.RateLimitPerMinute,
			api.SurfaceLogs:    cfg.RateLimitPerMinute,
			api.SurfaceScan:    cfg.RateLimitPerMinute,
			api.SurfaceGateway: cfg.GatewayRateLimitPerMinute,
			api.SurfaceKeys:    api.LeakReportsPerMinute,
		}})
	// The mailer of invitations. SMTP_URL is read here until the
	// configuration has it (cfg.SMTPURL, from the hardening branch).
	mailer, err := mail.New(os.Getenv("SMTP_URL"), log)
	if err != nil {
		return nil, err
	}
	a.pages = web.New(web.Deps{DB: db, Log: log, Sessions: sessions, Keys: verifier, Secret: cfg.SessionSecret,
		GatewayMonthlyTokens: cfg.Gateway.MonthlyTokens, IsHTTPS: a.requestIsHTTPS, OnProductChange: a.api.InvalidateProducts,
		Gateway: web.GatewayDeps{Proxy: a.gateway, Demo: cfg.DemoUpstream(), Limiter: limiter, RateLimit: cfg.GatewayRateLimitPerMinute,
			Recorder: a.recorder},
		PublicURL: cfg.PublicURL, Mailer: mailer})
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.HTTPErrorHandler = a.handleError
	if cfg.TrustProxy {
		// Behind a Heroku-style router the client is the rightmost address
		// in X-Forwarded-For that is not one of our own proxies.
		e.IPExtractor = echo.ExtractIPFromXFFHeader()
	} else {
		e.IPExtractor = echo.ExtractIPDirect()
	}
	// The chain, outermost first: every response gets an id and security
	// headers, is logged once, and a panic anywhere becomes a 500; browser
	// requests then learn who is signed in, and state-changing ones must
	// carry the CSRF token.
	e.Use(requestID, a.securityHeaders, accessLog(log), recoverPanic(log),
		requestTimeout(cfg.RequestTimeout, isStream), a.auditGatewayCalls, a.api.Guard, a.pages.LoadUser, a.pages.CSRF)
	a.e = e
	a.routes()
	return a, nil
}

// Handler is the app as an http.Handler.
func (a *App) Handler() http.Handler { return a.e }

// FlushAudit waits until every gateway record queued so far is written
// (tests read them right after a call).
func (a *App) FlushAudit() { a.recorder.Flush() }

// Echo exposes the router, for tests that add a route of their own.
func (a *App) Echo() *echo.Echo { return a.e }

// isStream tells the requests that set their own deadlines: the gateway's
// chat endpoints may stream for longer than a page takes to render.
func isStream(c echo.Context) bool {
	p := c.Request().URL.Path
	return strings.HasPrefix(p, "/gateway/")
}

// Close releases what the app holds besides the database: it writes the
// gateway records still queued, then closes the upstream connections and
// the Redis client. Call it after the server has stopped.
func (a *App) Close() {
	a.recorder.Close()
	a.gateway.Close()
	if a.redis != nil {
		_ = a.redis.Close()
	}
}

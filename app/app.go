// Package app wires Parapet together: configuration, the middleware chain,
// the routes and the server's lifecycle.
package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/redis/go-redis/v9"

	"parapet/app/api"
	"parapet/app/gateway"
	"parapet/app/keys"
	"parapet/app/mail"
	"parapet/app/meter"
	"parapet/app/metrics"
	"parapet/app/pool"
	"parapet/app/session"
	"parapet/app/web"
	"parapet/models"
	"parapet/views/docs"
)

// App is one instance of the product: its configuration, dependencies and
// HTTP router.
type App struct {
	cfg     Config
	log     *slog.Logger
	e       *echo.Echo
	handler http.Handler // e, HEAD served as GET
	pages   *web.Pages
	api     *api.API
	redis   *redis.Client
	gateway *meter.Service
	db      *models.DB
	groups  map[string]*Group
	// routeSet is every route as "METHOD path", for the Allow header of a
	// 405 (areas.go).
	routeSet map[string]bool
	// outer is the chain every request takes, before its area's.
	outer   []echo.MiddlewareFunc
	metrics http.Handler
	// analyses bounds the tools' work; toolRate limits each user's runs.
	analyses *pool.Pool
	// mediaBodies bounds the memory of the gateway's large bodies.
	mediaBodies *pool.Pool
	toolRate    echo.MiddlewareFunc
}

// New builds the application on an open, migrated database, logging to
// out.
func New(cfg Config, db *models.DB, out LogOutput) (*App, error) {
	log := out.Logger()
	// The documentation is rendered once, here: a page missing from its
	// navigation or failing to render stops start-up, not a reader.
	if _, err := docs.Load(); err != nil {
		return nil, err
	}
	a := &App{cfg: cfg, log: log, db: db, groups: map[string]*Group{}, routeSet: map[string]bool{}}
	sessions := session.NewStore(db.DB, cfg.SessionSecret, a.requestIsHTTPS, func(r *http.Request) string { return a.e.IPExtractor(r) })
	verifier := keys.NewVerifier(db.DB, log)
	limiter, rc, err := newLimiter(cfg.RedisURL, cfg.RedisPrefix, log)
	if err != nil {
		return nil, err
	}
	a.redis = rc
	a.analyses = pool.New(cfg.AnalysisConcurrency, cfg.AnalysisMemoryBudget, cfg.AnalysisWait)
	a.mediaBodies = pool.New(maxMediaCalls, cfg.GatewayMediaMemory, cfg.AnalysisWait)
	a.toolRate = web.ToolRateLimit(limiter, cfg.ToolsRateLimitPerMinute)
	mailer, err := mail.New(cfg.SMTPURL, log, cfg.Production())
	if err != nil {
		return nil, err
	}
	g := cfg.Gateway
	proxy, err := gateway.New(gateway.Config{URL: g.UpstreamURL, Key: g.UpstreamKey, Style: g.UpstreamStyle, Model: g.Model, EmbeddingModel: g.EmbeddingModel,
		MaxTokens: g.MaxTokens, MaxTokensCap: g.MaxTokensCap, ConnectTimeout: g.ConnectTimeout, Timeout: g.Timeout,
		FirstByteTimeout: g.FirstByteTimeout, StreamIdleTimeout: g.StreamIdleTimeout, StreamMaxDuration: g.StreamMaxDuration,
		DrainTimeout: g.DrainTimeout, DemoWordDelay: g.DemoWordDelay, Routing: g.Routing, Breakers: newBreakers(rc, cfg.RedisPrefix, log),
		Draining: metrics.GatewayDraining.Add})
	if err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	var quotaRedis redis.UniversalClient // nil unless REDIS_URL is set (a nil *redis.Client is not)
	if rc != nil {
		quotaRedis = rc
	}
	a.gateway, err = meter.NewService(proxy, db, quotaRedis, limiter, log, meter.Config{LogContent: g.LogContent,
		UserRateLimit: cfg.GatewayRateLimitPerMinute, HoldTTL: proxy.HoldTTL(), RedisPrefix: cfg.RedisPrefix, Mail: mailer})
	if err != nil {
		return nil, fmt.Errorf("gateway service: %w", err)
	}
	a.api = api.New(api.Deps{DB: db, Keys: verifier, Limiter: limiter, PublicURL: cfg.PublicURL, IsHTTPS: a.requestIsHTTPS,
		Gateway: a.gateway, AIModel: cfg.ToolsAIModel,
		Analysis: func(ctx context.Context, bodyBytes int64) (func(), error) {
			return a.analyses.Acquire(ctx, analysisCost(bodyBytes))
		},
		Limits: map[api.Surface]int{
			api.SurfacePublic:  cfg.RateLimitPerMinute,
			api.SurfaceLogs:    cfg.RateLimitPerMinute,
			api.SurfaceScan:    cfg.RateLimitPerMinute,
			api.SurfaceGateway: cfg.GatewayRateLimitPerMinute,
			api.SurfaceKeys:    api.LeakReportsPerMinute,
		}})
	a.pages = web.New(web.Deps{DB: db, Log: log, Sessions: sessions, Keys: verifier, Secret: cfg.SessionSecret,
		GatewayMonthlyTokens: cfg.Gateway.MonthlyTokens, IsHTTPS: a.requestIsHTTPS, OnProductChange: a.api.InvalidateProducts,
		Gateway:  web.GatewayDeps{Service: a.gateway, Demo: cfg.DemoUpstream()},
		Throttle: newThrottle(db, rc, cfg.RedisPrefix, log), Mail: mailer, PublicURL: cfg.PublicURL,
		ShowMailLinks: !cfg.Production() && cfg.SMTPURL == ""})
	a.pages.Tools = navLinks(a.tools())
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
	// The chain every request takes, outermost first: an id, what a
	// handler left of the body drained once the answer is out (so an
	// early refusal reaches a client still sending), one log line and
	// the metrics, and a panic anywhere becomes a 500. Each area then
	// sets its security headers and adds its own chain (routes.go). HEAD runs
	// as GET wherever GET is routed.
	a.outer = []echo.MiddlewareFunc{requestID, drainUnread, observe(out), recoverPanic(log)}
	a.e = e
	a.handler = headAsGet(e)
	a.metrics = a.metricsHandler()
	a.routes()
	return a, nil
}

// Handler is the app as an http.Handler.
func (a *App) Handler() http.Handler { return a.handler }

// FlushAudit waits until every gateway record queued so far is written
// (tests read them right after a call).
func (a *App) FlushAudit() { a.gateway.Flush() }

// Echo exposes the router, for tests that add a route of their own.
func (a *App) Echo() *echo.Echo { return a.e }

// Close releases what the app holds besides the database: it writes the
// gateway records still queued, then closes the upstream connections and
// the Redis client. Call it after the server has stopped.
func (a *App) Close() {
	a.gateway.Close()
	if a.redis != nil {
		_ = a.redis.Close()
	}
}

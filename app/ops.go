package app

import (
	"context"
	"crypto/subtle"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"parapet/app/apierr"
	"parapet/app/httpx"
	"parapet/app/metrics"
)

// metricsHandler serves the shared series and this app's database pool.
func (a *App) metricsHandler() http.Handler {
	pool := prometheus.NewRegistry()
	pool.MustRegister(collectors.NewDBStatsCollector(a.db.SQL(), "parapet"))
	return promhttp.HandlerFor(prometheus.Gatherers{metrics.Registry, pool}, promhttp.HandlerOpts{})
}

// metricsPerMinute bounds the requests to /metrics from one client (an
// address, or an IPv6 /64): a wrong token is answered at once, so without
// a bound a short token could be guessed. Prometheus scrapes a few times
// a minute.
const metricsPerMinute = 60

// serveMetrics is GET /metrics, for operators: Prometheus text behind the
// METRICS_TOKEN bearer token. Without a token configured, metrics are off
// and the path does not exist (404); a missing or wrong token gets 401,
// and a client past metricsPerMinute 429 before its token is compared.
func (a *App) serveMetrics(c echo.Context) error {
	token := a.cfg.MetricsToken
	if token == "" {
		return echo.ErrNotFound
	}
	d, err := a.api.Limiter.Allow(c.Request().Context(), "metrics:ip:"+httpx.ClientNetwork(c), metricsPerMinute, time.Minute)
	if err != nil {
		return apierr.Internal(err)
	}
	if !d.Allowed {
		return apierr.RateLimited("at most "+strconv.Itoa(metricsPerMinute)+" requests per minute to /metrics; retry after "+
			strconv.Itoa(d.RetryAfterSeconds())+" seconds", d.RetryAfterSeconds())
	}
	got := c.Request().Header.Get("Authorization")
	if subtle.ConstantTimeCompare([]byte(got), []byte("Bearer "+token)) != 1 {
		c.Response().Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
		return apierr.New(http.StatusUnauthorized, "unauthenticated", "send the metrics token as Authorization: Bearer <METRICS_TOKEN>")
	}
	a.metrics.ServeHTTP(c.Response(), c.Request())
	return nil
}

// readyTimeout is how long /readyz waits for each dependency.
const readyTimeout = time.Second

// dependency is what the app needs to serve, and how to ask if it answers.
type dependency struct {
	name string
	ping func(context.Context) error
}

// ready is GET /readyz, for load balancers and orchestrators: 200 when the
// database (and Redis, when configured) answer within readyTimeout, else
// 503 naming the dependency that did not. Unlike /v1/health, which only
// says the process is up, it says whether it can serve.
func (a *App) ready(c echo.Context) error {
	checks := []dependency{{"database", a.db.SQL().PingContext}}
	if a.redis != nil {
		checks = append(checks, dependency{"redis", func(ctx context.Context) error { return a.redis.Ping(ctx).Err() }})
	}
	for _, ch := range checks {
		ctx, cancel := context.WithTimeout(c.Request().Context(), readyTimeout)
		err := ch.ping(ctx)
		cancel()
		if err != nil {
			a.log.Warn("not ready", "dependency", ch.name, "error", err)
			return apierr.New(http.StatusServiceUnavailable, "not_ready", ch.name+" did not answer within "+readyTimeout.String())
		}
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ready"})
}

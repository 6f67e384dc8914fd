package web

import (
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/ratelimit"
)

// ToolRateLimit limits each signed-in user's runs of the tools' pages to
// perMinute per minute (the APIs have their own per-key limit, see
// api.Guard), with the rate-limit headers and, past it, 429 rate_limited
// with Retry-After. One budget covers both tools. Mount it after
// RequireUser and before the analysis pool, so a refused run holds no slot.
func ToolRateLimit(l ratelimit.Limiter, perMinute int) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			user := CurrentOf(c).User
			if user == nil {
				return next(c)
			}
			d, err := l.Allow(c.Request().Context(), "tools:user:"+user.ID, perMinute, time.Minute)
			if err != nil {
				return err
			}
			d.SetHeaders(c.Response().Header())
			if !d.Allowed {
				return apierr.RateLimited("You have run the tools too often in the last minute. Wait a little and run it again.", d.RetryAfterSeconds())
			}
			return next(c)
		}
	}
}

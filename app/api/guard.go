package api

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/httpx"
	"parapet/app/keys"
)

// Surface is an API with its own rate-limit budget per key.
type Surface string

// Each surface counts a key's requests separately: analysing logs does not
// spend the budget of the product registry, and the gateway has its own
// configurable limit. The names are those of httpx.APISurface, which maps
// paths to surfaces.
const (
	SurfacePublic  Surface = "v1"
	SurfaceLogs    Surface = "logs"
	SurfaceScan    Surface = "scan"
	SurfaceGateway Surface = "gateway"
)

const (
	principalKey = "api_principal"
	authErrKey   = "api_auth_error"
)

// Principal returns the verified key of the request (set by Guard).
func Principal(c echo.Context) *keys.Principal {
	p, _ := c.Get(principalKey).(*keys.Principal)
	return p
}

// apiKeyFrom finds the key a client sent: the Authorization bearer token,
// or x-api-key, which the Messages-API compatible endpoint accepts as the
// official SDKs send it.
func apiKeyFrom(r *http.Request) (string, error) {
	if h := r.Header.Get("Authorization"); h != "" {
		return keys.BearerToken(h)
	}
	if k := strings.TrimSpace(r.Header.Get("X-Api-Key")); k != "" && strings.HasPrefix(r.URL.Path, "/gateway/") {
		return k, nil
	}
	return "", keys.ErrMissing
}

// Guard runs before every JSON API route, known or not: it verifies the
// key when one is sent, then counts the request against the key's budget
// on this surface, or against the client IP's when there is no valid key
// (so guessing keys is throttled too). Every response under the API
// prefixes therefore carries the three X-RateLimit headers, errors
// included. Whether a route needs a key is decided by RequireKey.
func (a *API) Guard(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		name, ok := httpx.APISurface(c.Request().URL.Path)
		surface := Surface(name)
		if !ok {
			return next(c)
		}
		r := c.Request()
		bucket := string(surface) + ":ip:" + c.RealIP()
		if key, err := apiKeyFrom(r); err != nil {
			c.Set(authErrKey, err)
		} else if p, err := a.Keys.VerifyKey(r.Context(), key); err != nil {
			var ae *apierr.Error
			if errors.As(err, &ae) && ae.Status >= 500 {
				return err
			}
			c.Set(authErrKey, err)
		} else {
			c.Set(principalKey, p)
			bucket = string(surface) + ":key:" + p.KeyID
		}
		limit := a.Limits[surface]
		d, err := a.Limiter.Allow(r.Context(), bucket, limit, time.Minute)
		if err != nil {
			return apierr.Internal(err)
		}
		d.SetHeaders(c.Response().Header())
		if !d.Allowed {
			e := apierr.New(http.StatusTooManyRequests, "rate_limited",
				"rate limit exceeded: at most "+strconv.Itoa(limit)+" requests per minute; retry after "+strconv.Itoa(d.RetryAfterSeconds())+" seconds")
			e.RetryAfter = d.RetryAfterSeconds()
			return e
		}
		return next(c)
	}
}

// RequireKey refuses a request without a valid key with the error Guard
// found: 401 missing_api_key or invalid_api_key.
func RequireKey(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if Principal(c) != nil {
			return next(c)
		}
		if err, ok := c.Get(authErrKey).(error); ok {
			return err
		}
		return keys.ErrMissing
	}
}

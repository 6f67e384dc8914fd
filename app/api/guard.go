package api

import (
	"errors"
	"net/http"
	"slices"
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
// configurable limit. The names are the `area` metrics label's too.
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

// GuardOption changes how Guard finds the key.
type GuardOption int

// AcceptXAPIKey also takes the key from the x-api-key header, as the
// official Anthropic SDKs send it to the Messages-API compatible endpoint.
const AcceptXAPIKey GuardOption = 1

// apiKeyFrom finds the key a client sent: the Authorization bearer token,
// or, where accepted, x-api-key.
func apiKeyFrom(r *http.Request, xAPIKey bool) (string, error) {
	if h := r.Header.Get("Authorization"); h != "" {
		return keys.BearerToken(h)
	}
	if k := strings.TrimSpace(r.Header.Get("X-Api-Key")); k != "" && xAPIKey {
		return k, nil
	}
	return "", keys.ErrMissing
}

// Guard is the chain of a JSON API area, for every request to it, known
// route or not: it verifies the key when one is sent, then counts the
// request against the key's budget on surface, or against the client IP's
// when there is no valid key (so guessing keys is throttled too). Every
// response of the area therefore carries the three X-RateLimit headers,
// errors included. Whether a route needs a key is decided by RequireKey.
func (a *API) Guard(surface Surface, opts ...GuardOption) echo.MiddlewareFunc {
	xAPIKey := slices.Contains(opts, AcceptXAPIKey)
	limit := a.Limits[surface]
	ipPrefix, keyPrefix := string(surface)+":ip:", string(surface)+":key:"
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			var bucket string // the key's, else the address's
			if key, err := apiKeyFrom(r, xAPIKey); err != nil {
				c.Set(authErrKey, err)
			} else if p, err := a.Keys.VerifyKey(r.Context(), key); err != nil {
				var ae *apierr.Error
				if errors.As(err, &ae) && ae.Status >= 500 {
					return err
				}
				c.Set(authErrKey, err)
			} else {
				c.Set(principalKey, p)
				bucket = keyPrefix + p.KeyID
			}
			if bucket == "" {
				bucket = ipPrefix + httpx.ClientNetwork(c)
			}
			d, err := a.Limiter.Allow(r.Context(), bucket, limit, time.Minute)
			if err != nil {
				return apierr.Internal(err)
			}
			d.SetHeaders(c.Response().Header())
			if !d.Allowed {
				return apierr.RateLimited("rate limit exceeded: at most "+strconv.Itoa(limit)+" requests per minute; retry after "+
					strconv.Itoa(d.RetryAfterSeconds())+" seconds", d.RetryAfterSeconds())
			}
			return next(c)
		}
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

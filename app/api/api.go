// Package api holds the JSON endpoints: the public API under /v1, the
// tools' APIs and the gateway. Errors are returned as *apierr.Error and
// written by the central error handler.
package api

import (
	"context"
	"net/http"

	"parapet/app/apierr"
	"parapet/app/httpx"
	"parapet/app/keys"
	"parapet/app/meter"
	"parapet/app/ratelimit"
	"parapet/models"

	"github.com/labstack/echo/v4"
)

// Deps is what the JSON endpoints need.
type Deps struct {
	DB      *models.DB
	Keys    *keys.Verifier
	Limiter ratelimit.Limiter
	// PublicURL, when set, is the origin product URLs are made absolute
	// with; otherwise the request's own origin is used.
	PublicURL string
	// Limits are requests per rolling minute per key (or per client IP
	// without a valid key), by API surface.
	Limits  map[Surface]int
	IsHTTPS func(*http.Request) bool
	// Gateway is the gateway service every gateway endpoint adapts.
	Gateway *meter.Service
	// AIModel is the model of the tools' AI help (TOOLS_AI_MODEL); ""
	// for the gateway's default.
	AIModel string
	// Analysis admits one analysis of a body of that size to the
	// analysis pool (the AI help's, which run outside the tools' routes);
	// release ends it.
	Analysis func(ctx context.Context, bodyBytes int64) (release func(), err error)
}

// API serves the JSON routes.
type API struct {
	Deps
	products *productCache
}

// New makes the JSON handlers.
func New(d Deps) *API {
	return &API{Deps: d, products: &productCache{db: d.DB}}
}

// decodeBody decodes a JSON body as read by httpx.ReadBody or readLogBody
// (whose error, when there is one, is the answer) into a T.
func decodeBody[T any](body []byte, err error) (T, error) {
	var v T
	if err != nil {
		return v, err
	}
	err = httpx.DecodeJSON(body, &v)
	return v, err
}

// InvalidateProducts drops the cached product registry after a change
// through this instance, so the API shows it at once.
func (a *API) InvalidateProducts() { a.products.invalidate() }

// answer is a success: 200 with {"data": v}.
func answer[T any](c echo.Context, v T) error {
	b, err := httpx.Envelope(v)
	if err != nil {
		return apierr.Internal(err)
	}
	return c.JSONBlob(http.StatusOK, b)
}

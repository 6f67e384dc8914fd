// Package httpx is the HTTP plumbing shared by the browser pages (app/web)
// and the JSON endpoints (app/api): the request id, rendering, JSON bodies.
package httpx

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"parapet/views"
)

const requestIDKey = "request_id"

// SetRequestID records the request's id for handlers and the error handler.
func SetRequestID(c echo.Context, id string) { c.Set(requestIDKey, id) }

// RequestID returns the id of the request being served.
func RequestID(c echo.Context) string {
	id, _ := c.Get(requestIDKey).(string)
	return id
}

// Render writes a templ component as an HTML response. It renders into a
// buffer first so a failure mid-page becomes an error page, not half a page.
func Render(c echo.Context, status int, component templ.Component) error {
	var buf bytes.Buffer
	// Rendering is in-memory work; an error page must still render after
	// the request's deadline has cancelled its context.
	if err := component.Render(context.WithoutCancel(c.Request().Context()), &buf); err != nil {
		return err
	}
	return c.HTMLBlob(status, buf.Bytes())
}

// IsHTMX reports whether htmx made the request (it swaps a fragment).
func IsHTMX(c echo.Context) bool { return c.Request().Header.Get("HX-Request") == "true" }

// apiPrefixes are the paths of the JSON APIs, each with the name of its
// surface (a separate rate-limit budget, see api.Guard). Everything else is
// a browser route and gets an HTML error page.
var apiPrefixes = []struct{ prefix, surface string }{
	{"/v1/", "v1"},
	{"/logs/v1/", "logs"},
	{"/scan/v1/", "scan"},
	{"/gateway/v1/", "gateway"},
	{"/keys/v1/", "keys"}, // the leak report endpoint: budget per address
}

// APISurface returns the surface of a path under one of the JSON API
// prefixes.
func APISurface(path string) (string, bool) {
	for _, p := range apiPrefixes {
		if strings.HasPrefix(path, p.prefix) {
			return p.surface, true
		}
	}
	return "", false
}

// IsJSONPath reports whether a path belongs to a JSON API.
func IsJSONPath(path string) bool {
	if path == "/openapi.json" || path == "/v1" {
		return true
	}
	_, ok := APISurface(path)
	return ok
}

// AnswersJSON reports whether errors on path are answered in JSON: the
// JSON APIs, and the playground's chat endpoint, which a script calls with
// the session and which streams events rather than rendering a page.
func AnswersJSON(path string) bool {
	return IsJSONPath(path) || path == "/gateway/app/chat"
}

// FormatBytes writes a byte count the way our limits are documented
// (1 MiB, 16 KiB, 5 MiB).
func FormatBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}

const chromeKey = "chrome"

// SetChrome records what the layout shows for this request (who is signed
// in, the current organization, the CSRF token).
func SetChrome(c echo.Context, ch views.Chrome) { c.Set(chromeKey, ch) }

// Chrome returns the layout data for this request with the given title.
func Chrome(c echo.Context, title string) views.Chrome {
	ch, _ := c.Get(chromeKey).(views.Chrome)
	ch.Title = title
	return ch
}

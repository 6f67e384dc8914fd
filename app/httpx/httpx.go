// Package httpx is the HTTP plumbing shared by the browser pages (app/web)
// and the JSON endpoints (app/api): the request id, rendering, JSON bodies.
// It knows no page: what the layout shows is app/web's (Chrome).
package httpx

import (
	"bufio"
	"bytes"
	"context"
	"fmt"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
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

// Stream writes a templ component as an HTML response while it renders.
// It is for the tools' reports, whose pages carry their downloads (a scan
// of 60,000 findings: 50 MB of JSON and SARIF): buffered as Render does,
// the page was held whole beside the report and its downloads, and the
// buffer's growth held it half again. A report is all in memory before
// it is rendered, so rendering fails only when the client has gone; the
// response is then cut short.
func Stream(c echo.Context, status int, component templ.Component) error {
	c.Response().Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	c.Response().WriteHeader(status)
	w := bufio.NewWriterSize(c.Response(), 32<<10)
	if err := component.Render(context.WithoutCancel(c.Request().Context()), w); err != nil {
		return err
	}
	return w.Flush()
}

// IsHTMX reports whether htmx made the request (it swaps a fragment).
func IsHTMX(c echo.Context) bool { return c.Request().Header.Get("HX-Request") == "true" }

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

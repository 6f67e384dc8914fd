package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/httpx"
	"parapet/app/metrics"
	"parapet/models"
)

// requestIDPattern is what we accept as an incoming X-Request-Id: short,
// printable and safe to echo into headers, logs and JSON.
var requestIDPattern = regexp.MustCompile(`^[A-Za-z0-9._:-]{8,128}$`)

// requestID gives every request an id: a well-formed incoming X-Request-Id
// (from a proxy or the client) is kept, anything else gets a new req_… id.
// The same id is in the response header, the log line and error bodies.
func requestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Request().Header.Get(echo.HeaderXRequestID)
		if !requestIDPattern.MatchString(id) {
			id = models.NewRequestID()
		}
		httpx.SetRequestID(c, id)
		c.Response().Header().Set(echo.HeaderXRequestID, id)
		return next(c)
	}
}

// observe writes one structured line per request and counts it in the
// request metrics: its area, its route template (c.Path(), or "unmatched";
// never the raw path), its method and status class, and how long it took.
// The line has the path (its secret masked: loggedPath), not the query
// string or any header, so no key or session can leak into logs.
func observe(out LogOutput) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			err := next(c)
			if err != nil {
				// Write the error response now so the status logged is the
				// one the client gets.
				c.Error(err)
			}
			took := time.Since(start)
			req, res := c.Request(), c.Response()
			route := c.Path()
			if route == "" {
				route = unmatchedRoute
			}
			method := req.Method
			if _, head := res.Writer.(headWriter); head {
				method = http.MethodHead // served as a GET by headAsGet
			}
			metrics.ObserveRequest(areaOf(c).name, route, method, res.Status, took)
			line := accessLine{at: start.Add(took), method: method, path: loggedPath(c), status: res.Status, took: took,
				bytes: res.Size, ip: c.RealIP(), requestID: httpx.RequestID(c)}
			line.write(out)
			return nil
		}
	}
}

// secretParam is the route parameter that carries a credential: an
// invitation link's token admits whoever holds it to the organization, and
// logs are read by more people than its invitee.
const secretParam = "token"

// loggedPath is the path of the log line: the request's own, or on a
// route with a secret, the route's template with every parameter but the
// secret filled in ("/invite/org_abc/:token").
func loggedPath(c echo.Context) string {
	names := c.ParamNames()
	if !slices.Contains(names, secretParam) {
		return c.Request().URL.Path
	}
	p := c.Path()
	for _, name := range names {
		if name != secretParam {
			p = strings.Replace(p, ":"+name, c.Param(name), 1)
		}
	}
	return p
}

// recoverPanic turns a panic into a 500 internal_error whose body says
// nothing internal; the panic and its stack go to the log with the
// request id.
func recoverPanic(log *slog.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) (err error) {
			defer func() {
				if r := recover(); r != nil {
					if r == context.Canceled {
						panic(r)
					}
					log.Error("panic", "request_id", httpx.RequestID(c), "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
					err = apierr.Internal(fmt.Errorf("panic: %v", r))
				}
			}()
			return next(c)
		}
	}
}

// The security headers come in two sets, each area declaring its own
// (areas.go); HSTS is added to either over HTTPS.
var (
	// documentHeaders go on what a browser renders as a page (the pages,
	// their error pages, static assets): a CSP that allows only our own
	// scripts, styles and requests (no inline script, no eval, no
	// framing; Pico's icons are data: SVGs), and the policies that apply
	// to documents.
	documentHeaders = http.Header{
		"Content-Security-Policy": {"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
			"font-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"},
		"X-Content-Type-Options":     {"nosniff"},
		"X-Frame-Options":            {"DENY"},
		"Referrer-Policy":            {"strict-origin-when-cross-origin"},
		"Cross-Origin-Opener-Policy": {"same-origin"},
		"Permissions-Policy":         {"camera=(), microphone=(), geolocation=(), payment=()"},
	}
	// apiHeaders go on JSON answers (the APIs, the gateway, the operator
	// endpoints): OWASP's REST set. Opened in a browser, a JSON answer
	// loads nothing and is never framed or sniffed; the referrer, opener
	// and permissions policies would apply to nothing, and each header is
	// parsed by every client on every call.
	apiHeaders = http.Header{
		"Content-Security-Policy": {"default-src 'none'; frame-ancestors 'none'"},
		"X-Content-Type-Options":  {"nosniff"},
		"X-Frame-Options":         {"DENY"},
	}
	hstsValue = []string{"max-age=63072000; includeSubDomains"}
)

// isHTTPS tells whether the client reached us over HTTPS.
func (a *App) isHTTPS(c echo.Context) bool { return a.requestIsHTTPS(c.Request()) }

// requestIsHTTPS: directly over TLS, or through a trusted proxy that says
// so in X-Forwarded-Proto (an untrusted client could claim anything).
func (a *App) requestIsHTTPS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	return a.cfg.TrustProxy && r.Header.Get(echo.HeaderXForwardedProto) == "https"
}

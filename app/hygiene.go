package app

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// headAsGet answers HEAD wherever GET is routed (Echo routes HEAD
// nowhere by itself). It wraps the router rather than being an Echo
// pre-middleware, which Echo would wrap around the router anew on every
// request: the request is routed and handled as a GET whose body writes
// are dropped, and is a HEAD again before net/http finishes the response,
// so the client gets the GET's status and headers without a body.
func headAsGet(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		r.Method = http.MethodGet
		defer func() { r.Method = http.MethodHead }()
		next.ServeHTTP(headWriter{w}, r)
	})
}

// headWriter drops the body of a HEAD response.
type headWriter struct{ http.ResponseWriter }

func (w headWriter) Write(p []byte) (int, error) { return len(p), nil }

func (w headWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// redirectToHTTPS sends a plain-HTTP request to the same path on
// PUBLIC_URL when that is https (308 keeps the method and body). Whether a
// request came over HTTPS honours TRUST_PROXY: only a trusted proxy's
// X-Forwarded-Proto counts. routes.go leaves it off the operators'
// endpoints, which answer on either for probes inside the platform. HSTS
// (set as an area is entered) then keeps browsers on HTTPS.
func (a *App) redirectToHTTPS(next echo.HandlerFunc) echo.HandlerFunc {
	if !strings.HasPrefix(a.cfg.PublicURL, "https://") {
		return next
	}
	return func(c echo.Context) error {
		if a.isHTTPS(c) {
			return next(c)
		}
		return c.Redirect(http.StatusPermanentRedirect, a.cfg.PublicURL+c.Request().URL.RequestURI())
	}
}

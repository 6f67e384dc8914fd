package app

import (
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"
)

// area is one part of the product as routes.go declares it: its name (the
// `area` label of the request metrics), how its errors are written, which
// security headers its answers carry and, where a client library reads the
// request id under another name than X-Request-Id, that name.
type area struct {
	name      string
	errors    errorWriter
	headers   http.Header // shared, never written to: documentHeaders or apiHeaders
	requestID string      // canonical header name, or ""
}

// The areas of routes.go. The tools' API areas are named after the tools.
var (
	areaPages      = &area{name: "pages", errors: writePageError, headers: documentHeaders}
	areaPublic     = &area{name: "v1", errors: writeJSONError, headers: apiHeaders}
	areaGateway    = &area{name: "gateway", errors: writeJSONError, headers: apiHeaders}
	areaMessages   = &area{name: "gateway", errors: writeAnthropicError, headers: apiHeaders, requestID: "Request-Id"} // the Anthropic SDKs read request-id
	areaOpenAI     = &area{name: "gateway", errors: writeOpenAIError, headers: apiHeaders}
	areaPlayground = &area{name: "playground", errors: writeJSONError, headers: apiHeaders}
	areaOpenAPI    = &area{name: "openapi", errors: writeJSONError, headers: apiHeaders}
	areaOps        = &area{name: "ops", errors: writeJSONError, headers: apiHeaders}
	areaKeys       = &area{name: "keys", errors: writeJSONError, headers: apiHeaders}
	areaStatic     = &area{name: "static", errors: writePageError, headers: documentHeaders}
)

const areaKey = "area"

// enter marks the request as one of area's, for the error handler and the
// metrics, and sets the area's security headers (HSTS too over HTTPS) and
// request id header.
// The header values are shared, not copied: no one appends to them.
func (a *App) enter(ar *area) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			c.Set(areaKey, ar)
			h := c.Response().Header()
			for k, v := range ar.headers {
				h[k] = v
			}
			if a.isHTTPS(c) {
				h["Strict-Transport-Security"] = hstsValue
			}
			if ar.requestID != "" {
				h[ar.requestID] = h[echo.HeaderXRequestID] // set by requestID, which runs first
			}
			return next(c)
		}
	}
}

// areaOf is the area the request entered; before any (a failure in the
// outer chain) it is the pages'.
func areaOf(c echo.Context) *area {
	if ar, ok := c.Get(areaKey).(*area); ok {
		return ar
	}
	return areaPages
}

// Group is the routes of an area under one prefix. Each route is served
// through the chain every request takes (App.outer), then the area's,
// then its own middleware; the chain is composed once, when the route is
// added, rather than on every request as Echo's groups do.
type Group struct {
	e      *echo.Echo
	routes map[string]bool // the App's: every route's "METHOD path"
	prefix string
	chain  []echo.MiddlewareFunc
}

// routesOf is an area's routes, without a catch-all.
func (a *App) routesOf(ar *area, chain ...echo.MiddlewareFunc) *Group {
	return &Group{e: a.e, routes: a.routeSet, chain: slices.Concat(a.outer, []echo.MiddlewareFunc{a.enter(ar)}, chain)}
}

// group declares an area under prefix with its chain. The chain also
// serves the paths under prefix that no route matches, so those are
// refused in the area's own way.
func (a *App) group(prefix string, ar *area, chain ...echo.MiddlewareFunc) *Group {
	g := a.routesOf(ar, chain...)
	g.prefix = prefix
	a.e.RouteNotFound(prefix, g.compose(a.unmatched, nil))
	a.e.RouteNotFound(prefix+"/*", g.compose(a.unmatched, nil))
	a.groups[prefix] = g
	return g
}

// Add adds a route at the group's prefix + path.
func (g *Group) Add(method, path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	r := g.e.Add(method, g.prefix+path, g.compose(h, m))
	g.routes[r.Method+" "+r.Path] = true
	return r
}

// GET adds a GET route.
func (g *Group) GET(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return g.Add(http.MethodGet, path, h, m...)
}

// POST adds a POST route.
func (g *Group) POST(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	return g.Add(http.MethodPost, path, h, m...)
}

func (g *Group) compose(h echo.HandlerFunc, m []echo.MiddlewareFunc) echo.HandlerFunc {
	chain := slices.Concat(g.chain, m)
	for i := len(chain) - 1; i >= 0; i-- {
		h = chain[i](h)
	}
	return h
}

// Group returns the area declared at prefix ("" for the pages, "/v1",
// "/logs/v1", ...), for tests that add a route of their own to an area.
func (a *App) Group(prefix string) *Group { return a.groups[prefix] }

// unmatchedRoute is the route label of a request no route matched.
const unmatchedRoute = "unmatched"

// unmatched serves the paths under an area's prefix that no route of it
// matches. Echo's catch-all matches every method, so a path that another
// method serves would be a 404 here: it is a 405 with Allow (OPTIONS: 204
// with Allow), as Echo answers outside a catch-all.
func (a *App) unmatched(c echo.Context) error {
	allow := a.allowedMethods(c)
	c.SetPath(unmatchedRoute)
	if allow != "" {
		c.Response().Header().Set(echo.HeaderAllow, allow)
		if c.Request().Method == http.MethodOptions {
			return c.NoContent(http.StatusNoContent) // as Echo answers OPTIONS
		}
		return methodNotAllowed(c.Request().Method, c.Request().URL.Path)
	}
	return echo.ErrNotFound
}

// routeMethods are the methods a route of ours may serve.
var routeMethods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// allowedMethods lists the methods a route serves at the request's path.
// The routes are looked up in the set Group.Add keeps, not listed anew:
// every unknown path a scanner probes comes here.
func (a *App) allowedMethods(c echo.Context) string {
	var allow []string
	r := c.Request()
	for _, m := range routeMethods {
		probe := a.e.NewContext(r, nil)
		a.e.Router().Find(m, echo.GetPath(r), probe)
		if a.routeSet[m+" "+probe.Path()] {
			allow = append(allow, m)
		}
	}
	return strings.Join(allow, ", ")
}

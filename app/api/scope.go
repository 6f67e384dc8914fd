package api

import (
	"github.com/labstack/echo/v4"

	"parapet/app/keys"
)

// scopeAreas names, for the 403's message, what each scope opens.
var scopeAreas = map[string]string{
	keys.ScopePublic:  "the public API (/v1)",
	keys.ScopeLogs:    "the log analyzer API (/logs/v1)",
	keys.ScopeScan:    "the config scanner API (/scan/v1)",
	keys.ScopeGateway: "the gateway API (/gateway/v1)",
}

// RequireScope refuses a key without scope with 403 insufficient_scope,
// naming the missing scope. It runs after RequireKey, on the routes of one
// area: the route registration says which scope its area needs.
func RequireScope(scope string) echo.MiddlewareFunc {
	area := scopeAreas[scope]
	if area == "" {
		panic("api.RequireScope: unknown scope " + scope)
	}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if p := Principal(c); p != nil && !p.Can(scope) {
				return keys.InsufficientScope(scope, area)
			}
			return next(c)
		}
	}
}

package app

import (
	"strings"

	"github.com/labstack/echo/v4"

	"parapet/app/gateway"
	"parapet/app/httpx"
	"parapet/app/logs"
	"parapet/app/scan"
)

// Body limits, applied before anything reads a body (httpx.LimitBody).
// A tool takes its engine's input limit twice over (a browser sends a
// textarea's newlines as CRLF; JSON escapes), plus room for the other
// fields; every other form is small.
const (
	authFormLimit = 8 << 10  // sign-in and sign-up: an email, a password, a token
	pageFormLimit = 64 << 10 // any other console form (a product's description is the longest)
	apiBodyLimit  = gateway.MaxBodyBytes
	logsBodyLimit = 2*logs.MaxInputBytes + 64<<10
	scanBodyLimit = 2*scan.MaxInputBytes + 64<<10
	compareLimit  = 2 * logsBodyLimit // two logs
)

// routeBodyLimits are the routes whose limit differs from their area's
// default. When the routes move onto area groups, each group (or route)
// mounts httpx.LimitBody with its own value instead.
var routeBodyLimits = map[string]int64{
	"/console/signin":   authFormLimit,
	"/console/signup":   authFormLimit,
	"/gateway/app/chat": apiBodyLimit,
}

// toolBodyLimits are the tools' routes, whose handlers explain an
// oversized input in their own words (httpx.LimitBodyExplained).
var toolBodyLimits = map[string]int64{
	"/logs/app":        logsBodyLimit,
	"/logs/v1/analyze": logsBodyLimit,
	"/logs/v1/compare": compareLimit,
	"/scan/app":        scanBodyLimit,
	"/scan/v1/scan":    scanBodyLimit,
}

// limitBodies mounts httpx.LimitBody with the route's limit: its own, or
// its area's (the JSON APIs' and the playground chat's 1 MiB, the pages'
// 64 KiB).
func limitBodies(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if n, ok := toolBodyLimits[c.Path()]; ok {
			return httpx.LimitBodyExplained(n)(next)(c)
		}
		n, ok := routeBodyLimits[c.Path()]
		if !ok {
			n = pageFormLimit
			if p := c.Request().URL.Path; httpx.IsJSONPath(p) || strings.HasPrefix(p, "/gateway/") {
				n = apiBodyLimit
			}
		}
		return httpx.LimitBody(n)(next)(c)
	}
}

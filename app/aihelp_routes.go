package app

import (
	"github.com/labstack/echo/v4"

	"parapet/app/api"
	"parapet/app/httpx"
	"parapet/app/keys"
	"parapet/app/web"
)

// The tools' AI help answers in its tool's JSON error shape, on its API
// and on its pages alike (the pages' script shows the message).
var (
	areaLogsAI = &area{"logs", writeJSONError, apiHeaders}
	areaScanAI = &area{"scan", writeJSONError, apiHeaders}
)

// aiHelpRoutes are the tools' AI help (views/docs/ai-help.md): a log's
// Explain and a finding's Suggest a fix, each on the tool's API (its key
// scope and budget) and on its page (the session, the CSRF token in a
// header). Neither has REQUEST_TIMEOUT: each is a gateway call, whose
// deadlines the gateway service sets; its analysis runs in the analysis
// pool.
func (a *App) aiHelpRoutes(https echo.MiddlewareFunc) {
	p, v1 := a.pages, a.api
	for _, r := range []struct {
		ar      *area
		surface api.Surface
		scope   string
		api     string
		page    string
		handler func(api.AICaller) echo.HandlerFunc
		limit   int64
		clean   echo.MiddlewareFunc
	}{
		{areaLogsAI, api.SurfaceLogs, keys.ScopeLogs, "/logs/v1/explain", "/logs/app/explain", v1.Explain, api.ExplainBodyLimit, httpx.CleanJSON},
		// The scanner reports a document's repeated keys itself, with lines.
		{areaScanAI, api.SurfaceScan, keys.ScopeScan, "/scan/v1/fix", "/scan/app/fix", v1.Fix, api.FixBodyLimit, httpx.CleanJSONText},
	} {
		a.routesOf(r.ar, https, v1.Guard(r.surface)).POST(r.api, r.handler(api.KeyCaller),
			api.RequireKey, api.RequireScope(r.scope), httpx.LimitBodyExplained(r.limit), r.clean)
		a.routesOf(r.ar, https, httpx.LimitBody(r.limit), p.LoadUser, web.NoStore, web.RequireSession, p.CSRF, r.clean).
			POST(r.page, r.handler(p.AICaller))
	}
}

package app

import (
	"github.com/labstack/echo/v4"

	"parapet/app/api"
	"parapet/app/web"
	"parapet/static"
)

// routes is every route of the product in one place. Each area is one
// group (areas.go) that declares its whole chain: who may call it (session
// or API key), CSRF, rate limit, deadline, and how its errors are written.
// Nothing outside this file looks at a request's path to decide what to
// do. A group's chain also serves the paths under its prefix that no route
// matches, so an unknown /v1/... path answers JSON with rate-limit headers.
// Every chain starts with App.outer: request id, security headers, the log
// line and metrics, panic recovery.
func (a *App) routes() {
	p := a.pages
	v1 := a.api
	timeout := requestTimeout(a.cfg.RequestTimeout)

	// Operators and assets: no session, no key.
	a.routesOf(areaStatic).GET("/static/*", echo.WrapHandler(static.Handler()))
	a.routesOf(areaOpenAPI).GET("/openapi.json", v1.OpenAPI)
	ops := a.routesOf(areaOps)
	ops.GET("/metrics", a.serveMetrics)
	ops.GET("/readyz", a.ready)

	// Pages (landing, docs, console, tool pages): the session, CSRF on
	// every state-changing request, the request deadline, HTML errors. Its
	// catch-all also serves every path no other area claims.
	pages := a.group("", areaPages, p.LoadUser, p.CSRF, timeout)
	pages.GET("/", p.Home)
	pages.GET("/docs", p.Docs)
	pages.GET("/console/signup", p.SignUpPage)
	pages.POST("/console/signup", p.SignUp)
	pages.GET("/console/signin", p.SignInPage)
	pages.POST("/console/signin", p.SignIn)
	pages.POST("/console/signout", p.SignOut)
	console := a.group("/console", areaPages, p.LoadUser, p.CSRF, timeout, web.RequireUser)
	console.GET("", p.ConsoleHome)
	console.GET("/orgs", p.OrgsPage)
	console.POST("/orgs", p.CreateOrg)
	console.POST("/orgs/switch", p.SwitchOrg)
	console.GET("/keys", p.KeysPage)
	console.POST("/keys", p.CreateKey)
	console.POST("/keys/:id/revoke", p.RevokeKey)
	console.GET("/audit", p.AuditPage)
	console.GET("/usage", p.UsagePage)
	console.GET("/account", p.AccountPage)
	console.POST("/account/password", p.ChangePassword)
	console.GET("/products", p.ProductsPage, web.RequireStaff)
	console.POST("/products", p.CreateProduct, web.RequireStaff)
	console.POST("/products/:slug", p.UpdateProduct, web.RequireStaff)
	pages.GET("/gateway/app", p.PlaygroundPage, web.RequireUser)

	// Public API v1 (SPEC section 4): the key (checked when sent, required
	// but on /health), the "v1" rate-limit budget, the deadline, JSON errors.
	pub := a.group("/v1", areaPublic, v1.Guard(api.SurfacePublic), timeout)
	pub.GET("/health", v1.Health)
	pub.GET("/products", v1.ListProducts, api.RequireKey)
	pub.GET("/products/:slug", v1.GetProduct, api.RequireKey)

	// The tools (log analyzer, config scanner): each is a page in the pages
	// area and a JSON API of its own, with its own rate-limit budget.
	for _, t := range a.tools() {
		pages.GET(t.pagePath, t.page, web.RequireUser)
		pages.POST(t.pagePath, t.run, web.RequireUser)
		for _, r := range t.pages {
			pages.Add(r.method, t.pagePath+r.path, r.handler, web.RequireUser)
		}
		g := a.group(t.apiPrefix, &area{t.name, writeJSONError}, v1.Guard(t.surface), timeout)
		for _, r := range t.api {
			g.Add(r.method, r.path, r.handler, api.RequireKey)
		}
	}

	// Gateway API: the key (also as x-api-key, as the official SDKs send
	// it) and the gateway's own budget. Each dialect writes its errors in
	// its own shape: ours on /chat, Anthropic's on the Messages endpoints
	// and the model list (both SDKs read it), OpenAI's on Chat Completions.
	// The calls have no REQUEST_TIMEOUT (the gateway service sets its own
	// deadlines), and every call is recorded, refusals by the guard too.
	guard := v1.Guard(api.SurfaceGateway, api.AcceptXAPIKey)
	a.group("/gateway/v1", areaGateway, guard, timeout) // unknown paths
	a.routesOf(areaMessages, guard, timeout).GET("/gateway/v1/models", v1.Models, api.RequireKey)
	a.routesOf(areaMessages, guard, timeout).POST("/gateway/v1/messages/count_tokens", v1.CountTokens, api.RequireKey)
	a.routesOf(areaGateway, a.gatewayCalls, guard).POST("/gateway/v1/chat", v1.Chat, api.RequireKey)
	a.routesOf(areaMessages, a.gatewayCalls, guard).POST("/gateway/v1/messages", v1.Messages, api.RequireKey)
	a.routesOf(areaOpenAI, a.gatewayCalls, guard).POST("/gateway/v1/chat/completions", v1.ChatCompletions, api.RequireKey)

	// The playground's chat: every call audited like the API's, refusals
	// included; the session (a 401 in JSON, not a redirect), CSRF, JSON
	// errors before the stream starts, the gateway's own deadlines.
	chat := a.group("/gateway/app/chat", areaPlayground, a.gatewayCalls, p.LoadUser, p.CSRF, web.RequireSession)
	chat.POST("", p.PlaygroundChat)
}

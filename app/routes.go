package app

import (
	"github.com/labstack/echo/v4"
	"slices"

	"parapet/app/api"
	"parapet/app/httpx"
	"parapet/app/keys"
	"parapet/app/web"
	"parapet/static"
)

// routes is every route of the product in one place. Each area is one
// group (areas.go) that declares its whole chain: who may call it (session
// or API key), CSRF, rate limit, deadline, and how its errors are written.
// Nothing outside this file looks at a request's path to decide what to
// do. A group's chain also serves the paths under its prefix that no route
// matches, so an unknown /v1/... path answers JSON with rate-limit headers.
// Every chain starts with App.outer (request id, the log line and metrics,
// panic recovery), then the area's security headers: a page's set or the
// JSON answers' set (middleware.go).
func (a *App) routes() {
	p := a.pages
	v1 := a.api
	timeout := requestTimeout(a.cfg.RequestTimeout)
	https := a.redirectToHTTPS // plain HTTP to an https PUBLIC_URL

	// Operators and assets: no session, no key, on HTTP too (probes
	// inside the platform).
	a.routesOf(areaStatic, https).GET("/static/*", static.Handler())
	a.routesOf(areaOpenAPI, https).GET("/openapi.json", v1.OpenAPI)
	ops := a.routesOf(areaOps)
	ops.GET("/metrics", a.serveMetrics)
	ops.GET("/readyz", a.ready)

	// Pages (landing, docs, console, tool pages): the body held to its
	// limit before anything reads it, the session (never cached once
	// signed in), CSRF and our origin on every state-changing request,
	// the request deadline, HTML errors. Its catch-all also serves every
	// path no other area claims.
	page := func(limit echo.MiddlewareFunc, more ...echo.MiddlewareFunc) []echo.MiddlewareFunc {
		return append([]echo.MiddlewareFunc{https, limit, p.LoadUser, web.NoStore, p.CSRF, timeout}, more...)
	}
	pages := a.group("", areaPages, page(httpx.LimitBody(pageFormLimit))...)
	pages.GET("/", p.Home)
	pages.GET("/docs", p.DocsHome)
	pages.GET("/docs/api-reference", p.Docs)
	pages.GET("/docs/:page", p.DocsPage)
	pages.GET("/console/signup", p.SignUpPage)
	pages.GET("/console/signin", p.SignInPage)
	pages.POST("/console/signout", p.SignOut)
	auth := a.routesOf(areaPages, page(httpx.LimitBody(authFormLimit))...)
	auth.POST("/console/signup", p.SignUp)
	auth.POST("/console/signin", p.SignIn)
	auth.GET("/console/signin/2fa", p.SecondStepPage)
	auth.POST("/console/signin/2fa", p.SecondStep)
	auth.POST("/console/signin/passkey/begin", p.BeginPasskeySignIn)
	auth.POST("/console/signin/passkey/finish", p.FinishPasskeySignIn)
	auth.POST("/console/signin/2fa/passkey/begin", p.BeginPasskeySecondStep)
	auth.POST("/console/signin/2fa/passkey/finish", p.FinishPasskeySecondStep)
	pages.GET("/console/password/forgot", p.ForgotPasswordPage)
	auth.POST("/console/password/forgot", p.ForgotPassword)
	pages.GET("/console/password/reset/:token", p.ResetPasswordPage)
	auth.POST("/console/password/reset/:token", p.ResetPassword)
	auth.POST("/console/password/check", p.CheckPassword)
	pages.GET("/verify/:token", p.ConfirmEmailPage)
	pages.POST("/verify/:token", p.ConfirmEmail)
	// Invitation links: open to visitors (who are sent to sign up or in
	// and come back); accepting needs an account.
	pages.GET("/invite/:org/:token", p.InvitationPage)
	pages.POST("/invite/:org/:token", p.AcceptInvitation, web.RequireUser)
	// The console: signed in, and enrolled in two-factor sign-in when the
	// organization requires it, but on the account's pages (where one
	// enrols) and the organizations' (to switch elsewhere).
	account := a.routesOf(areaPages, page(httpx.LimitBody(pageFormLimit), web.RequireUser)...)
	account.GET("/console/orgs", p.OrgsPage)
	account.POST("/console/orgs", p.CreateOrg)
	account.POST("/console/orgs/switch", p.SwitchOrg)
	account.GET("/console/account", p.AccountPage)
	account.POST("/console/account/password", p.ChangePassword)
	account.POST("/console/account/sessions/:handle/end", p.EndSession)
	account.POST("/console/account/sessions/end-others", p.EndOtherSessions)
	account.GET("/console/account/2fa", p.TwoFactorPage)
	account.POST("/console/account/2fa", p.EnableTwoFactor)
	account.POST("/console/account/2fa/disable", p.DisableTwoFactor)
	account.POST("/console/account/passkeys/begin", p.BeginPasskeyRegistration)
	account.POST("/console/account/passkeys/finish", p.FinishPasskeyRegistration)
	account.POST("/console/account/passkeys/:id/rename", p.RenamePasskey)
	account.POST("/console/account/passkeys/:id/remove", p.RemovePasskey)
	account.GET("/console/account/verify", p.VerifyPage)
	account.POST("/console/account/verify", p.ResendVerification)
	console := a.group("/console", areaPages, page(httpx.LimitBody(pageFormLimit), web.RequireUser, p.Require2FA)...)
	console.GET("", p.ConsoleHome)
	console.GET("/keys", p.KeysPage)
	console.POST("/keys", p.CreateKey)
	console.POST("/keys/:id/revoke", p.RevokeKey)
	console.POST("/keys/:id/roll", p.RollKey)
	console.POST("/keys/leaks/seen", p.MarkLeaksSeen)
	console.GET("/members", p.MembersPage)
	console.POST("/members/leave", p.LeaveOrg)
	console.POST("/members/:user/role", p.SetMemberRole)
	console.POST("/members/:user/remove", p.RemoveMember)
	console.GET("/settings", p.SettingsPage)
	console.POST("/settings/name", p.RenameOrg)
	console.POST("/settings/require-2fa", p.SetRequire2FA)
	console.POST("/settings/delete-org", p.DeleteOrg)
	console.GET("/invitations", p.InvitationsPage)
	console.POST("/invitations", p.CreateInvitation)
	console.POST("/invitations/:id/revoke", p.RevokeInvitation)
	console.GET("/audit", p.AuditPage)
	console.GET("/usage", p.UsagePage)
	console.GET("/usage/calls.csv", p.UsageCSV)
	console.POST("/usage/budget", p.SetGatewayBudget)
	console.POST("/usage/models", p.SetGatewayModels)
	console.GET("/products", p.ProductsPage, web.RequireStaff)
	console.POST("/products", p.CreateProduct, web.RequireStaff)
	console.POST("/products/:slug", p.UpdateProduct, web.RequireStaff)
	pages.GET("/gateway/app", p.PlaygroundPage, web.RequireUser, p.Require2FA)

	// JSON APIs: the key (checked when sent) and the area's rate-limit
	// budget; on a route that takes a key, the key required (key) before
	// the body is read, so that a caller without a valid one is refused
	// before its body (up to 32 MiB on the gateway) is read and held; the
	// body held to its limit and checked as JSON (duplicate keys, charset,
	// NUL), the deadline, JSON errors.
	apiChain := func(guard, limit echo.MiddlewareFunc, key []echo.MiddlewareFunc, more ...echo.MiddlewareFunc) []echo.MiddlewareFunc {
		return slices.Concat([]echo.MiddlewareFunc{https, guard}, key, []echo.MiddlewareFunc{limit, httpx.CleanJSON}, more)
	}

	// Public API v1 (SPEC section 4): a key required but on /health, the
	// "v1" budget. Health answers on plain HTTP too, for the platform's
	// probes.
	pubGuard := v1.Guard(api.SurfacePublic)
	pub := a.group("/v1", areaPublic, apiChain(pubGuard, httpx.LimitBody(apiBodyLimit), nil, timeout)...)
	a.routesOf(areaPublic, pubGuard, timeout).GET("/v1/health", v1.Health)
	pub.GET("/products", v1.ListProducts, api.RequireKey, api.RequireScope(keys.ScopePublic))
	pub.GET("/products/:slug", v1.GetProduct, api.RequireKey, api.RequireScope(keys.ScopePublic))

	// The tools (log analyzer, config scanner): each is pages in the pages
	// area and a JSON API of its own, with its own rate-limit budget. A
	// route that runs the engine holds the body to the engine's input
	// limit (explained in the tool's words), counts against the user's
	// tool budget (pages) and runs in the bounded analysis pool.
	for _, t := range a.tools() {
		for _, r := range t.pages {
			if r.bodyLimit == 0 {
				pages.Add(r.method, t.pagePath+r.path, r.handler, web.RequireUser, p.Require2FA)
				continue
			}
			// Its form is parsed (CSRF) only once the run is admitted: a
			// visitor, a refused or a waiting run reads none of it.
			a.routesOf(areaPages, https, httpx.LimitBodyExplained(r.bodyLimit), p.LoadUser, web.NoStore, p.CrossSite,
				web.RequireUser, p.Require2FA, a.toolRate, a.analyze(r.bodyLimit), p.CSRF, timeout).
				Add(r.method, t.pagePath+r.path, r.handler)
		}
		g := a.group(t.apiPrefix, &area{name: t.name, errors: writeJSONError, headers: apiHeaders}, https, v1.Guard(t.surface), timeout)
		clean := httpx.CleanJSON
		if t.ownKeyCheck {
			clean = httpx.CleanJSONText
		}
		for _, r := range t.api {
			g.Add(r.method, r.path, r.handler, api.RequireKey, api.RequireScope(t.scope),
				httpx.LimitBodyExplained(r.bodyLimit), clean, a.analyze(r.bodyLimit))
		}
	}

	a.aiHelpRoutes(https)

	// Gateway API: the key (also as x-api-key, as the official SDKs send
	// it) and the gateway's own budget. Each dialect writes its errors in
	// its own shape: ours on /chat, Anthropic's on the Messages endpoints
	// and the model list (both SDKs read it), OpenAI's on Chat Completions.
	// The calls have no REQUEST_TIMEOUT (the gateway service sets its own
	// deadlines), and every call is recorded, refusals by the guard too.
	guard := v1.Guard(api.SurfaceGateway, api.AcceptXAPIKey)
	gwLimit := httpx.LimitBody(apiBodyLimit)
	a.group("/gateway/v1", areaGateway, apiChain(guard, gwLimit, nil, timeout)...) // unknown paths
	key := []echo.MiddlewareFunc{api.RequireKey, api.RequireScope(keys.ScopeGateway)}
	a.routesOf(areaMessages, apiChain(guard, gwLimit, key, timeout)...).GET("/gateway/v1/models", v1.Models)
	a.routesOf(areaMessages, apiChain(guard, gwLimit, key, timeout)...).GET("/gateway/v1/models/:model_id", v1.Model)
	// Requests with images or documents may be larger: the service
	// refuses a body above apiBodyLimit that carries none.
	mediaLimit := func(next echo.HandlerFunc) echo.HandlerFunc {
		return httpx.LimitBody(gatewayMediaLimit)(a.gatewayMedia(next))
	}
	a.routesOf(areaMessages, apiChain(guard, mediaLimit, key, timeout)...).POST("/gateway/v1/messages/count_tokens", v1.CountTokens)
	call := func(ar *area, limit echo.MiddlewareFunc) *Group {
		return a.routesOf(ar, append([]echo.MiddlewareFunc{a.gatewayCalls}, apiChain(guard, limit, key)...)...)
	}
	call(areaGateway, gwLimit).POST("/gateway/v1/chat", v1.Chat)
	call(areaMessages, mediaLimit).POST("/gateway/v1/messages", v1.Messages)
	call(areaOpenAI, mediaLimit).POST("/gateway/v1/chat/completions", v1.ChatCompletions)
	call(areaOpenAI, mediaLimit).POST("/gateway/v1/responses", v1.Responses)
	call(areaOpenAI, gwLimit).POST("/gateway/v1/embeddings", v1.Embeddings)

	// The playground's chat: every call recorded like the API's, refusals
	// included; the session (a 401 in JSON, not a redirect), then CSRF and
	// our origin, JSON checked, JSON errors before the stream starts, the
	// gateway's own deadlines.
	// A visitor (who may hold a visitor's CSRF token) is refused before
	// the body is read.
	// Its turns may carry images: the media limit, as on the Messages
	// endpoint (the service refuses a body above apiBodyLimit without one).
	chat := a.group("/gateway/app/chat", areaPlayground, a.gatewayCalls, https, httpx.LimitBody(gatewayMediaLimit), p.LoadUser,
		web.NoStore, web.RequireSession, p.CSRF, a.gatewayMedia, httpx.CleanJSON)
	chat.POST("", p.PlaygroundChat)

	// Leak reports (like GitHub's secret scanning partners): no key, a
	// budget per address, JSON errors.
	leaks := a.group("/keys/v1", areaKeys, apiChain(v1.Guard(api.SurfaceKeys), httpx.LimitBody(api.MaxLeakReportBytes), nil, timeout)...)
	leaks.POST("/leaked", v1.ReportLeakedKeys)
}

// The tools' AI help answers in its tool's JSON error shape, on its API
// and on its pages alike (the pages' script shows the message).
var (
	areaLogsAI = &area{name: "logs", errors: writeJSONError, headers: apiHeaders}
	areaScanAI = &area{name: "scan", errors: writeJSONError, headers: apiHeaders}
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
		a.routesOf(r.ar, https, v1.Guard(r.surface)).POST(r.api, r.handler(v1.KeyCaller),
			api.RequireKey, api.RequireScope(r.scope), httpx.LimitBodyExplained(r.limit), a.gatewayMedia, r.clean)
		a.routesOf(r.ar, https, httpx.LimitBody(r.limit), p.LoadUser, web.NoStore, web.RequireSession, p.CSRF, a.gatewayMedia, r.clean).
			POST(r.page, r.handler(p.AICaller))
	}
}

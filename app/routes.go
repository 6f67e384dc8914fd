package app

import (
	"github.com/labstack/echo/v4"

	"parapet/app/api"
	"parapet/app/keys"
	"parapet/app/web"
	"parapet/static"
)

// routes is every route of the product in one place.
func (a *App) routes() {
	e := a.e
	p := a.pages
	v1 := a.api

	e.GET("/static/*", echo.WrapHandler(static.Handler()))
	e.GET("/", p.Home)
	e.GET("/docs", p.Docs)
	e.GET("/openapi.json", v1.OpenAPI)

	// Console: accounts, organizations, keys, audit.
	e.GET("/console/signup", p.SignUpPage)
	e.POST("/console/signup", p.SignUp)
	e.GET("/console/signin", p.SignInPage)
	e.POST("/console/signin", p.SignIn)
	e.POST("/console/signout", p.SignOut)
	e.GET("/console/signin/2fa", p.SecondStepPage)
	e.POST("/console/signin/2fa", p.SecondStep)
	// Invitation links: open to visitors (who are sent to sign up or in
	// and come back); accepting needs an account.
	e.GET("/invite/:org/:token", p.InvitationPage)
	e.POST("/invite/:org/:token", p.AcceptInvitation, web.RequireUser)
	console := e.Group("/console", web.RequireUser, p.Require2FA)
	console.GET("", p.ConsoleHome)
	console.GET("/orgs", p.OrgsPage)
	console.POST("/orgs", p.CreateOrg)
	console.POST("/orgs/switch", p.SwitchOrg)
	console.GET("/keys", p.KeysPage)
	console.POST("/keys", p.CreateKey)
	console.POST("/keys/:id/revoke", p.RevokeKey)
	console.POST("/keys/:id/roll", p.RollKey)
	console.GET("/members", p.MembersPage)
	console.POST("/members/leave", p.LeaveOrg)
	console.POST("/members/require-2fa", p.SetRequire2FA)
	console.POST("/members/:user/role", p.SetMemberRole)
	console.POST("/members/:user/remove", p.RemoveMember)
	console.GET("/invitations", p.InvitationsPage)
	console.POST("/invitations", p.CreateInvitation)
	console.POST("/invitations/:id/revoke", p.RevokeInvitation)
	console.GET("/audit", p.AuditPage)
	console.GET("/usage", p.UsagePage)
	console.GET("/account", p.AccountPage)
	console.POST("/account/password", p.ChangePassword)
	console.GET("/account/2fa", p.TwoFactorPage)
	console.POST("/account/2fa", p.EnableTwoFactor)
	console.POST("/account/2fa/disable", p.DisableTwoFactor)
	console.GET("/products", p.ProductsPage, web.RequireStaff)
	console.POST("/products", p.CreateProduct, web.RequireStaff)
	console.POST("/products/:slug", p.UpdateProduct, web.RequireStaff)

	// Log analyzer: page (session) and JSON API (key).
	e.GET("/logs/app", p.LogsPage, web.RequireUser)
	e.POST("/logs/app", p.LogsRun, web.RequireUser)
	e.POST("/logs/v1/analyze", v1.AnalyzeLogs, api.RequireKey, api.RequireScope(keys.ScopeLogs))

	// Config scanner: page (session) and JSON API (key).
	e.GET("/scan/app", p.ScanPage, web.RequireUser)
	e.POST("/scan/app", p.ScanRun, web.RequireUser)
	e.POST("/scan/v1/scan", v1.Scan, api.RequireKey, api.RequireScope(keys.ScopeScan))

	// LLM gateway: the playground (session) and the API (key). Every call
	// is audited by auditGatewayCalls in the middleware chain.
	e.GET("/gateway/app", p.PlaygroundPage, web.RequireUser)
	e.POST("/gateway/app/chat", p.PlaygroundChat, web.RequireUser)
	e.POST("/gateway/v1/chat", v1.Chat, api.RequireKey, api.RequireScope(keys.ScopeGateway))
	e.POST("/gateway/v1/messages", v1.Messages, api.RequireKey, api.RequireScope(keys.ScopeGateway))

	// Public API v1 (SPEC section 4). Guard, in the middleware chain, has
	// already counted the request and verified any key.
	e.GET("/v1/health", v1.Health)
	e.GET("/v1/products", v1.ListProducts, api.RequireKey, api.RequireScope(keys.ScopePublic))
	e.GET("/v1/products/:slug", v1.GetProduct, api.RequireKey, api.RequireScope(keys.ScopePublic))

	// Leak reports (own area: unauthenticated JSON, budget per address).
	e.POST("/keys/v1/leaked", v1.ReportLeakedKeys)
}

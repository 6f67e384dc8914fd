package web

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/gateway"
	"parapet/app/httpx"
	"parapet/app/meter"
	"parapet/app/ratelimit"
	"parapet/models"
	"parapet/views"
)

// PlaygroundPage is the gateway playground: a chat with the configured
// upstream through the same core, limits, entitlement and audit as the
// API, authenticated by the session instead of a key.
func (p *Pages) PlaygroundPage(c echo.Context) error {
	cur := CurrentOf(c)
	d := views.PlaygroundData{Demo: p.Gateway.Demo, Model: p.Gateway.Proxy.Defaults().Model,
		MaxTokens: p.Gateway.Proxy.Defaults().MaxTokens, MaxTokensCap: p.Gateway.Proxy.Defaults().MaxTokensCap}
	if cur.Org != nil {
		a, err := models.AllowanceOf(c.Request().Context(), p.DB.DB, cur.Org.ID, models.GatewayProductID, models.Period(time.Now()))
		if err != nil {
			return err
		}
		d.HasOrg = true
		d.Entitled, d.TokensLeft, d.MonthlyTokens = a.Entitled && a.Public, a.Left(), a.MonthlyTokens
	}
	ch := httpx.Chrome(c, "Gateway playground")
	ch.Nav = "gateway"
	return httpx.Render(c, http.StatusOK, views.Playground(ch, d))
}

// PlaygroundChat answers the playground's POST /gateway/app/chat: the
// same request shape as POST /gateway/v1/chat, always streamed back as
// Messages events. It is rate-limited per user with the gateway's budget.
// Errors before the stream starts are JSON (see httpx.AnswersJSON).
func (p *Pages) PlaygroundChat(c echo.Context) error {
	cur := CurrentOf(c)
	call := meter.Of(c)
	call.UserID = cur.User.ID
	if cur.Org == nil {
		return apierr.New(http.StatusForbidden, "no_organization", "choose or create an organization in the console first")
	}
	call.OrgID = cur.Org.ID
	d, err := p.Gateway.Limiter.Allow(c.Request().Context(), "gateway:user:"+cur.User.ID, p.Gateway.RateLimit, time.Minute)
	if err != nil {
		return err
	}
	d.SetHeaders(c.Response().Header())
	if !d.Allowed {
		e := apierr.New(http.StatusTooManyRequests, "rate_limited", "too many messages: wait a few seconds and send again")
		e.RetryAfter = d.RetryAfterSeconds()
		return e
	}
	if err := httpx.RequireJSON(c); err != nil {
		return err
	}
	body, err := httpx.ReadBody(c, gateway.MaxBodyBytes)
	if err != nil {
		return err
	}
	req, err := gateway.ParseChatRequest(body, p.Gateway.Proxy.Defaults())
	if err != nil {
		return meter.FromError(err)
	}
	req.Stream = true
	call.Req = req
	if err := p.Gateway.Recorder.Admit(c.Request().Context(), cur.Org.ID, time.Now()); err != nil {
		return err
	}
	sse := gateway.NewSSEWriter(c.Response())
	msg, report, err := p.Gateway.Proxy.Stream(c.Request().Context(), req, sse.Send)
	call.Report, call.Reply = &report, msg
	if err != nil && !sse.Started() {
		return meter.FromError(err)
	}
	return nil
}

// GatewayDeps is what the playground needs of the gateway.
type GatewayDeps struct {
	Proxy     *gateway.Proxy
	Demo      bool
	Limiter   ratelimit.Limiter
	RateLimit int
	Recorder  *meter.Recorder
}

package web

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/gateway"
	"parapet/app/meter"
	"parapet/models"
	"parapet/views"
	"parapet/views/paths"
)

// PlaygroundPage is the gateway playground: a chat with the configured
// upstream through the same core, limits, entitlement and audit as the
// API, authenticated by the session instead of a key.
func (p *Pages) PlaygroundPage(c echo.Context) error {
	def := p.Gateway.Service.Proxy.Defaults()
	d := views.PlaygroundData{Demo: p.Gateway.Demo, Model: def.Model, MaxTokens: def.MaxTokens, MaxTokensCap: def.MaxTokensCap}
	// The models offered are GET /gateway/v1/models' chat models, from the
	// same list, so the page offers only what the caller may call.
	for _, m := range p.Gateway.Service.Models().Data {
		if m.Kind == "chat" {
			d.Models = append(d.Models, m.ID)
		}
	}
	if org := CurrentOf(c).Org; org != nil {
		a, err := models.AllowanceOf(c.Request().Context(), p.DB.DB, org.ID, models.GatewayProductID, models.Period(time.Now()))
		if err != nil {
			return err
		}
		d.HasOrg, d.Role, d.CanChat = true, org.Role, models.Can(org.Role, models.PermChat)
		d.Entitled, d.TokensLeft, d.MonthlyTokens = a.Entitled && a.Public, a.Left(), a.MonthlyTokens
	}
	return renderPage(c, http.StatusOK, "Gateway playground", "gateway", views.Playground, d)
}

// PlaygroundChat answers the playground's POST /gateway/app/chat: the
// same request shape as POST /gateway/v1/chat, always streamed back as
// Messages events, through the same gateway service as the API (one
// admission, one record), authenticated by the session and rate-limited
// per user with the gateway's budget. Errors before the stream starts are
// JSON (its area in app/routes.go writes them so). Its own guards, in
// JSON where the pages' would redirect: an organization that requires
// two-factor sign-in of a member who has none, and a role that only reads
// (a viewer spends no quota), get 403.
func (p *Pages) PlaygroundChat(c echo.Context) error {
	cur := CurrentOf(c)
	who := meter.Caller{UserID: cur.User.ID}
	if org := cur.Org; org != nil {
		if org.Require2FA && !cur.User.HasSecondFactor() {
			return apierr.New(http.StatusForbidden, "forbidden", "your organization requires two-factor sign-in: set it up at "+paths.TwoFactor+", then chat")
		}
		if !models.Can(org.Role, models.PermChat) {
			return apierr.New(http.StatusForbidden, "forbidden", "your role ("+org.Role+") only reads: it cannot spend the organization's gateway quota")
		}
		who.OrgID = org.ID
	}
	return p.Gateway.Service.Serve(c, who, playgroundDialect)
}

// playgroundDialect is /chat's with images and thinking, always streamed.
var playgroundDialect = meter.Dialect{Name: "playground",
	Parse: func(body []byte, d gateway.Defaults) (*gateway.Request, error) {
		req, err := gateway.ParsePlaygroundRequest(body, d)
		if err == nil {
			req.Stream = true
		}
		return req, err
	},
	Stream: func(sse *gateway.SSEWriter, _ *gateway.Request) meter.Sink { return sse }}

// GatewayDeps is what the playground needs of the gateway.
type GatewayDeps struct {
	Service *meter.Service
	Demo    bool
}

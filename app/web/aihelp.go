package web

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/meter"
	"parapet/models"
	"parapet/views"
	"parapet/views/paths"
)

// AICaller is who asks for the tools' AI help on their pages: the
// signed-in user for their current organization, whose gateway quota it
// spends, with the playground's guards (two-factor sign-in when the
// organization requires it; a role that only reads spends no quota).
// Refusals are JSON: the pages' script shows their message.
func (p *Pages) AICaller(c echo.Context) (meter.Caller, error) {
	cur := CurrentOf(c)
	org := cur.Org
	if org == nil {
		return meter.Caller{}, apierr.New(http.StatusForbidden, "forbidden", "AI help runs on an organization's gateway quota: create or choose an organization at "+paths.Orgs+" first")
	}
	if org.Require2FA && !cur.User.HasSecondFactor() {
		return meter.Caller{}, apierr.New(http.StatusForbidden, "forbidden", "your organization requires two-factor sign-in: set it up at "+paths.TwoFactor+", then try again")
	}
	if !models.Can(org.Role, models.PermChat) {
		return meter.Caller{}, apierr.New(http.StatusForbidden, "forbidden", "your role ("+org.Role+") only reads: it cannot spend the organization's gateway quota")
	}
	return meter.Caller{OrgID: org.ID, UserID: cur.User.ID}, nil
}

// aiHelp is the AI help's state on a tool page: where it posts, and why
// the current user cannot use it, if so (the buttons say it).
func (p *Pages) aiHelp(c echo.Context, endpoint string) views.AIHelp {
	cur := CurrentOf(c)
	a := views.AIHelp{Endpoint: endpoint, CSRF: cur.CSRF, Demo: p.Gateway.Demo}
	if cur.User == nil {
		return a
	}
	who, err := p.AICaller(c)
	if err != nil {
		a.Disabled = upperFirst(apierr.From(err).Message) + "."
		return a
	}
	if err := p.Gateway.Service.Entitled(c.Request().Context(), who.OrgID); errors.Is(err, meter.ErrNotEntitled) {
		a.Disabled = "AI help runs through your organization's LLM gateway, and your organization may not use the gateway: ask an operator to grant it the gateway entitlement."
	}
	return a
}

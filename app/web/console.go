package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"parapet/models"
	"parapet/views"
)

// ConsoleHome is the console's overview of the current organization.
func (p *Pages) ConsoleHome(c echo.Context) error {
	cur := CurrentOf(c)
	ctx := c.Request().Context()
	var d views.ConsoleHomeData
	var err error
	if d.Orgs, err = models.OrgsOfUser(ctx, p.DB.DB, cur.User.ID); err != nil {
		return err
	}
	if cur.Org != nil {
		keys, err := models.APIKeysOfOrg(ctx, p.DB.DB, cur.Org.ID)
		if err != nil {
			return err
		}
		for _, k := range keys {
			if k.Usable(models.Now()) {
				d.ActiveKeys++
			} else {
				d.Revoked++
			}
			d.Start.KeyUsed = d.Start.KeyUsed || k.LastUsedAt != nil
		}
		if err := p.onboarding(c, &d.Start, len(keys)); err != nil {
			return err
		}
		if d.Recent, err = models.AuditPage(ctx, p.DB.DB, cur.Org.ID, "", 5, 0); err != nil {
			return err
		}
		d.Leaked = leakedFor(c, keys)
	}
	d.Joined = c.QueryParam("joined") != "" && cur.Org != nil
	return renderPage(c, http.StatusOK, "Console", "console", views.ConsoleHome, d)
}

// onboarding fills the new organization's checklist from what it holds:
// it ticks itself as the steps are done, and goes once all are.
func (p *Pages) onboarding(c echo.Context, s *views.Onboarding, keys int) error {
	ctx := c.Request().Context()
	org := CurrentOf(c).Org
	s.Key = keys > 0
	calls, _, err := models.CountAudit(ctx, p.DB.DB, org.ID, models.ActionGatewayCall)
	if err != nil {
		return err
	}
	s.KeyUsed = s.KeyUsed || calls > 0
	members, err := models.MembersOfOrg(ctx, p.DB.DB, org.ID)
	if err != nil {
		return err
	}
	invitations, err := models.InvitationsOfOrg(ctx, p.DB.DB, org.ID)
	if err != nil {
		return err
	}
	s.Team = len(members) > 1 || len(invitations) > 0
	return nil
}

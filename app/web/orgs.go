package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"parapet/app/session"
	"parapet/models"
	"parapet/views"
	"parapet/views/paths"
)

// OrgsPage lists the user's organizations and the form to create one.
func (p *Pages) OrgsPage(c echo.Context) error {
	return p.renderOrgs(c, http.StatusOK, "", "")
}

func (p *Pages) renderOrgs(c echo.Context, status int, name, errMsg string) error {
	cur := CurrentOf(c)
	orgs, err := models.OrgsOfUser(c.Request().Context(), p.DB.DB, cur.User.ID)
	if err != nil {
		return err
	}
	d := views.OrgsData{Orgs: orgs, Name: name, Error: errMsg}
	if cur.Org != nil {
		d.CurrentID = cur.Org.ID
	}
	return renderPage(c, status, "Organizations", "console", views.Orgs, d)
}

// CreateOrg creates an organization owned by the user and makes it the
// current one.
func (p *Pages) CreateOrg(c echo.Context) error {
	cur := CurrentOf(c)
	name := strings.Join(strings.Fields(c.FormValue("name")), " ")
	if msg := models.OrgNameProblem(name); msg != "" {
		return p.renderOrgs(c, http.StatusUnprocessableEntity, name, upperFirst(msg)+".")
	}
	if msg, err := p.countOrgCreation(c, cur.User.ID); err != nil || msg != "" {
		return orRender(err, func() error { return p.renderOrgs(c, http.StatusTooManyRequests, name, msg) })
	}
	org, err := models.CreateOrg(c.Request().Context(), p.DB.DB, name, cur.User.ID, p.GatewayMonthlyTokens)
	if errors.Is(err, models.ErrSlugTaken) {
		return p.renderOrgs(c, http.StatusUnprocessableEntity, name, err.Error())
	}
	if err != nil {
		return err
	}
	_ = p.audit(c, &models.AuditEvent{OrgID: &org.ID, ActorUserID: &cur.User.ID, Action: models.ActionOrgCreate, Target: org.AuditTarget()})
	if err := p.setOrg(c, org.ID); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, paths.Console)
}

// SwitchOrg makes another of the user's organizations the current one.
// Membership is checked here: an organization id from a form means nothing
// by itself.
func (p *Pages) SwitchOrg(c echo.Context) error {
	cur := CurrentOf(c)
	org, err := models.OrgForMember(c.Request().Context(), p.DB.DB, c.FormValue("org_id"), cur.User.ID)
	if errors.Is(err, models.ErrNotFound) {
		return echo.NewHTTPError(http.StatusNotFound, "no such organization")
	}
	if err != nil {
		return err
	}
	if err := p.setOrg(c, org.ID); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, paths.Console)
}

func (p *Pages) setOrg(c echo.Context, orgID string) error {
	sess := CurrentOf(c).Session
	sess.Values[session.KeyOrgID] = orgID
	return p.Sessions.Save(c.Request(), c.Response(), sess)
}

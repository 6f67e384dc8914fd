package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"parapet/models"
	"parapet/views"
	"parapet/views/paths"
)

// DeleteOrg deletes the current organization, for an owner who gave their
// password (or a two-factor code) again and typed its name to confirm: a
// session left open cannot delete it alone. Its keys are refused from the
// next request on, its members lose it, its audit events stay.
func (p *Pages) DeleteOrg(c echo.Context) error {
	cur, err := p.settingsAction(c, models.PermDeleteOrg)
	if cur == nil {
		return err
	}
	fail := func(status int, msg string) error {
		return p.renderSettings(c, status, views.SettingsData{Error: msg}, "")
	}
	if status, msg, err := p.recheckPasswordOrCode(c, c.FormValue("reauth")); err != nil || msg != "" {
		return orRender(err, func() error { return fail(status, msg) })
	}
	if strings.TrimSpace(c.FormValue("confirm_name")) != cur.Org.Name {
		return fail(http.StatusUnprocessableEntity, "The name you typed is not the organization’s name: type “"+cur.Org.Name+"” exactly to delete it.")
	}
	e := ofRequest(c, &models.AuditEvent{OrgID: &cur.Org.ID, ActorUserID: &cur.User.ID, Action: models.ActionOrgDelete,
		Target: cur.Org.AuditTarget()})
	keyIDs, err := models.DeleteOrg(c.Request().Context(), p.DB.DB, cur.Org.ID, &cur.User.ID, e)
	if errors.Is(err, models.ErrNotOwner) {
		return fail(http.StatusForbidden, upperFirst(err.Error())+".")
	}
	if errors.Is(err, models.ErrNotFound) { // deleted meanwhile, by another owner
		return c.Redirect(http.StatusSeeOther, paths.Orgs)
	}
	if err != nil {
		return err
	}
	for _, id := range keyIDs {
		p.Keys.Forget(id)
	}
	if err := p.setOrg(c, ""); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, paths.Orgs)
}

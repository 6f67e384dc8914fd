package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"parapet/app/httpx"
	"parapet/models"
	"parapet/views/paths"
)

// DeleteOrg deletes the current organization, for an owner who typed its
// name to confirm: its keys are refused from the next request on, its
// members lose it, its audit events stay.
func (p *Pages) DeleteOrg(c echo.Context) error {
	cur := CurrentOf(c)
	if cur.Org == nil {
		return c.Redirect(http.StatusSeeOther, paths.Orgs)
	}
	if !models.Can(cur.Org.Role, models.PermDeleteOrg) {
		return p.renderMembers(c, http.StatusForbidden, "Only an owner can delete the organization; your role is "+cur.Org.Role+".", "")
	}
	if strings.TrimSpace(c.FormValue("confirm_name")) != cur.Org.Name {
		return p.renderMembers(c, http.StatusUnprocessableEntity, "The name you typed is not the organization’s name: type “"+cur.Org.Name+"” exactly to delete it.", "")
	}
	e := &models.AuditEvent{OrgID: &cur.Org.ID, ActorUserID: &cur.User.ID, Action: models.ActionOrgDelete,
		Target: cur.Org.Name + " (" + cur.Org.Slug + ")", IP: c.RealIP(), RequestID: httpx.RequestID(c)}
	keyIDs, err := models.DeleteOrg(c.Request().Context(), p.DB.DB, cur.Org.ID, &cur.User.ID, e)
	if errors.Is(err, models.ErrNotOwner) {
		return p.renderMembers(c, http.StatusForbidden, upperFirst(err.Error())+".", "")
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

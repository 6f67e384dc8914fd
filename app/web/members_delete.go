package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"parapet/models"
	"parapet/views/paths"
)

// DeleteOrg deletes the current organization, for an owner who typed its
// name to confirm: its keys are refused from the next request on, its
// members lose it, its audit events stay.
func (p *Pages) DeleteOrg(c echo.Context) error {
	cur, err := p.ownerAction(c, models.PermDeleteOrg, func(role string) string {
		return "Only an owner can delete the organization; your role is " + role + "."
	})
	if cur == nil {
		return err
	}
	if strings.TrimSpace(c.FormValue("confirm_name")) != cur.Org.Name {
		return p.renderMembers(c, http.StatusUnprocessableEntity, "The name you typed is not the organization’s name: type “"+cur.Org.Name+"” exactly to delete it.")
	}
	e := ofRequest(c, &models.AuditEvent{OrgID: &cur.Org.ID, ActorUserID: &cur.User.ID, Action: models.ActionOrgDelete,
		Target: cur.Org.AuditTarget()})
	keyIDs, err := models.DeleteOrg(c.Request().Context(), p.DB.DB, cur.Org.ID, &cur.User.ID, e)
	if errors.Is(err, models.ErrNotOwner) {
		return p.renderMembers(c, http.StatusForbidden, upperFirst(err.Error())+".")
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

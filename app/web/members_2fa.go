package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"parapet/models"

	"parapet/views/paths"
)

// SetRequire2FA is an owner's switch: every member must sign in with a
// second factor; members without one are sent to set it up (Require2FA).
func (p *Pages) SetRequire2FA(c echo.Context) error {
	cur, err := p.ownerAction(c, models.PermOrgSettings, func(string) string {
		return "Only an owner can change the organization’s security settings."
	})
	if cur == nil {
		return err
	}
	on := c.FormValue("require_2fa") == "on"
	if err := models.SetRequire2FA(c.Request().Context(), p.DB.DB, cur.Org.ID, on); err != nil {
		return err
	}
	state := "off"
	if on {
		state = "on"
	}
	_ = p.audit(c, &models.AuditEvent{OrgID: &cur.Org.ID, ActorUserID: &cur.User.ID, Action: models.ActionOrgRequire2FA, Target: cur.Org.Name, Detail: &state})
	return c.Redirect(http.StatusSeeOther, paths.Members)
}

package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"parapet/app/httpx"
	"parapet/app/totp"
	"parapet/models"
	"parapet/views"
	"parapet/views/paths"
)

// Flashes of the settings page, chosen by its "done" query parameter after
// a change (a redirect, so reloading does not post again).
var settingsFlashes = map[string]string{
	"name": "The organization is renamed.",
	"2fa":  "The two-factor rule is saved.",
}

// SettingsPage shows the current organization's settings to its owners
// and admins.
func (p *Pages) SettingsPage(c echo.Context) error {
	cur, err := p.settingsAction(c, models.PermRenameOrg)
	if cur == nil {
		return err
	}
	return p.renderSettings(c, http.StatusOK, views.SettingsData{Name: cur.Org.Name}, settingsFlashes[c.QueryParam("done")])
}

func (p *Pages) renderSettings(c echo.Context, status int, d views.SettingsData, flash string) error {
	cur := CurrentOf(c)
	d.Role, d.Require2FA, d.HasTOTP = cur.Org.Role, cur.Org.Require2FA, cur.User.TOTPEnabledAt != nil
	if d.Name == "" {
		d.Name = cur.Org.Name
	}
	ch := Chrome(c, "Organization settings")
	ch.Nav, ch.Flash = "console", flash
	return httpx.Render(c, status, views.Settings(ch, d))
}

// settingsAction starts a request of the settings page that takes perm: it
// returns the current member, or nil once it has answered: without a
// current organization with the organizations page; a member whose role
// may not see the settings gets a 403 page, one who may see but not
// change this one the settings page saying so, 403.
func (p *Pages) settingsAction(c echo.Context, perm models.Permission) (*Current, error) {
	cur := CurrentOf(c)
	if cur.Org == nil {
		return nil, c.Redirect(http.StatusSeeOther, paths.Orgs)
	}
	if !models.Can(cur.Org.Role, models.PermRenameOrg) {
		return nil, echo.NewHTTPError(http.StatusForbidden, "Only an owner or an admin can see the organization’s settings; your role is "+cur.Org.Role+".")
	}
	if !models.Can(cur.Org.Role, perm) {
		return nil, p.renderSettings(c, http.StatusForbidden, views.SettingsData{
			Error: "Only an owner can " + ownerOnly[perm] + "; your role is " + cur.Org.Role + "."}, "")
	}
	return cur, nil
}

// ownerOnly says what the settings page's owner-only permissions allow.
var ownerOnly = map[models.Permission]string{
	models.PermOrgSettings: "change the organization’s two-factor rule",
	models.PermDeleteOrg:   "delete the organization",
}

// RenameOrg gives the organization a new name; its slug stays.
func (p *Pages) RenameOrg(c echo.Context) error {
	cur, err := p.settingsAction(c, models.PermRenameOrg)
	if cur == nil {
		return err
	}
	name := strings.Join(strings.Fields(c.FormValue("name")), " ")
	if msg := models.OrgNameProblem(name); msg != "" {
		return p.renderSettings(c, http.StatusUnprocessableEntity, views.SettingsData{Name: name, Error: upperFirst(msg) + "."}, "")
	}
	if name == cur.Org.Name {
		return c.Redirect(http.StatusSeeOther, paths.Settings)
	}
	err = models.RenameOrg(c.Request().Context(), p.DB.DB, cur.Org.ID, name)
	if errors.Is(err, models.ErrNotFound) { // deleted meanwhile
		return c.Redirect(http.StatusSeeOther, paths.Orgs)
	}
	if err != nil {
		return err
	}
	detail := cur.Org.Name + " → " + name
	_ = p.audit(c, &models.AuditEvent{OrgID: &cur.Org.ID, ActorUserID: &cur.User.ID, Action: models.ActionOrgRename, Target: cur.Org.AuditTarget(), Detail: &detail})
	return c.Redirect(http.StatusSeeOther, paths.Settings+"?done=name")
}

// SetRequire2FA is an owner's switch: every member must sign in with a
// second factor; members without one are sent to set it up (Require2FA).
func (p *Pages) SetRequire2FA(c echo.Context) error {
	cur, err := p.settingsAction(c, models.PermOrgSettings)
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
	return c.Redirect(http.StatusSeeOther, paths.Settings+"?done=2fa")
}

// recheckPasswordOrCode is recheckPassword that also takes, from an
// account with two-factor sign-in, a current authenticator code (six
// digits: no password is that short) under the same throttle.
func (p *Pages) recheckPasswordOrCode(c echo.Context, secret string) (status int, msg string, err error) {
	user := CurrentOf(c).User
	if user.TOTPEnabledAt == nil || !totp.LooksLikeTOTP(secret) {
		return p.recheckPassword(c, secret)
	}
	return p.recheckCode(c, secret, "password attempts", "That code is not right. Enter the 6-digit code your app shows now, or your password.")
}

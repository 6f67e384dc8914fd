package web

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"parapet/models"
	"parapet/views"
	"parapet/views/paths"
)

// MembersPage lists the current organization's members.
func (p *Pages) MembersPage(c echo.Context) error {
	return p.renderMembers(c, http.StatusOK, "")
}

func (p *Pages) renderMembers(c echo.Context, status int, errMsg string) error {
	cur := CurrentOf(c)
	d := views.MembersData{Error: errMsg}
	if cur.Org != nil {
		var err error
		if d.Members, err = models.MembersOfOrg(c.Request().Context(), p.DB.DB, cur.Org.ID); err != nil {
			return err
		}
		d.Role, d.UserID = cur.Org.Role, cur.User.ID
	}
	return renderPage(c, status, "Members", "console", views.Members, d)
}

// memberTarget loads the member a form names, and checks that the current
// member may manage them: an owner anyone, an admin only non-owners.
// errMsg is what to show when not.
func (p *Pages) memberTarget(c echo.Context) (target *models.MemberRow, errMsg string, err error) {
	cur := CurrentOf(c)
	if cur.Org == nil {
		return nil, "", echo.NewHTTPError(http.StatusNotFound, "no such member")
	}
	target, err = models.MemberOf(c.Request().Context(), p.DB.DB, cur.Org.ID, c.Param("user"))
	if errors.Is(err, models.ErrNotFound) {
		return nil, "", echo.NewHTTPError(http.StatusNotFound, "no such member")
	}
	if err != nil {
		return nil, "", err
	}
	if !models.Can(cur.Org.Role, models.PermManageMembers) || !models.CanAssign(cur.Org.Role, target.Role) {
		return nil, "Your role (" + cur.Org.Role + ") cannot change " + target.Email + "’s membership.", nil
	}
	return target, "", nil
}

// SetMemberRole changes a member's role.
func (p *Pages) SetMemberRole(c echo.Context) error {
	cur := CurrentOf(c)
	target, msg, err := p.memberTarget(c)
	if err != nil || msg != "" {
		return orRender(err, func() error { return p.renderMembers(c, http.StatusForbidden, msg) })
	}
	role := c.FormValue("role")
	switch {
	case !models.ValidRole(role):
		return p.renderMembers(c, http.StatusUnprocessableEntity, "Choose a role: owner, admin, member or viewer.")
	case !models.CanAssign(cur.Org.Role, role):
		return p.renderMembers(c, http.StatusForbidden, "Only an owner can make someone an owner.")
	}
	if models.Lowers(target.Role, role) {
		if asked, err := p.askAboutKeys(c, target, role); err != nil || asked {
			return err
		}
	}
	ended, err := models.SetMemberRole(c.Request().Context(), p.DB.DB, cur.Org.ID, cur.User.ID, target.UserID, role, keptKeys(c)...)
	if errors.Is(err, models.ErrLastOwner) {
		return p.renderMembers(c, http.StatusConflict, upperFirst(err.Error())+".")
	}
	if errors.Is(err, models.ErrActorCannot) {
		return p.renderMembers(c, http.StatusForbidden, "Your role cannot change "+target.Email+"’s membership as it stands now.")
	}
	if err != nil {
		return err
	}
	detail := target.Role + " → " + role
	_ = p.audit(c, &models.AuditEvent{OrgID: &cur.Org.ID, ActorUserID: &cur.User.ID, Action: models.ActionMemberRole, Target: target.Email, Detail: &detail})
	p.recordEndedKeys(c, ended, target.Email+", whose role was lowered to "+role)
	return c.Redirect(http.StatusSeeOther, paths.Members)
}

// RemoveMember removes another member from the organization.
func (p *Pages) RemoveMember(c echo.Context) error {
	cur := CurrentOf(c)
	target, msg, err := p.memberTarget(c)
	if err != nil || msg != "" {
		return orRender(err, func() error { return p.renderMembers(c, http.StatusForbidden, msg) })
	}
	if target.UserID == cur.User.ID {
		return p.renderMembers(c, http.StatusUnprocessableEntity, "To leave the organization, use “Leave”.")
	}
	if asked, err := p.askAboutKeys(c, target, ""); err != nil || asked {
		return err
	}
	ended, err := models.RemoveMember(c.Request().Context(), p.DB.DB, cur.Org.ID, cur.User.ID, target.UserID, keptKeys(c)...)
	if errors.Is(err, models.ErrLastOwner) {
		return p.renderMembers(c, http.StatusConflict, upperFirst(err.Error())+".")
	}
	if errors.Is(err, models.ErrActorCannot) {
		return p.renderMembers(c, http.StatusForbidden, "Your role cannot change "+target.Email+"’s membership as it stands now.")
	}
	if err != nil {
		return err
	}
	_ = p.audit(c, &models.AuditEvent{OrgID: &cur.Org.ID, ActorUserID: &cur.User.ID, Action: models.ActionMemberRemove, Target: target.Email})
	p.recordEndedKeys(c, ended, target.Email+", who was removed")
	return c.Redirect(http.StatusSeeOther, paths.Members)
}

// LeaveOrg takes the current user out of the current organization; the
// last owner cannot leave.
func (p *Pages) LeaveOrg(c echo.Context) error {
	cur := CurrentOf(c)
	if cur.Org == nil {
		return c.Redirect(http.StatusSeeOther, paths.Orgs)
	}
	ended, err := models.RemoveMember(c.Request().Context(), p.DB.DB, cur.Org.ID, "", cur.User.ID)
	if errors.Is(err, models.ErrLastOwner) {
		return p.renderMembers(c, http.StatusConflict, "You are the last owner: "+err.Error()+".")
	}
	if err != nil {
		return err
	}
	_ = p.audit(c, &models.AuditEvent{OrgID: &cur.Org.ID, ActorUserID: &cur.User.ID, Action: models.ActionMemberLeave, Target: cur.User.Email})
	p.recordEndedKeys(c, ended, cur.User.Email+", who left")
	if err := p.setOrg(c, ""); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, paths.Orgs)
}

// orRender returns err when there is one, else renders.
func orRender(err error, render func() error) error {
	if err != nil {
		return err
	}
	return render()
}

package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"parapet/app/httpx"
	"parapet/models"
	"parapet/views"
	"parapet/views/paths"
)

// invitationOfLink resolves /invite/:org/:token into the invitation and
// the page to show. An unknown token, or one of another organization than
// the link names, is "not valid"; a used, revoked or expired one says so.
func (p *Pages) invitationOfLink(c echo.Context) (*models.Invitation, views.InviteData, error) {
	d := views.InviteData{Path: c.Request().URL.Path, State: "invalid"}
	token := c.Param("token")
	if len(token) != 32 || strings.Trim(token, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") != "" {
		return nil, d, nil
	}
	ctx := c.Request().Context()
	inv, err := models.InvitationByToken(ctx, p.DB.DB, token)
	if errors.Is(err, models.ErrNotFound) || err == nil && inv.OrgID != c.Param("org") {
		return nil, d, nil
	}
	if err != nil {
		return nil, d, err
	}
	org, err := models.OrgByIDOrSlug(ctx, p.DB.DB, inv.OrgID)
	if err != nil {
		return nil, d, err
	}
	d.OrgName, d.Role, d.Email, d.State = org.Name, inv.Role, inv.Email, inv.State(models.Now())
	if cur := CurrentOf(c); cur.User != nil && d.State == models.InvitePending {
		d.SignedInAs = cur.User.Email
		if _, err := models.MemberOf(ctx, p.DB.DB, inv.OrgID, cur.User.ID); err == nil {
			d.State = "member"
		} else if !errors.Is(err, models.ErrNotFound) {
			return nil, d, err
		} else if cur.User.Email != inv.Email {
			d.State = "mismatch"
		} else if cur.User.EmailVerifiedAt == nil {
			// The invitation leans on the address: only its proven owner
			// may take it.
			d.State = "unverified"
		}
	}
	return inv, d, nil
}

// inviteStatus is the HTTP status of each state of the invitation page.
var inviteStatus = map[string]int{
	"invalid": http.StatusNotFound, models.InviteAccepted: http.StatusGone, models.InviteRevoked: http.StatusGone,
	models.InviteExpired: http.StatusGone, "mismatch": http.StatusForbidden, "member": http.StatusConflict,
	"unverified": http.StatusForbidden,
}

func (p *Pages) renderInvite(c echo.Context, d views.InviteData) error {
	status, ok := inviteStatus[d.State]
	if !ok || d.State == "unverified" && c.Request().Method != http.MethodPost {
		status = http.StatusOK // what to do first; accepting is refused
	}
	return httpx.Render(c, status, views.Invite(Chrome(c, "Invitation"), d))
}

// InvitationPage shows an invitation link: to a signed-in account, the
// organization, the role and the button to accept; to a visitor, the way
// to sign up or sign in, which comes back here.
func (p *Pages) InvitationPage(c echo.Context) error {
	_, d, err := p.invitationOfLink(c)
	if err != nil {
		return err
	}
	return p.renderInvite(c, d)
}

// AcceptInvitation makes the signed-in account a member with the
// invitation's role and takes them to the organization.
func (p *Pages) AcceptInvitation(c echo.Context) error {
	inv, d, err := p.invitationOfLink(c)
	if err != nil || inv == nil || d.State != models.InvitePending || d.SignedInAs == "" {
		return orRender(err, func() error { return p.renderInvite(c, d) })
	}
	cur := CurrentOf(c)
	err = models.AcceptInvitation(c.Request().Context(), p.DB.DB, inv, cur.User.ID)
	switch {
	case errors.Is(err, models.ErrInvitationUsed):
		d.State = models.InviteAccepted
		return p.renderInvite(c, d)
	case errors.Is(err, models.ErrInviterCannot):
		// Revoked now, so the organization's list says so too.
		if _, err := models.RevokeInvitation(c.Request().Context(), p.DB.DB, inv.OrgID, inv.ID); err != nil {
			return err
		}
		d.State = models.InviteRevoked
		return p.renderInvite(c, d)
	case errors.Is(err, models.ErrAlreadyMember):
		d.State = "member"
		return p.renderInvite(c, d)
	case err != nil:
		return err
	}
	_ = p.audit(c, &models.AuditEvent{OrgID: &inv.OrgID, ActorUserID: &cur.User.ID, Action: models.ActionMemberJoin, Target: cur.User.Email + " as " + inv.Role})
	if err := p.setOrg(c, inv.OrgID); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, paths.ConsoleJoined)
}

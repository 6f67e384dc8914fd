package web

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/httpx"
	"parapet/app/mail"
	"parapet/models"
	"parapet/views"
	"parapet/views/paths"
)

// InvitationsPage lists the current organization's invitations and, for
// owners and admins, the form to invite someone.
func (p *Pages) InvitationsPage(c echo.Context) error {
	return p.renderInvitations(c, http.StatusOK, views.InvitationsData{InviteRole: models.RoleMember})
}

func (p *Pages) renderInvitations(c echo.Context, status int, d views.InvitationsData) error {
	cur := CurrentOf(c)
	d.Now = models.Now()
	if cur.Org != nil {
		var err error
		if d.Invitations, err = models.InvitationsOfOrg(c.Request().Context(), p.DB.DB, cur.Org.ID); err != nil {
			return err
		}
		d.Role = cur.Org.Role
	}
	return renderPage(c, status, "Invitations", "console", views.Invitations, d)
}

// CreateInvitation invites an email with a role, shows the link to copy
// and mails it.
func (p *Pages) CreateInvitation(c echo.Context) error {
	cur := CurrentOf(c)
	d := views.InvitationsData{Email: models.NormalizeEmail(c.FormValue("email")), InviteRole: c.FormValue("role")}
	invalid := func(status int, msg string) error {
		d.Error = msg
		return p.renderInvitations(c, status, d)
	}
	switch {
	case cur.Org == nil:
		return c.Redirect(http.StatusSeeOther, paths.Orgs)
	case !models.Can(cur.Org.Role, models.PermInvite):
		return invalid(http.StatusForbidden, "Your role ("+cur.Org.Role+") cannot invite people: ask an owner or an admin.")
	case checkEmail(d.Email) != "":
		return invalid(http.StatusUnprocessableEntity, checkEmail(d.Email))
	case !models.ValidRole(d.InviteRole):
		return invalid(http.StatusUnprocessableEntity, "Choose a role: owner, admin, member or viewer.")
	case !models.CanAssign(cur.Org.Role, d.InviteRole):
		return invalid(http.StatusForbidden, "Only an owner can invite an owner.")
	}
	if msg, err := p.countInvitation(c, cur.Org.ID); err != nil || msg != "" {
		return orRender(err, func() error { return invalid(http.StatusTooManyRequests, msg) })
	}
	ctx := c.Request().Context()
	inv, token, err := models.CreateInvitation(ctx, p.DB.DB, cur.Org.ID, d.Email, d.InviteRole, &cur.User.ID)
	if err != nil {
		return err
	}
	_ = p.audit(c, &models.AuditEvent{OrgID: &cur.Org.ID, ActorUserID: &cur.User.ID, Action: models.ActionInviteCreate, Target: inv.AuditTarget()})
	link := p.absoluteURL(c, models.InvitationPath(cur.Org.ID, token))
	d = views.InvitationsData{InviteRole: models.RoleMember, NewLink: link, NewEmail: inv.Email, Mailed: true}
	if err := p.mailInvitation(ctx, inv, cur.Org.Name, cur.User.Email, link); err != nil {
		p.Log.Error("mail invitation", "request_id", httpx.RequestID(c), "error", err)
		d.Mailed = false
	}
	return p.renderInvitations(c, http.StatusCreated, d)
}

// mailInvitation sends the link to the invited address.
func (p *Pages) mailInvitation(ctx context.Context, inv *models.Invitation, orgName, inviter, link string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	return p.Mail.Send(ctx, mail.Message{To: inv.Email, Subject: "You are invited to " + orgName + " on Parapet",
		Body: inviter + " invites you to join " + orgName + " on Parapet as " + inv.Role + ".\n\n" +
			"Open this link to accept (it works once, until " + inv.ExpiresAt.UTC().Format("2006-01-02 15:04 UTC") + "):\n" + link + "\n"})
}

// absoluteURL makes a link on PUBLIC_URL, or on the host the request came
// to when it is unset.
func (p *Pages) absoluteURL(c echo.Context, path string) string {
	if p.PublicURL != "" {
		return p.PublicURL + path
	}
	scheme := "http"
	if p.IsHTTPS(c.Request()) {
		scheme = "https"
	}
	return scheme + "://" + c.Request().Host + path
}

// RevokeInvitation revokes a pending invitation of the organization.
func (p *Pages) RevokeInvitation(c echo.Context) error {
	cur := CurrentOf(c)
	if cur.Org == nil {
		return echo.NewHTTPError(http.StatusNotFound, "no such invitation")
	}
	if !models.Can(cur.Org.Role, models.PermInvite) {
		return p.renderInvitations(c, http.StatusForbidden, views.InvitationsData{Error: "Your role (" + cur.Org.Role + ") cannot revoke invitations."})
	}
	inv, err := models.InvitationOfOrg(c.Request().Context(), p.DB.DB, cur.Org.ID, c.Param("id"))
	if errors.Is(err, models.ErrNotFound) {
		return echo.NewHTTPError(http.StatusNotFound, "no such invitation")
	}
	if err != nil {
		return err
	}
	if !models.CanAssign(cur.Org.Role, inv.Role) {
		return p.renderInvitations(c, http.StatusForbidden, views.InvitationsData{
			Error: "Your role (" + cur.Org.Role + ") cannot revoke an invitation to the " + inv.Role + " role: ask an owner."})
	}
	revoked, err := models.RevokeInvitation(c.Request().Context(), p.DB.DB, cur.Org.ID, inv.ID)
	if err != nil {
		return err
	}
	if revoked {
		_ = p.audit(c, &models.AuditEvent{OrgID: &cur.Org.ID, ActorUserID: &cur.User.ID, Action: models.ActionInviteRevoke, Target: inv.AuditTarget()})
	}
	return c.Redirect(http.StatusSeeOther, paths.Invitations)
}

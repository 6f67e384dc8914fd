package web

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"parapet/app/session"
	"parapet/models"
	"parapet/views"
	"parapet/views/paths"
)

const timeFormat = "2006-01-02 15:04 UTC"

// sessionRows lists the account's active sessions for the account page
// (ASVS 3.3.4): browser, address, sign-in and last use.
func (p *Pages) sessionRows(c echo.Context) ([]views.SessionRow, error) {
	cur := CurrentOf(c)
	rows, err := models.SessionsOfUser(c.Request().Context(), p.DB.DB, cur.User.ID, models.Now(), session.IdleTimeout)
	if err != nil {
		return nil, err
	}
	mine := session.TokenHash(cur.Session.ID)
	out := make([]views.SessionRow, 0, len(rows))
	for _, r := range rows {
		out = append(out, views.SessionRow{Handle: session.Handle(r.ID), Browser: browserName(r.UserAgent), IP: orDefault(r.IP, "unknown"),
			Started: r.CreatedAt.UTC().Format(timeFormat), LastSeen: r.LastSeenAt.UTC().Format(timeFormat), Current: r.ID == mine})
	}
	return out, nil
}

// EndSession ends one of the account's sessions, named by its handle.
// Ending the current one signs this browser out.
func (p *Pages) EndSession(c echo.Context) error {
	return p.endSessions(c, func(handle string, current bool) bool { return handle == c.Param("handle") })
}

// EndOtherSessions ends every session of the account but this one.
func (p *Pages) EndOtherSessions(c echo.Context) error {
	return p.endSessions(c, func(_ string, current bool) bool { return !current })
}

func (p *Pages) endSessions(c echo.Context, end func(handle string, current bool) bool) error {
	ctx := c.Request().Context()
	cur := CurrentOf(c)
	rows, err := models.SessionsOfUser(ctx, p.DB.DB, cur.User.ID, models.Now(), session.IdleTimeout)
	if err != nil {
		return err
	}
	mine := session.TokenHash(cur.Session.ID)
	var ids []string
	endsMine := false
	for _, r := range rows {
		if end(session.Handle(r.ID), r.ID == mine) {
			ids = append(ids, r.ID)
			endsMine = endsMine || r.ID == mine
		}
	}
	if len(ids) == 0 {
		return echo.NewHTTPError(http.StatusNotFound, "That session has already ended.")
	}
	if err := models.DeleteSessionsOfUser(ctx, p.DB.DB, cur.User.ID, ids); err != nil {
		return err
	}
	_ = p.audit(c, &models.AuditEvent{ActorUserID: &cur.User.ID, Action: models.ActionSessionEnd, Target: cur.User.Email, OrgID: orgIDOf(cur)})
	if endsMine {
		cur.Session.Options.MaxAge = -1
		if err := p.Sessions.Save(c.Request(), c.Response(), cur.Session); err != nil {
			return err
		}
		return c.Redirect(http.StatusSeeOther, "/")
	}
	return c.Redirect(http.StatusSeeOther, paths.Account+"?ended="+strconv.Itoa(len(ids)))
}

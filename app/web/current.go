package web

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/httpx"
	"parapet/app/session"
	"parapet/models"
	"parapet/views"
	"parapet/views/paths"
)

// Current is who is making a browser request: the signed-in user (or
// nil), the organization they work in now (or nil), their session and the
// CSRF token their forms must carry.
type Current struct {
	User    *models.User
	Org     *models.OrgWithRole
	Session *sessions.Session
	CSRF    string
}

const currentKey = "current"

// CurrentOf returns the request's Current (never nil on browser routes).
func CurrentOf(c echo.Context) *Current {
	cur, _ := c.Get(currentKey).(*Current)
	if cur == nil {
		return &Current{}
	}
	return cur
}

// LoadUser resolves the session cookie into the current user and
// organization, for the areas browsers use with their session. The
// organization is re-checked against memberships on every request, so a
// removed member loses it at once.
func (p *Pages) LoadUser(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		sess, err := p.Sessions.Get(r, p.Sessions.Name(r))
		if err != nil {
			return err
		}
		cur := &Current{Session: sess}
		if uid, _ := sess.Values[session.KeyUserID].(string); uid != "" && !sess.IsNew {
			user, err := models.UserByID(r.Context(), p.DB.DB, uid)
			switch {
			case errors.Is(err, models.ErrNotFound):
			case err != nil:
				return err
			default:
				cur.User = user
			}
			if orgID, _ := sess.Values[session.KeyOrgID].(string); orgID != "" && cur.User != nil {
				org, err := models.OrgForMember(r.Context(), p.DB.DB, orgID, user.ID)
				if err != nil && !errors.Is(err, models.ErrNotFound) {
					return err
				}
				cur.Org = org
			}
		}
		cur.CSRF = p.csrfToken(c, cur)
		c.Set(currentKey, cur)
		ch := views.Chrome{CSRF: cur.CSRF, Tools: p.Tools}
		if cur.User != nil {
			ch.UserEmail = cur.User.Email
			ch.IsStaff = cur.User.IsStaff
		}
		if cur.Org != nil {
			ch.OrgName, ch.OrgRole = cur.Org.Name, cur.Org.Role
		}
		setChrome(c, ch)
		return next(c)
	}
}

// RequireSession refuses a request without a signed-in user with 401
// unauthenticated: for the scripts of our pages that call JSON endpoints
// with the session (the playground's chat).
func RequireSession(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if CurrentOf(c).User == nil {
			return apierr.New(http.StatusUnauthorized, "unauthenticated", "your session has ended: sign in again")
		}
		return next(c)
	}
}

// RequireUser sends a visitor who is not signed in to the sign-in page,
// which brings them back here afterwards.
func RequireUser(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if CurrentOf(c).User != nil {
			return next(c)
		}
		target := paths.SignInThen(c.Request().URL.RequestURI())
		if c.Request().Method != http.MethodGet {
			target = paths.SignIn
		}
		if httpx.IsHTMX(c) {
			c.Response().Header().Set("HX-Redirect", target)
			return c.NoContent(http.StatusUnauthorized)
		}
		return c.Redirect(http.StatusSeeOther, target)
	}
}

// localPath keeps a post-sign-in destination on this site: a path that
// starts with one slash, without scheme or host ("//evil.example" and
// "/\evil.example" are other sites to a browser).
func localPath(next string) string {
	if next == "" || !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\") {
		return ""
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || strings.ContainsAny(next, "\r\n\t") {
		return ""
	}
	return next
}

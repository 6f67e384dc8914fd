package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"

	"parapet/app/auth"
	"parapet/app/httpx"
	"parapet/app/session"
	"parapet/models"
	"parapet/views"
	"parapet/views/paths"
)

// SignUpPage shows the sign-up form.
func (p *Pages) SignUpPage(c echo.Context) error {
	if CurrentOf(c).User != nil {
		return c.Redirect(http.StatusSeeOther, paths.Console)
	}
	return p.renderSignUp(c, http.StatusOK, views.AuthForm{Next: localPath(c.QueryParam("next"))})
}

func (p *Pages) renderSignUp(c echo.Context, status int, f views.AuthForm) error {
	return httpx.Render(c, status, views.SignUp(Chrome(c, "Sign up"), f))
}

// SignUp creates an account and signs it in. Sign-ups are throttled per
// client address (SignUpLimit per SignUpWindow).
func (p *Pages) SignUp(c echo.Context) error {
	email := strings.TrimSpace(c.FormValue("email"))
	password := c.FormValue("password")
	f := views.AuthForm{Email: email, Next: localPath(c.FormValue("next"))}
	if msg, err := p.countSignUp(c); err != nil || msg != "" {
		if err != nil {
			return err
		}
		f.Error = msg
		return p.renderSignUp(c, http.StatusTooManyRequests, f)
	}
	if msg := checkEmail(email); msg != "" {
		f.Error = msg
		return p.renderSignUp(c, http.StatusUnprocessableEntity, f)
	}
	if err := auth.CheckNewPassword(password, email); err != nil {
		f.Error = upperFirst(err.Error()) + "."
		return p.renderSignUp(c, http.StatusUnprocessableEntity, f)
	}
	hash, err := hashBounded(c, password)
	if err != nil {
		return err
	}
	user, err := models.CreateUser(c.Request().Context(), p.DB.DB, email, hash)
	if errors.Is(err, models.ErrEmailTaken) {
		f.Error = "An account with this email already exists. Sign in instead."
		return p.renderSignUp(c, http.StatusUnprocessableEntity, f)
	}
	if err != nil {
		return err
	}
	_ = p.audit(c, &models.AuditEvent{ActorUserID: &user.ID, Action: models.ActionSignUp, Target: user.Email})
	if err := p.startSession(c, user, ""); err != nil {
		return err
	}
	if _, err := p.verifyInBackground(c, user); err != nil {
		return err
	}
	p.issueDevice(c, user.Email)
	return c.Redirect(http.StatusSeeOther, orDefault(f.Next, paths.Console))
}

// hashBounded hashes a new password in one of the bounded hashing slots.
func hashBounded(c echo.Context, password string) (string, error) {
	release, err := auth.Acquire(c.Request().Context())
	if err != nil {
		return "", err
	}
	defer release()
	return auth.HashPassword(password)
}

// SignInPage shows the sign-in form.
func (p *Pages) SignInPage(c echo.Context) error {
	next := localPath(c.QueryParam("next"))
	if CurrentOf(c).User != nil {
		return c.Redirect(http.StatusSeeOther, orDefault(next, paths.Console))
	}
	f := views.AuthForm{Next: next}
	if c.QueryParam("reset") == "1" {
		f.Notice = "Your password is set, and every session of the account was signed out: sign in with the new one."
	}
	return p.renderSignIn(c, http.StatusOK, f)
}

func (p *Pages) renderSignIn(c echo.Context, status int, f views.AuthForm) error {
	return renderPage(c, status, "Sign in", "signin", views.SignIn, f)
}

// SignIn checks the credentials, throttles repeated failures, and starts
// a new session. Every failure says the same thing and costs the same
// time, whether the email exists or not.
func (p *Pages) SignIn(c echo.Context) error {
	ctx := c.Request().Context()
	email := models.NormalizeEmail(c.FormValue("email"))
	password := c.FormValue("password")
	f := views.AuthForm{Email: email, Next: localPath(c.FormValue("next"))}
	counted, msg, err := p.countAttempt(c, email, "sign-in attempts")
	if err != nil {
		return err
	}
	if msg != "" {
		f.Error = msg
		return p.renderSignIn(c, http.StatusTooManyRequests, f)
	}

	var user *models.User
	hash := ""
	if len(email) <= models.MaxEmailLength && len(password) <= 4*auth.MaxPasswordLength {
		u, err := models.UserByEmail(ctx, p.DB.DB, email)
		if err != nil && !errors.Is(err, models.ErrNotFound) {
			return err
		}
		if err == nil {
			user, hash = u, u.PasswordHash
		}
	}
	release, err := auth.Acquire(ctx)
	if err != nil {
		return err
	}
	ok := auth.CheckPasswordOrDummy(hash, password)
	release()
	if !ok {
		e := &models.AuditEvent{Action: models.ActionSignInFailure, Target: email}
		if user != nil {
			e.ActorUserID = &user.ID
		}
		_ = p.audit(c, e)
		f.Error = "Wrong email or password."
		return p.renderSignIn(c, http.StatusUnauthorized, f)
	}
	p.forgive(c, counted)
	if second, err := p.beginSecondStep(c, user, f.Next); second || err != nil {
		return err // the code form (totp_signin.go) finishes the sign-in
	}
	if err := p.startSession(c, user, ""); err != nil {
		return err
	}
	p.issueDevice(c, user.Email)
	_ = p.audit(c, &models.AuditEvent{ActorUserID: &user.ID, Action: models.ActionSignInSuccess, Target: user.Email})
	return c.Redirect(http.StatusSeeOther, orDefault(f.Next, paths.Console))
}

// startSession ends the visitor's old session, if any, and begins a new
// one with a fresh id (no session fixation). It keeps the current
// organization when the user is a member of their first organization.
func (p *Pages) startSession(c echo.Context, user *models.User, orgID string) error {
	r, w := c.Request(), c.Response()
	if old := CurrentOf(c).Session; old != nil && old.ID != "" {
		old.Options.MaxAge = -1
		if err := p.Sessions.Save(r, w, old); err != nil {
			return err
		}
	}
	if orgID == "" {
		orgs, err := models.OrgsOfUser(r.Context(), p.DB.DB, user.ID)
		if err != nil {
			return err
		}
		if len(orgs) > 0 {
			orgID = orgs[0].ID
		}
	}
	// Sign-in is also when dead sessions and ended throttle windows are
	// swept, so the tables hold only live rows, without a background job.
	if err := models.DeleteExpiredSessions(r.Context(), p.DB.DB, models.Now(), session.IdleTimeout); err != nil {
		return err
	}
	if err := p.Throttle.Sweep(r.Context()); err != nil {
		return err
	}
	sess := sessions.NewSession(p.Sessions, p.Sessions.Name(r))
	sess.Values[session.KeyUserID] = user.ID
	if orgID != "" {
		sess.Values[session.KeyOrgID] = orgID
	}
	return p.Sessions.Save(r, w, sess)
}

// SignOut ends the session on the server, so the cookie is worthless
// everywhere, and clears it.
func (p *Pages) SignOut(c echo.Context) error {
	cur := CurrentOf(c)
	if cur.User != nil {
		_ = p.audit(c, &models.AuditEvent{ActorUserID: &cur.User.ID, Action: models.ActionSignOut, Target: cur.User.Email, OrgID: orgIDOf(cur)})
	}
	if cur.Session != nil {
		cur.Session.Options.MaxAge = -1
		if err := p.Sessions.Save(c.Request(), c.Response(), cur.Session); err != nil {
			return err
		}
	}
	return c.Redirect(http.StatusSeeOther, "/")
}

func checkEmail(email string) string {
	if email == "" {
		return "Enter your email address."
	}
	if len(email) > models.MaxEmailLength {
		return "That email address is too long."
	}
	if models.MixedScripts(email) {
		return "That address mixes alphabets (such as Latin letters and Cyrillic ones that look alike): type it in one."
	}
	if !models.ValidEmail(email) {
		return "Enter a valid email address, like name@example.com."
	}
	return ""
}

func orgIDOf(cur *Current) *string {
	if cur.Org == nil {
		return nil
	}
	return &cur.Org.ID
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"parapet/app/auth"
	"parapet/app/httpx"
	"parapet/models"
	"parapet/views"
	"parapet/views/paths"
)

// AccountPage shows the signed-in account, its sessions and its password
// form.
func (p *Pages) AccountPage(c echo.Context) error {
	d := views.AccountData{Email: CurrentOf(c).User.Email}
	switch {
	case c.QueryParam("changed") == "1":
		d.Flash = "Your password is changed. Every other session of this account is signed out, and a notice was sent to your email address."
	case c.QueryParam("ended") == "1":
		d.Flash = "The session is ended."
	case c.QueryParam("ended") != "":
		d.Flash = "Every other session is ended."
	case c.QueryParam("passkey") != "":
		d.Flash = passkeyFlash[c.QueryParam("passkey")]
	}
	return p.renderAccount(c, http.StatusOK, d)
}

func (p *Pages) renderAccount(c echo.Context, status int, d views.AccountData) error {
	var err error
	if d.Sessions, err = p.sessionRows(c); err != nil {
		return err
	}
	if d.Passkeys, err = p.passkeyRows(c); err != nil {
		return err
	}
	ch := Chrome(c, "Account")
	ch.Nav, ch.Flash = "console", d.Flash
	return httpx.Render(c, status, views.Account(ch, d))
}

// ChangePassword replaces the account's password after checking the
// current one. Wrong current passwords count against the sign-in throttle,
// so the form is no way around it. On success every session of the
// account ends, this one included, and this browser gets a new one.
func (p *Pages) ChangePassword(c echo.Context) error {
	ctx := c.Request().Context()
	cur := CurrentOf(c)
	user := cur.User
	current, next, again := c.FormValue("current_password"), c.FormValue("new_password"), c.FormValue("confirm_password")
	fail := func(status int, msg string) error {
		return p.renderAccount(c, status, views.AccountData{Email: user.Email, Error: msg})
	}

	if status, msg, err := p.recheckPassword(c, current); err != nil || msg != "" {
		return orRender(err, func() error { return fail(status, msg) })
	}
	switch err := auth.CheckNewPassword(next, user.Email); {
	case err != nil:
		return fail(http.StatusUnprocessableEntity, upperFirst(err.Error())+".")
	case next != again:
		return fail(http.StatusUnprocessableEntity, "The new password and its confirmation differ.")
	case next == current:
		return fail(http.StatusUnprocessableEntity, "The new password is the current one. Choose another.")
	}
	hash, err := hashBounded(c, next)
	if err != nil {
		return err
	}
	if err := models.ChangePassword(ctx, p.DB.DB, user.ID, hash); err != nil {
		return err
	}
	_ = p.audit(c, &models.AuditEvent{ActorUserID: &user.ID, Action: models.ActionPasswordChange, Target: user.Email, OrgID: orgIDOf(cur)})
	p.notify(c, user, "Your Parapet password was changed",
		"The password of your Parapet account "+user.Email+" was changed, and every other session of the account was signed out.\n\n"+
			"If this was not you, reset your password at once and tell your organization's owner.")
	orgID := ""
	if cur.Org != nil {
		orgID = cur.Org.ID
	}
	if err := p.startSession(c, user, orgID); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, paths.AccountChanged)
}

// recheckCode checks a two-factor code of the signed-in account (a
// current TOTP code, or an unused recovery code) in place of its password
// before a sensitive change, under the sign-in throttle counted as
// attempts; a wrong one is audited and answered with wrong. It answers
// as recheckPassword does.
func (p *Pages) recheckCode(c echo.Context, code, attempts, wrong string) (status int, msg string, err error) {
	cur := CurrentOf(c)
	user := cur.User
	counted, msg, err := p.countAttempt(c, user.Email, attempts)
	if err != nil || msg != "" {
		return http.StatusTooManyRequests, msg, err
	}
	_, ok, err := p.checkSecondFactor(c.Request().Context(), user, code)
	if err != nil {
		return 0, "", err
	}
	if !ok {
		_ = p.audit(c, &models.AuditEvent{ActorUserID: &user.ID, Action: models.ActionTOTPFailure, Target: user.Email, OrgID: orgIDOf(cur)})
		return http.StatusUnauthorized, wrong, nil
	}
	p.forgive(c, counted)
	return 0, "", nil
}

// recheckPassword checks the signed-in account's password again before a
// sensitive change (a new password, two-factor sign-in turned on), under
// the sign-in throttle; a wrong one is audited. It returns the status and
// message to answer with when the attempt is refused or the password is
// wrong, and no message when it is right.
func (p *Pages) recheckPassword(c echo.Context, password string) (status int, msg string, err error) {
	cur := CurrentOf(c)
	user := cur.User
	counted, msg, err := p.countAttempt(c, user.Email, "password attempts")
	if err != nil || msg != "" {
		return http.StatusTooManyRequests, msg, err
	}
	release, err := auth.Acquire(c.Request().Context())
	if err != nil {
		return 0, "", err
	}
	ok, err := auth.CheckPassword(user.PasswordHash, password)
	release()
	if err != nil || !ok {
		_ = p.audit(c, &models.AuditEvent{ActorUserID: &user.ID, Action: models.ActionPasswordFailure, Target: user.Email, OrgID: orgIDOf(cur)})
		return http.StatusUnauthorized, "Your current password is not right.", nil
	}
	p.forgive(c, counted)
	return 0, "", nil
}

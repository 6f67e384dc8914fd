package web

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/httpx"
	"parapet/app/totp"
	"parapet/models"
	"parapet/views"
	"parapet/views/paths"
)

// TwoFactorPage shows two-factor sign-in: when off, a QR code to scan and
// the form that confirms it; when on, how many recovery codes are left and
// the form that turns it off.
func (p *Pages) TwoFactorPage(c echo.Context) error {
	return p.renderTwoFactor(c, http.StatusOK, views.TwoFactorData{Required: c.QueryParam("required") == "1", StaffRequired: c.QueryParam("required") == "staff"})
}

func (p *Pages) renderTwoFactor(c echo.Context, status int, d views.TwoFactorData) error {
	ctx := c.Request().Context()
	user := CurrentOf(c).User
	d.Enabled = user.TOTPEnabledAt != nil
	if d.Enabled {
		n, err := models.UnusedRecoveryCodes(ctx, p.DB.DB, user.ID)
		if err != nil {
			return err
		}
		d.RecoveryLeft = int(n)
	} else {
		// One pending secret per account, kept until it is confirmed, so
		// reloading the page shows the QR code already scanned.
		secret, ok := p.totpSecret(user)
		if !ok {
			var err error
			if secret, err = totp.NewSecret(user.Email); err != nil {
				return err
			}
			sealed, err := totp.Seal(secret, totp.Key(p.Secret))
			if err != nil {
				return err
			}
			if err := models.SetPendingTOTPSecret(ctx, p.DB.DB, user.ID, sealed); err != nil {
				return err
			}
		}
		enrol, err := totp.Enrol(user.Email, secret)
		if err != nil {
			return err
		}
		d.Secret, d.QR = enrol.Secret, enrol.QR
	}
	return renderPage(c, status, "Two-factor sign-in", "console", views.TwoFactor, d)
}

// totpSecret opens the user's stored TOTP secret; false when there is
// none, or it was sealed under another SESSION_SECRET.
func (p *Pages) totpSecret(user *models.User) (string, bool) {
	if user.TOTPSecret == nil {
		return "", false
	}
	secret, err := totp.Open(*user.TOTPSecret, totp.Key(p.Secret))
	return secret, err == nil
}

// EnableTwoFactor confirms the enrolment with a code from the app, turns
// two-factor sign-in on, and shows the ten recovery codes, once.
func (p *Pages) EnableTwoFactor(c echo.Context) error {
	user := CurrentOf(c).User
	if user.TOTPEnabledAt != nil {
		return c.Redirect(http.StatusSeeOther, paths.TwoFactor)
	}
	// The password first: a session left open must not be able to put
	// its own authenticator on the account and lock its owner out.
	if status, msg, err := p.recheckPassword(c, c.FormValue("current_password")); err != nil || msg != "" {
		return orRender(err, func() error { return p.renderTwoFactor(c, status, views.TwoFactorData{Error: msg}) })
	}
	var step int64
	secret, ok := p.totpSecret(user)
	if ok {
		step, ok = totp.Match(secret, c.FormValue("code"), time.Now())
	}
	if !ok {
		return p.renderTwoFactor(c, http.StatusUnprocessableEntity, views.TwoFactorData{
			Error: "That code is not right: enter the 6-digit code your authenticator app shows for Parapet now."})
	}
	// The confirming code is spent: it cannot sign in afterwards.
	if _, err := models.ClaimTOTPStep(c.Request().Context(), p.DB.DB, user.ID, step); err != nil {
		return err
	}
	codes, hashes := totp.NewRecoveryCodes()
	if err := models.EnableTOTP(c.Request().Context(), p.DB.DB, user.ID, hashes); err != nil {
		return err
	}
	_ = p.audit(c, &models.AuditEvent{ActorUserID: &user.ID, Action: models.ActionTOTPEnable, Target: user.Email, OrgID: orgIDOf(CurrentOf(c))})
	p.notify(c, user, "Two-factor sign-in was turned on for your Parapet account",
		"Two-factor sign-in was turned on for your Parapet account "+user.Email+": signing in now takes a code from an authenticator app.\n\n"+
			"If this was not you, someone else holds the authenticator: change your password at once and tell your organization's owner.")
	now := models.Now()
	user.TOTPEnabledAt = &now
	return p.renderTwoFactor(c, http.StatusOK, views.TwoFactorData{RecoveryCodes: codes})
}

// DisableTwoFactor turns two-factor sign-in off; it takes a current code
// (or a recovery code), so a session left open is not enough. Wrong codes
// count against the sign-in throttle and are audited, as at sign-in:
// else a stolen session could guess the six digits at leisure. The
// account's address is told.
func (p *Pages) DisableTwoFactor(c echo.Context) error {
	ctx := c.Request().Context()
	user := CurrentOf(c).User
	if user.TOTPEnabledAt == nil {
		return c.Redirect(http.StatusSeeOther, paths.TwoFactor)
	}
	counted, msg, err := p.countAttempt(c, user.Email, "two-factor codes")
	if err != nil || msg != "" {
		return orRender(err, func() error {
			return p.renderTwoFactor(c, http.StatusTooManyRequests, views.TwoFactorData{Error: msg})
		})
	}
	_, ok, err := p.checkSecondFactor(ctx, user, c.FormValue("code"))
	if err != nil {
		return err
	}
	if !ok {
		_ = p.audit(c, &models.AuditEvent{ActorUserID: &user.ID, Action: models.ActionTOTPFailure, Target: user.Email, OrgID: orgIDOf(CurrentOf(c))})
		return p.renderTwoFactor(c, http.StatusUnprocessableEntity, views.TwoFactorData{Error: "That code is not right: enter a current code or an unused recovery code."})
	}
	p.forgive(c, counted)
	if err := models.DisableTOTP(ctx, p.DB.DB, user.ID); err != nil {
		return err
	}
	_ = p.audit(c, &models.AuditEvent{ActorUserID: &user.ID, Action: models.ActionTOTPDisable, Target: user.Email, OrgID: orgIDOf(CurrentOf(c))})
	p.notify(c, user, "Two-factor sign-in was turned off for your Parapet account",
		"Two-factor sign-in was turned off for your Parapet account "+user.Email+": a password alone now signs in.\n\n"+
			"If this was not you, change your password at once, turn two-factor sign-in on again and tell your organization's owner.")
	return c.Redirect(http.StatusSeeOther, paths.TwoFactor)
}

// Require2FA sends a member of an organization that requires two-factor
// sign-in, and has not set it up, to set it up. routes.go puts it on every
// signed-in page but the account's (where one enrols) and the
// organizations' (to switch elsewhere).
func (p *Pages) Require2FA(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		cur := CurrentOf(c)
		if cur.Org == nil || !cur.Org.Require2FA || cur.User == nil || cur.User.HasSecondFactor() {
			return next(c)
		}
		return sendToEnrol(c, "1")
	}
}

// sendToEnrol sends a member who needs a second factor to set one up;
// why is the page's "required" parameter: "1" for an organization's rule,
// "staff" for the staff pages.
func sendToEnrol(c echo.Context, why string) error {
	target := paths.TwoFactor + "?required=" + why
	if httpx.IsHTMX(c) {
		c.Response().Header().Set("HX-Redirect", target)
		return c.NoContent(http.StatusForbidden)
	}
	return c.Redirect(http.StatusSeeOther, target)
}

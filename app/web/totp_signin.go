package web

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/totp"
	"parapet/models"
	"parapet/views"
	"parapet/views/paths"
)

// The second step of sign-in: after the password of an account with
// two-factor sign-in, the browser holds a short-lived signed cookie naming
// the account (not a session: nothing is signed in yet), and must send a
// TOTP code or an unused recovery code within secondStepTTL.
const (
	secondStepCookie = "parapet_2fa"
	secondStepTTL    = 5 * time.Minute
)

// pendingSecondStep is what the cookie carries.
type pendingSecondStep struct {
	UserID string
	Next   string
}

// checkSecondFactor accepts a current TOTP code not used before, or an
// unused recovery code (spending it), and says which it was.
func (p *Pages) checkSecondFactor(ctx context.Context, user *models.User, code string) (how string, ok bool, err error) {
	if totp.LooksLikeTOTP(code) {
		secret, ok := p.totpSecret(user)
		var step int64
		if ok {
			step, ok = totp.Match(secret, code, time.Now())
		}
		if !ok {
			return "", false, nil
		}
		ok, err = models.ClaimTOTPStep(ctx, p.DB.DB, user.ID, step)
		return "authenticator code", ok, err
	}
	if len(code) > 64 {
		return "", false, nil
	}
	ok, err = models.UseRecoveryCode(ctx, p.DB.DB, user.ID, totp.HashRecoveryCode(code))
	return "recovery code", ok, err
}

// beginSecondStep is the sign-in handler's hook: for an account with
// two-factor sign-in (TOTP, or a passkey: an account that counts as having
// a second factor never signs in with its password alone) it sets the
// cookie, sends the browser to the second step and reports true;
// otherwise it does nothing and reports false.
func (p *Pages) beginSecondStep(c echo.Context, user *models.User, next string) (bool, error) {
	if !user.HasSecondFactor() {
		return false, nil
	}
	v, err := p.codec(secondStepTTL).Encode(secondStepCookie, pendingSecondStep{UserID: user.ID, Next: next})
	if err != nil {
		return false, err
	}
	c.SetCookie(&http.Cookie{Name: secondStepCookie, Value: v, Path: paths.SignIn,
		MaxAge: int(secondStepTTL / time.Second), HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: p.IsHTTPS(c.Request())})
	return true, c.Redirect(http.StatusSeeOther, paths.SignInCode)
}

// pendingOf reads a valid, unexpired second-step cookie.
func (p *Pages) pendingOf(c echo.Context) (*pendingSecondStep, bool) {
	ck, err := c.Cookie(secondStepCookie)
	if err != nil {
		return nil, false
	}
	var ps pendingSecondStep
	if p.codec(secondStepTTL).Decode(secondStepCookie, ck.Value, &ps) != nil || ps.UserID == "" {
		return nil, false
	}
	ps.Next = localPath(ps.Next)
	return &ps, true
}

func (p *Pages) clearSecondStep(c echo.Context) {
	c.SetCookie(&http.Cookie{Name: secondStepCookie, Value: "", Path: paths.SignIn, MaxAge: -1, HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: p.IsHTTPS(c.Request())})
}

// renderSecondStep shows the code form to an account with TOTP, and the
// passkey button to an account with a passkey.
func (p *Pages) renderSecondStep(c echo.Context, status int, errMsg string) error {
	d := views.SecondStepData{Error: errMsg}
	if pending, ok := p.pendingOf(c); ok {
		user, err := models.UserByID(c.Request().Context(), p.DB.DB, pending.UserID)
		if err != nil && !errors.Is(err, models.ErrNotFound) {
			return err
		}
		if err == nil {
			d.Code, d.Passkey = user.TOTPEnabledAt != nil, user.PasskeyCount > 0
		}
	}
	return renderPage(c, status, "Two-factor sign-in", "signin", views.SecondStep, d)
}

// SecondStepPage asks for the code; without a pending sign-in it sends the
// visitor back to the password form.
func (p *Pages) SecondStepPage(c echo.Context) error {
	if _, ok := p.pendingOf(c); !ok {
		return c.Redirect(http.StatusSeeOther, paths.SignIn)
	}
	return p.renderSecondStep(c, http.StatusOK, "")
}

// SecondStep checks the TOTP or recovery code and signs in. Wrong codes
// count against the same throttle as wrong passwords (by account and by
// address), so the six digits cannot be guessed.
func (p *Pages) SecondStep(c echo.Context) error {
	pending, ok := p.pendingOf(c)
	if !ok {
		return c.Redirect(http.StatusSeeOther, paths.SignIn)
	}
	ctx := c.Request().Context()
	user, err := models.UserByID(ctx, p.DB.DB, pending.UserID)
	if errors.Is(err, models.ErrNotFound) || err == nil && (user.TOTPEnabledAt == nil || user.TOTPSecret == nil) {
		p.clearSecondStep(c)
		return c.Redirect(http.StatusSeeOther, paths.SignIn)
	}
	if err != nil {
		return err
	}
	counted, msg, err := p.countAttempt(c, user.Email, "sign-in attempts")
	if err != nil || msg != "" {
		return orRender(err, func() error { return p.renderSecondStep(c, http.StatusTooManyRequests, msg) })
	}
	how, valid, err := p.checkSecondFactor(ctx, user, c.FormValue("code"))
	if err != nil {
		return err
	}
	if !valid {
		_ = p.audit(c, &models.AuditEvent{ActorUserID: &user.ID, Action: models.ActionTOTPFailure, Target: user.Email})
		return p.renderSecondStep(c, http.StatusUnauthorized, "That code is not right. Enter the 6-digit code your app shows now, or an unused recovery code.")
	}
	p.forgive(c, counted)
	p.clearSecondStep(c)
	if err := p.startSession(c, user, ""); err != nil {
		return err
	}
	p.issueDevice(c, user.Email)
	if how == "recovery code" {
		_ = p.audit(c, &models.AuditEvent{ActorUserID: &user.ID, Action: models.ActionRecoveryCodeUse, Target: user.Email})
	}
	_ = p.audit(c, &models.AuditEvent{ActorUserID: &user.ID, Action: models.ActionSignInSuccess, Target: user.Email, Detail: &how})
	return c.Redirect(http.StatusSeeOther, orDefault(pending.Next, paths.Console))
}

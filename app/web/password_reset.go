package web

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/auth"
	"parapet/app/httpx"
	"parapet/app/mail"
	"parapet/models"
	"parapet/views"
	"parapet/views/paths"
)

// Password reset (ASVS 2.5): a link mailed to the account's address, its
// token random (32 base62 characters) and stored hashed, valid for
// ResetTTL and once. Asking for one is throttled per account and per
// client network, and answers the same, at once, whether an account uses
// the address or not: the account is looked up, and the link made and
// mailed, after the answer (but in development without SMTP_URL, where
// the page shows the link).
const (
	ResetTTL          = time.Hour
	ResetsPerAccount  = 5  // links asked for one address per ResetWindow
	ResetsPerNetwork  = 20 // links asked from one client network per ResetWindow
	ResetWindow       = time.Hour
	resetSendDeadline = 30 * time.Second
)

// ForgotPasswordPage asks for the address to send a reset link to.
func (p *Pages) ForgotPasswordPage(c echo.Context) error {
	return renderPage(c, http.StatusOK, "Reset your password", "signin", views.ForgotPassword, views.ForgotData{})
}

// ForgotPassword sends a reset link to the address, if an account uses
// it, and says the same either way.
func (p *Pages) ForgotPassword(c echo.Context) error {
	email := models.NormalizeEmail(c.FormValue("email"))
	d := views.ForgotData{Email: email}
	render := func(status int) error {
		return renderPage(c, status, "Reset your password", "signin", views.ForgotPassword, d)
	}
	if d.Error = checkEmail(email); d.Error != "" {
		return render(http.StatusUnprocessableEntity)
	}
	for _, t := range []struct {
		key   string
		limit int
	}{{"reset:network:" + httpx.ClientNetwork(c), ResetsPerNetwork}, {"reset:account:" + email, ResetsPerAccount}} {
		r, err := p.Throttle.Hit(c.Request().Context(), t.key, t.limit, ResetWindow)
		if err != nil {
			return err
		}
		if !r.Allowed {
			d.Error = tooMany(c, r.RetryAfter, "Too many reset links were asked for.")
			return render(http.StatusTooManyRequests)
		}
	}
	base, rid := p.absoluteURL(c, ""), httpx.RequestID(c)
	d.Sent = true
	if p.ShowMailLinks {
		link, err := p.sendReset(c.Request().Context(), email, base)
		if err != nil {
			return err
		}
		d.DevLink = link
		return render(http.StatusOK)
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), resetSendDeadline)
		defer cancel()
		if _, err := p.sendReset(ctx, email, base); err != nil {
			p.Log.Error("password reset link", "request_id", rid, "error", err)
		}
	}()
	return render(http.StatusOK)
}

// sendReset makes a reset link for the account that uses email, if any,
// and mails it; it returns the link ("" without an account).
func (p *Pages) sendReset(ctx context.Context, email, base string) (string, error) {
	u, err := models.UserByEmail(ctx, p.DB.DB, email)
	if errors.Is(err, models.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	token, err := models.CreateAccountToken(ctx, p.DB.DB, u, models.PurposeReset, ResetTTL)
	if err != nil {
		return "", err
	}
	link := base + paths.ResetPassword(token)
	return link, p.Mail.Send(ctx, mail.Message{To: u.Email, Subject: "Reset your Parapet password",
		Body: "Someone (we hope you) asked to reset the password of your Parapet account.\n\n" +
			"Open this link to set a new one (it works once, for one hour):\n" + link + "\n\n" +
			"If it was not you, ignore this message: your password stays as it is.\n"})
}

// resetToken loads the reset link's token, or renders why it does not
// work (404 made up, 410 used or expired) and returns nil.
func (p *Pages) resetToken(c echo.Context) (*models.AccountToken, *models.User, error) {
	ctx := c.Request().Context()
	invalid := func(status int, msg string) error {
		return renderPage(c, status, "Set a new password", "signin", views.ResetPassword, views.ResetData{Invalid: msg})
	}
	t, err := models.AccountTokenByText(ctx, p.DB.DB, models.PurposeReset, c.Param("token"))
	if errors.Is(err, models.ErrNotFound) {
		return nil, nil, invalid(http.StatusNotFound, "This reset link is not valid: copy the whole link from the mail, or ask for a new one.")
	}
	if err != nil {
		return nil, nil, err
	}
	u, err := models.UserByID(ctx, p.DB.DB, t.UserID)
	if err != nil && !errors.Is(err, models.ErrNotFound) {
		return nil, nil, err
	}
	if !t.Usable(models.Now()) || err != nil || u.Email != t.Email {
		return nil, nil, invalid(http.StatusGone, "This reset link was used already or has expired (a link works once, for one hour): ask for a new one.")
	}
	return t, u, nil
}

// ResetPasswordPage shows the form of a reset link.
func (p *Pages) ResetPasswordPage(c echo.Context) error {
	t, u, err := p.resetToken(c)
	if t == nil {
		return err
	}
	return renderPage(c, http.StatusOK, "Set a new password", "signin", views.ResetPassword,
		views.ResetData{Token: c.Param("token"), Email: u.Email})
}

// ResetPassword sets the new password of a reset link: the link is spent,
// every session of the account ends, a notice is mailed, and the account
// signs in again, with its second factor if it has one.
func (p *Pages) ResetPassword(c echo.Context) error {
	t, u, err := p.resetToken(c)
	if t == nil {
		return err
	}
	d := views.ResetData{Token: c.Param("token"), Email: u.Email}
	next, again := c.FormValue("new_password"), c.FormValue("confirm_password")
	if next != again {
		d.Error = "The two new passwords differ."
		return renderPage(c, http.StatusUnprocessableEntity, "Set a new password", "signin", views.ResetPassword, d)
	}
	if err := auth.CheckNewPassword(next, u.Email); err != nil {
		d.Error = upperFirst(err.Error()) + "."
		return renderPage(c, http.StatusUnprocessableEntity, "Set a new password", "signin", views.ResetPassword, d)
	}
	hash, err := hashBounded(c, next)
	if err != nil {
		return err
	}
	user, err := models.ResetPassword(c.Request().Context(), p.DB.DB, c.Param("token"), hash)
	if errors.Is(err, models.ErrTokenSpent) {
		d = views.ResetData{Invalid: "This reset link was used already or has expired (a link works once, for one hour): ask for a new one."}
		return renderPage(c, http.StatusGone, "Set a new password", "signin", views.ResetPassword, d)
	}
	if err != nil {
		return err
	}
	_ = p.audit(c, &models.AuditEvent{ActorUserID: &user.ID, Action: models.ActionPasswordReset, Target: user.Email})
	p.notify(c, user, "Your Parapet password was reset",
		"The password of your Parapet account was set with a reset link, and every session of the account was signed out.\n\n"+
			"If it was not you, reset it again at once and check the account's sessions and keys.\n")
	if cur := CurrentOf(c); cur.Session != nil && cur.Session.ID != "" { // the account's sessions are gone: so is this one
		cur.Session.Options.MaxAge = -1
		if err := p.Sessions.Save(c.Request(), c.Response(), cur.Session); err != nil {
			return err
		}
	}
	return c.Redirect(http.StatusSeeOther, paths.SignInAfterReset)
}

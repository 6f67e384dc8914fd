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

// Email verification (ASVS 2.1): a new account is signed in at once and
// mailed a link that proves its address, random and stored hashed, valid
// for VerifyTTL and once. Until the address is proven the account cannot
// accept invitations (which lean on the address) and is mailed nothing
// but these links and password resets (notify). A new link is throttled
// per account.
const (
	VerifyTTL          = 24 * time.Hour
	VerifiesPerAccount = 5 // new links per account per VerifyWindow
	VerifyWindow       = time.Hour
)

// sendVerification makes a verification link for u's address and mails
// it; it returns the link.
func (p *Pages) sendVerification(ctx context.Context, u *models.User, base string) (string, error) {
	token, err := models.CreateAccountToken(ctx, p.DB.DB, u, models.PurposeVerify, VerifyTTL)
	if err != nil {
		return "", err
	}
	link := base + paths.ConfirmEmail(token)
	return link, p.Mail.Send(ctx, mail.Message{To: u.Email, Subject: "Confirm your email address for Parapet",
		Body: "Confirm that " + u.Email + " is the address of your Parapet account: open this link (it works once, for 24 hours):\n" +
			link + "\n\nIf you did not create a Parapet account, ignore this message.\n"})
}

// verifyInBackground sends a verification link after the answer, or at
// once when the page shows it (development without SMTP_URL), and
// returns the link shown.
func (p *Pages) verifyInBackground(c echo.Context, u *models.User) (string, error) {
	base := p.absoluteURL(c, "")
	if p.ShowMailLinks {
		return p.sendVerification(c.Request().Context(), u, base)
	}
	rid := httpx.RequestID(c)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), notifyTimeout)
		defer cancel()
		if _, err := p.sendVerification(ctx, u, base); err != nil {
			p.Log.Error("verification link", "request_id", rid, "error", err)
		}
	}()
	return "", nil
}

// VerifyPage shows whether the account's address is confirmed.
func (p *Pages) VerifyPage(c echo.Context) error {
	u := CurrentOf(c).User
	return renderPage(c, http.StatusOK, "Email address", "console", views.Verify,
		views.VerifyData{Email: u.Email, Verified: u.EmailVerifiedAt != nil})
}

// ResendVerification mails a new verification link.
func (p *Pages) ResendVerification(c echo.Context) error {
	u := CurrentOf(c).User
	d := views.VerifyData{Email: u.Email, Verified: u.EmailVerifiedAt != nil}
	if d.Verified {
		return renderPage(c, http.StatusOK, "Email address", "console", views.Verify, d)
	}
	msg, err := p.countWork(c, "verify:user:"+u.ID, VerifiesPerAccount, VerifyWindow, "Too many verification links were asked for.")
	if err != nil {
		return err
	}
	if msg != "" {
		d.Error = msg
		return renderPage(c, http.StatusTooManyRequests, "Email address", "console", views.Verify, d)
	}
	if d.DevLink, err = p.verifyInBackground(c, u); err != nil {
		return err
	}
	d.Sent = true
	return renderPage(c, http.StatusOK, "Email address", "console", views.Verify, d)
}

// verifyToken loads a verification link's token, or renders why it does
// not work (404 made up, 410 used or expired) and returns nil.
func (p *Pages) verifyToken(c echo.Context) (*models.AccountToken, error) {
	t, err := models.AccountTokenByText(c.Request().Context(), p.DB.DB, models.PurposeVerify, c.Param("token"))
	if errors.Is(err, models.ErrNotFound) {
		return nil, p.renderConfirm(c, http.StatusNotFound, views.ConfirmEmailData{Invalid: "This link is not valid: copy the whole link from the mail."})
	}
	if err != nil {
		return nil, err
	}
	if !t.Usable(models.Now()) {
		return nil, p.renderConfirm(c, http.StatusGone, views.ConfirmEmailData{Invalid: spentVerification})
	}
	return t, nil
}

const spentVerification = "This link was used already or has expired (a link works once, for 24 hours): ask for a new one on your account's email page."

func (p *Pages) renderConfirm(c echo.Context, status int, d views.ConfirmEmailData) error {
	return renderPage(c, status, "Confirm your email address", "", views.ConfirmEmail, d)
}

// ConfirmEmailPage shows a verification link's button.
func (p *Pages) ConfirmEmailPage(c echo.Context) error {
	t, err := p.verifyToken(c)
	if t == nil {
		return err
	}
	return p.renderConfirm(c, http.StatusOK, views.ConfirmEmailData{Token: c.Param("token"), Email: t.Email})
}

// ConfirmEmail spends a verification link and confirms the address.
func (p *Pages) ConfirmEmail(c echo.Context) error {
	if t, err := p.verifyToken(c); t == nil {
		return err
	}
	u, err := models.VerifyEmail(c.Request().Context(), p.DB.DB, c.Param("token"))
	if errors.Is(err, models.ErrTokenSpent) {
		return p.renderConfirm(c, http.StatusGone, views.ConfirmEmailData{Invalid: spentVerification})
	}
	if err != nil {
		return err
	}
	_ = p.audit(c, &models.AuditEvent{ActorUserID: &u.ID, Action: models.ActionEmailVerify, Target: u.Email})
	return p.renderConfirm(c, http.StatusOK, views.ConfirmEmailData{Email: u.Email, Done: true})
}

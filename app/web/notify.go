package web

import (
	"context"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/httpx"
	"parapet/app/mail"
	"parapet/models"
)

// notifyTimeout bounds the delivery of one notice, which runs after the
// response so a slow mail server never holds the request.
const notifyTimeout = 30 * time.Second

// notify mails a notice of a credential change (ASVS 2.2.3) to the
// account's address, in the background; a failure is logged. An address
// not confirmed yet is mailed nothing but verification links and password
// resets (verify.go): it may be someone else's.
func (p *Pages) notify(c echo.Context, u *models.User, subject, body string) {
	if u.EmailVerifiedAt == nil {
		return
	}
	to, rid := u.Email, httpx.RequestID(c)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), notifyTimeout)
		defer cancel()
		if err := p.Mail.Send(ctx, mail.Message{To: to, Subject: subject, Body: body}); err != nil {
			p.Log.Error("mail notice", "subject", subject, "request_id", rid, "error", err)
		}
	}()
}

package web

import (
	"context"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/httpx"
	"parapet/app/mail"
)

// notifyTimeout bounds the delivery of one notice, which runs after the
// response so a slow mail server never holds the request.
const notifyTimeout = 30 * time.Second

// notify mails a notice of a credential change (ASVS 2.2.3) to the
// account's address, in the background; a failure is logged.
func (p *Pages) notify(c echo.Context, to, subject, body string) {
	rid := httpx.RequestID(c)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), notifyTimeout)
		defer cancel()
		if err := p.Mail.Send(ctx, mail.Message{To: to, Subject: subject, Body: body}); err != nil {
			p.Log.Error("mail notice", "subject", subject, "request_id", rid, "error", err)
		}
	}()
}

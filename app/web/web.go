// Package web holds the browser pages: the landing page, the console, the
// tool pages and the gateway playground. Handlers render templ components
// from views and swap fragments for htmx.
package web

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/httpx"
	"parapet/app/keys"
	"parapet/app/mail"
	"parapet/app/session"
	"parapet/models"
	"parapet/views"
)

// Deps is what the pages need.
type Deps struct {
	DB                   *models.DB
	Log                  *slog.Logger
	Sessions             *session.Store
	Keys                 *keys.Verifier
	Secret               []byte
	GatewayMonthlyTokens int64
	IsHTTPS              func(*http.Request) bool
	// OnProductChange runs after a product changes through the console, so
	// the public API stops serving its cached registry.
	OnProductChange func()
	Gateway         GatewayDeps
	// PublicURL, when set, is the origin of links sent by mail
	// (invitations); otherwise the request's host is.
	PublicURL string
	// Mailer sends invitations (SMTP, or the log when SMTP_URL is unset).
	Mailer mail.Mailer
}

// Pages serves the browser routes.
type Pages struct {
	Deps
}

// New makes the page handlers.
func New(d Deps) *Pages { return &Pages{Deps: d} }

// Home is the landing page.
func (p *Pages) Home(c echo.Context) error {
	ch := httpx.Chrome(c, "")
	ch.Nav = "home"
	return httpx.Render(c, http.StatusOK, views.Home(ch))
}

// audit records an event of the current request. A failure to record is
// logged, and fails the action only where the caller decides so.
func (p *Pages) audit(c echo.Context, e *models.AuditEvent) error {
	e.IP = c.RealIP()
	e.RequestID = httpx.RequestID(c)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request().Context()), 5*time.Second)
	defer cancel()
	if err := models.RecordAudit(ctx, p.DB.DB, e); err != nil {
		p.Log.Error("audit", "action", e.Action, "request_id", e.RequestID, "error", err)
		return err
	}
	return nil
}

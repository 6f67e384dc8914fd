// Package web holds the browser pages: the landing page, the console, the
// tool pages and the gateway playground. Handlers render templ components
// from views and swap fragments for htmx.
package web

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"parapet/app/httpx"
	"parapet/app/keys"
	"parapet/app/mail"
	"parapet/app/session"
	"parapet/app/throttle"
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
	// Throttle counts sign-in and sign-up attempts (Redis or the database).
	Throttle throttle.Counter
	// Mail sends notices of credential changes and invitations (SMTP, or
	// the log when SMTP_URL is unset).
	Mail mail.Mailer
	// PublicURL is our origin for the CSRF origin check and the links sent
	// by mail ("" = the request's own scheme and host).
	PublicURL string
	// ShowMailLinks has the pages that mail a link (password reset, email
	// verification) show it too: in development without SMTP_URL, where
	// nothing is delivered, so `go run .` needs no mail server.
	ShowMailLinks bool
}

// Pages serves the browser routes.
type Pages struct {
	Deps
	// Tools are the tools' links in the site's navigation (set by the app
	// from the tools' registrations).
	Tools []views.NavLink
}

// New makes the page handlers.
func New(d Deps) *Pages { return &Pages{Deps: d} }

// Home is the landing page.
func (p *Pages) Home(c echo.Context) error {
	ch := Chrome(c, "")
	ch.Nav = "home"
	return httpx.Render(c, http.StatusOK, views.Home(ch))
}

// renderPage answers with a whole page: page's content for d in the site's
// chrome, titled title, with nav's link marked as the current one.
func renderPage[D any](c echo.Context, status int, title, nav string, page func(views.Chrome, D) templ.Component, d D) error {
	return httpx.Render(c, status, chromed(c, title, nav, page, d))
}

// streamPage is renderPage for a tool's page, which may carry a report
// and its downloads (tens of MB): it is written as it renders, not held
// whole first (httpx.Stream).
func streamPage[D any](c echo.Context, status int, title, nav string, page func(views.Chrome, D) templ.Component, d D) error {
	return httpx.Stream(c, status, chromed(c, title, nav, page, d))
}

func chromed[D any](c echo.Context, title, nav string, page func(views.Chrome, D) templ.Component, d D) templ.Component {
	ch := Chrome(c, title)
	ch.Nav = nav
	return page(ch, d)
}

// audit records an event of the current request. A failure to record is
// logged, and fails the action only where the caller decides so.
func (p *Pages) audit(c echo.Context, e *models.AuditEvent) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request().Context()), 5*time.Second)
	defer cancel()
	if err := models.RecordAudit(ctx, p.DB.DB, ofRequest(c, e)); err != nil {
		p.Log.Error("audit", "action", e.Action, "request_id", e.RequestID, "error", err)
		return err
	}
	return nil
}

// ofRequest stamps an audit event with the request's client address and
// id, as every event of a browser request carries them.
func ofRequest(c echo.Context, e *models.AuditEvent) *models.AuditEvent {
	e.IP, e.RequestID = c.RealIP(), httpx.RequestID(c)
	return e
}

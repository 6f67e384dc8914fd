// Package web holds the browser pages: the landing page, the console, the
// tool pages and the gateway playground. Handlers render templ components
// from views and swap fragments for htmx.
package web

import (
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"parapet/app/httpx"
	"parapet/views"
)

// Pages serves the browser routes.
type Pages struct {
	log *slog.Logger
}

// New makes the page handlers.
func New(log *slog.Logger) *Pages {
	return &Pages{log: log}
}

// Home is the landing page.
func (p *Pages) Home(c echo.Context) error {
	ch := httpx.Chrome(c, "")
	ch.Nav = "home"
	return httpx.Render(c, http.StatusOK, views.Home(ch))
}

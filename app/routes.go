package app

import (
	"github.com/labstack/echo/v4"

	"parapet/app/api"
	"parapet/app/web"
	"parapet/static"
)

// routes is every route of the product in one place.
func (a *App) routes() {
	e := a.e
	pages := web.New(a.log)
	v1 := api.New()

	e.GET("/static/*", echo.WrapHandler(static.Handler()))
	e.GET("/", pages.Home)

	e.GET("/v1/health", v1.Health)
}

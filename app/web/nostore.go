package web

import "github.com/labstack/echo/v4"

// NoStore marks every page response Cache-Control: no-store, so no
// shared or browser cache keeps one: to a signed-in browser a page shows
// an account, its keys or its data (the page that shows a new key among
// them); to a visitor it carries a CSRF token made from the visitor's own
// cookie (a cached sign-in page would hand every visitor the same seed
// and token), and the invitation page shows the invited address. The
// pages' chains mount it after LoadUser, so this is the one place that
// says it: handlers do not repeat it.
func NoStore(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "no-store")
		return next(c)
	}
}

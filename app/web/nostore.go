package web

import "github.com/labstack/echo/v4"

// NoStoreSignedIn marks every response to a signed-in browser
// Cache-Control: no-store, so no shared or browser cache keeps a page
// that shows an account, its keys or its data (the page that shows a new
// key among them). Mount it after LoadUser. Every page of the console and
// the tools is signed in, so this is the one place that says it: handlers
// do not repeat it.
func NoStoreSignedIn(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if CurrentOf(c).User != nil {
			c.Response().Header().Set("Cache-Control", "no-store")
		}
		return next(c)
	}
}

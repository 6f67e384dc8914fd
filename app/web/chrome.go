package web

import (
	"github.com/labstack/echo/v4"

	"parapet/views"
)

const chromeKey = "chrome"

// setChrome records what the layout shows for this request (who is signed
// in, the current organization, the CSRF token).
func setChrome(c echo.Context, ch views.Chrome) { c.Set(chromeKey, ch) }

// Chrome returns the layout data for this request with the given title.
func Chrome(c echo.Context, title string) views.Chrome {
	ch, _ := c.Get(chromeKey).(views.Chrome)
	ch.Title = title
	return ch
}

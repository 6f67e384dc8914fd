package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"parapet/models"
	"parapet/views"
)

// ConsoleHome is the console's overview of the current organization.
func (p *Pages) ConsoleHome(c echo.Context) error {
	cur := CurrentOf(c)
	ctx := c.Request().Context()
	var d views.ConsoleHomeData
	var err error
	if d.Orgs, err = models.OrgsOfUser(ctx, p.DB.DB, cur.User.ID); err != nil {
		return err
	}
	if cur.Org != nil {
		keys, err := models.APIKeysOfOrg(ctx, p.DB.DB, cur.Org.ID)
		if err != nil {
			return err
		}
		for _, k := range keys {
			if k.Usable(models.Now()) {
				d.ActiveKeys++
			} else {
				d.Revoked++
			}
		}
		if d.Recent, err = models.AuditPage(ctx, p.DB.DB, cur.Org.ID, "", 5, 0); err != nil {
			return err
		}
		d.Leaked = leakedFor(c, keys)
	}
	return renderPage(c, http.StatusOK, "Console", "console", views.ConsoleHome, d)
}

package web

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/models"
	"parapet/views"
)

// usageDays is how many days, today included, the usage page lists.
const usageDays = 30

// UsagePage shows the current organization's gateway usage: this month's
// token quota and entitlement, its money budget and spend, and requests,
// tokens and cost per key or playground user per day for the last 30
// days (UTC).
func (p *Pages) UsagePage(c echo.Context) error {
	now := time.Now().UTC()
	d := views.UsageData{Month: now.Format("January 2006"), Days: usageDays,
		Since: models.Day(now.AddDate(0, 0, -(usageDays - 1)))}
	if org := CurrentOf(c).Org; org != nil {
		ctx := c.Request().Context()
		var err error
		if d.Allowance, err = models.AllowanceOf(ctx, p.DB.DB, org.ID, models.GatewayProductID, models.Period(now)); err != nil {
			return err
		}
		if d.Rows, err = models.UsageByDay(ctx, p.DB.DB, org.ID, models.GatewayProductID, d.Since); err != nil {
			return err
		}
		budgets, err := models.BudgetsOf(ctx, p.DB.DB, org.ID, "", models.Period(now))
		if err != nil {
			return err
		}
		if len(budgets) > 0 {
			d.Budget = &budgets[0]
		}
	}
	return renderPage(c, http.StatusOK, "Gateway usage", "console", views.Usage, d)
}

package web

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"parapet/app/httpx"
	"parapet/models"
	"parapet/views"
)

const auditPageSize = 50

// AuditPage lists the current organization's audit events, newest first,
// 50 a page, optionally only gateway calls.
func (p *Pages) AuditPage(c echo.Context) error {
	cur := CurrentOf(c)
	d := views.AuditData{Page: 1, Pages: 1}
	if a := c.QueryParam("action"); a == models.ActionGatewayCall {
		d.Action = a
	}
	if n, err := strconv.Atoi(c.QueryParam("page")); err == nil && n > 1 {
		d.Page = n
	}
	if cur.Org != nil {
		var err error
		d.Events, d.Total, err = models.AuditPage(c.Request().Context(), p.DB.DB, cur.Org.ID, d.Action, auditPageSize, (d.Page-1)*auditPageSize)
		if err != nil {
			return err
		}
		d.Pages = max(1, int((d.Total+auditPageSize-1)/auditPageSize))
	}
	ch := httpx.Chrome(c, "Audit log")
	ch.Nav = "console"
	return httpx.Render(c, http.StatusOK, views.Audit(ch, d))
}

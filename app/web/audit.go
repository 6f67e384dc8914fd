package web

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"parapet/models"
	"parapet/views"
)

const auditPageSize = 50

// AuditPage lists the current organization's audit events, newest first,
// 50 a page, optionally only gateway calls. The total is counted up to
// models.AuditCountCap and the pages go as far as that, so no request
// makes the database skip millions of rows.
func (p *Pages) AuditPage(c echo.Context) error {
	d := views.AuditData{Page: 1, Pages: 1}
	if a := c.QueryParam("action"); a == models.ActionGatewayCall {
		d.Action = a
	}
	if n, err := strconv.Atoi(c.QueryParam("page")); err == nil && n > 1 {
		d.Page = n
	}
	if org := CurrentOf(c).Org; org != nil {
		ctx := c.Request().Context()
		var err error
		if d.Total, d.More, err = models.CountAudit(ctx, p.DB.DB, org.ID, d.Action); err != nil {
			return err
		}
		d.Pages = max(1, int((d.Total+auditPageSize-1)/auditPageSize))
		d.Page = min(d.Page, d.Pages)
		if d.Events, err = models.AuditPage(ctx, p.DB.DB, org.ID, d.Action, auditPageSize, (d.Page-1)*auditPageSize); err != nil {
			return err
		}
	}
	return renderPage(c, http.StatusOK, "Audit log", "console", views.Audit, d)
}

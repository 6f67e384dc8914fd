package app

import (
	"github.com/labstack/echo/v4"

	"parapet/app/api"
	"parapet/app/meter"
	"parapet/app/web"
)

// gatewayCalls goes on the routes of gateway calls (routes.go), outside
// the key check and rate limit: a call those refuse before the gateway
// service ran is handed to the service, so every call has its record (or,
// for an anonymous refusal, its metric and a sampled record).
func (a *App) gatewayCalls(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		err := next(c)
		if err == nil || meter.Served(c) {
			return err
		}
		var who meter.Caller
		if p := api.Principal(c); p != nil {
			who = meter.Caller{OrgID: p.OrgID, KeyID: p.KeyID}
		} else if cur := web.CurrentOf(c); cur.User != nil {
			who.UserID = cur.User.ID
			if cur.Org != nil {
				who.OrgID = cur.Org.ID
			}
		}
		a.gateway.Refused(c, who, a.toAPIError(err, c)) // as the client is answered
		return err
	}
}

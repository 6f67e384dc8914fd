package app

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/api"
	"parapet/app/httpx"
	"parapet/app/meter"
	"parapet/app/web"
)

// isGatewayCall tells the requests that are gateway calls: the two API
// endpoints and the playground's.
func isGatewayCall(r *http.Request) bool {
	if r.Method != http.MethodPost {
		return false
	}
	switch r.URL.Path {
	case "/gateway/v1/chat", "/gateway/v1/messages", "/gateway/app/chat":
		return true
	}
	return false
}

// auditGatewayCalls makes exactly one audit record for every gateway call,
// whatever its outcome: refused by the key check or the rate limiter,
// invalid, not entitled, over quota, failed upstream, cut off by the
// client, or answered. The record only goes into the recorder's queue, so
// the response is not held up; the recorder writes it behind the response
// even when the client has gone. (No early flush: it would force chunked
// encoding and an extra write for every JSON answer.)
func (a *App) auditGatewayCalls(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !isGatewayCall(c.Request()) {
			return next(c)
		}
		start := time.Now()
		err := next(c)
		o := meter.Outcome{Status: c.Response().Status, IP: c.RealIP(), RequestID: httpx.RequestID(c)}
		if err != nil {
			e := a.toAPIError(err, c)
			o.Status, o.Code = e.Status, e.Code
			c.Error(e)
		}
		o.Total = time.Since(start)
		call := meter.Of(c)
		if call.KeyID == "" && call.UserID == "" {
			// Refused before the handler ran: who it was, as far as known.
			if p := api.Principal(c); p != nil {
				call.OrgID, call.KeyID = p.OrgID, p.KeyID
			} else if cur := web.CurrentOf(c); cur.User != nil {
				call.UserID = cur.User.ID
				if cur.Org != nil {
					call.OrgID = cur.Org.ID
				}
			}
		}
		if rerr := a.recorder.Record(call, o, a.cfg.Gateway.LogContent); rerr != nil {
			a.log.Error("gateway audit record lost", "request_id", o.RequestID, "error", rerr)
		}
		return nil
	}
}

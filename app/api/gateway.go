package api

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/gateway"
	"parapet/app/httpx"
	"parapet/app/meter"
)

// Chat answers POST /gateway/v1/chat: our request shape, the Messages
// response shape (a JSON message, or its event stream with "stream":true).
func (a *API) Chat(c echo.Context) error {
	return a.gatewayCall(c, gateway.ParseChatRequest)
}

// Messages answers POST /gateway/v1/messages: an Anthropic Messages API
// request as-is, answered as that API would, so the official SDKs work
// when pointed at the gateway. Its errors take Anthropic's shape (the
// central error handler knows this path).
func (a *API) Messages(c echo.Context) error {
	c.Response().Header().Set("request-id", httpx.RequestID(c)) // the header the SDKs read
	return a.gatewayCall(c, gateway.ParseMessagesRequest)
}

type parser func([]byte, gateway.Defaults) (*gateway.Request, error)

// gatewayCall parses, admits (entitlement, quota) and proxies one call.
// Its audit record is written by the gateway audit middleware from what
// the call leaves in meter.Of(c).
func (a *API) gatewayCall(c echo.Context, parse parser) error {
	if err := httpx.RequireJSON(c); err != nil {
		return err
	}
	body, err := httpx.ReadBody(c, gateway.MaxBodyBytes)
	if err != nil {
		return err
	}
	p := Principal(c)
	call := meter.Of(c)
	call.OrgID, call.KeyID = p.OrgID, p.KeyID
	req, err := parse(body, a.Gateway.Defaults())
	if err != nil {
		return meter.FromError(err)
	}
	call.Req = req
	ctx := c.Request().Context()
	if err := a.Recorder.Admit(ctx, p.OrgID, time.Now()); err != nil {
		return err
	}
	if !req.Stream {
		// The server's write timeout is shorter than a long completion.
		_ = http.NewResponseController(c.Response().Writer).SetWriteDeadline(time.Now().Add(a.GatewayTimeout + 10*time.Second))
		msg, report, err := a.Gateway.Complete(ctx, req)
		call.Report, call.Reply = &report, msg
		if err != nil {
			return meter.FromError(err)
		}
		return c.JSON(http.StatusOK, msg)
	}
	sse := gateway.NewSSEWriter(c.Response())
	msg, report, err := a.Gateway.Stream(ctx, req, sse.Send)
	call.Report, call.Reply = &report, msg
	if err != nil && !sse.Started() {
		return meter.FromError(err)
	}
	return nil // a stream that failed midway already ended with an error event
}

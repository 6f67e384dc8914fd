package app

import (
	"github.com/labstack/echo/v4"

	"parapet/app/api"
	"parapet/app/apierr"
	"parapet/app/httpx"
	"parapet/app/meter"
	"parapet/app/web"
)

// gatewayCallRoutes are the route templates of gateway calls, each served
// by the gateway service, which records every call it runs.
var gatewayCallRoutes = map[string]bool{
	"/gateway/v1/chat":             true,
	"/gateway/v1/messages":         true,
	"/gateway/v1/chat/completions": true,
	"/gateway/app/chat":            true,
}

// gatewayRefusals hands the gateway service the calls refused before it
// ran (by the API guard's key check or rate limit, or the sign-in check),
// so every call has its record (or, for anonymous refusals, its metric and
// a sampled record). It keys on the matched route template, never on the
// raw path; on the gateway's own route group it needs no test at all.
func (a *App) gatewayRefusals(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		err := next(c)
		if err == nil || !gatewayCallRoutes[c.Path()] || meter.Served(c) {
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
		a.gateway.Refused(c, who, err)
		return err
	}
}

// gatewayErrorWriters write errors in the dialect of the gateway's
// compatible routes (by route template): Anthropic's shape on the
// Messages routes and the model list (which both SDKs read), OpenAI's on
// Chat Completions. Both carry our code and request_id too.
var gatewayErrorWriters = map[string]func(echo.Context, *apierr.Error){
	"/gateway/v1/messages":              writeAnthropicError,
	"/gateway/v1/messages/count_tokens": writeAnthropicError,
	"/gateway/v1/models":                writeAnthropicError,
	"/gateway/v1/chat/completions":      writeOpenAIError,
}

func writeAnthropicError(c echo.Context, e *apierr.Error) {
	c.Response().Header().Set("request-id", httpx.RequestID(c))
	_ = c.Blob(e.AnthropicStatus(), echo.MIMEApplicationJSON, e.AnthropicJSON(httpx.RequestID(c)))
}

func writeOpenAIError(c echo.Context, e *apierr.Error) {
	c.Response().Header().Set("x-request-id", httpx.RequestID(c))
	_ = c.Blob(e.Status, echo.MIMEApplicationJSON, e.OpenAIJSON(httpx.RequestID(c)))
}

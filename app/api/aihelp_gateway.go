package api

import (
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/gateway"
	"parapet/app/httpx"
	"parapet/app/meter"
	"parapet/app/toolsai"
	"parapet/models"
)

// The tools' AI help reaches a model only through the gateway service, as
// the organization: admission (entitlement, rate limit, quota
// reservation), the call, and its record (usage, one audit event marked
// with the feature, metrics), like any gateway call. This file is all the
// AI help knows of the gateway.

// AICaller is who asks for AI help: the key's organization (the API) or
// the signed-in user's (the pages, which also check the user's role).
type AICaller func(c echo.Context) (meter.Caller, error)

// KeyCaller is the API's caller: the key and its organization. A key
// whose maker is now a member whose role only reads (a viewer, who kept
// it when lowered) spends no gateway quota, as its maker may not.
func (a *API) KeyCaller(c echo.Context) (meter.Caller, error) {
	who := caller(c)
	role, err := models.KeyMakerRole(c.Request().Context(), a.DB.DB, who.KeyID)
	if err != nil {
		return meter.Caller{}, err
	}
	if role != "" && !models.Can(role, models.PermChat) {
		return meter.Caller{}, apierr.New(http.StatusForbidden, "forbidden", "this key's maker's role ("+role+") only reads: it cannot spend the organization's gateway quota")
	}
	return who, nil
}

// aiCall runs prompt p through the gateway service for feature. reply
// writes a non-streamed answer; with stream set the call is streamed and
// its events go to the sink stream returns.
func (a *API) aiCall(c echo.Context, who meter.Caller, feature string, p toolsai.Prompt,
	reply func(echo.Context, *gateway.Message) error, stream func(*gateway.SSEWriter) meter.Sink) error {
	who.Feature = feature
	// The prompt is built from the body already read: the service reads
	// an empty object in its place (and holds it to the gateway's body
	// limit, which the tool's own body, up to its limit, is not).
	httpx.SetBody(c, []byte("{}"))
	var req *gateway.Request
	d := meter.Dialect{Name: feature, Reply: func(c echo.Context, _ *gateway.Request, msg *gateway.Message) error { return reply(c, msg) },
		Parse: func(_ []byte, def gateway.Defaults) (*gateway.Request, error) {
			model := a.AIModel
			if model == "" {
				model = def.Model
			}
			zero := 0.0 // the same log or finding gets the same answer, as far as the model allows
			req = &gateway.Request{Model: model, MaxTokens: min(p.MaxTokens, def.MaxTokensCap), System: p.System,
				Messages: []gateway.ChatMessage{{Role: "user", Content: p.User}}, Temperature: &zero, Stream: stream != nil}
			return req, nil
		}}
	if stream != nil {
		d.Stream = func(sse *gateway.SSEWriter, _ *gateway.Request) meter.Sink { return stream(sse) }
	}
	err := a.Gateway.Serve(c, who, d)
	if ae := apierr.From(err); err != nil && ae.Code == "quota_exceeded" && req != nil {
		// The gateway's advice (lower max_tokens) is not the tool user's.
		ae.Message = fmt.Sprintf("your organization's monthly gateway quota is used up: this AI help needs up to %d tokens, more than is left. "+
			"Ask about fewer templates or findings, ask an owner to raise the quota, or wait until it renews on the first day of next month (UTC)",
			gateway.InputTokensBound(req)+req.MaxTokens)
		return ae
	}
	return err
}

// analysis runs fn (an analysis or a scan of n bytes of the request's
// body) in the analysis pool, as the tools' own routes run theirs.
func (a *API) analysis(c echo.Context, n int, fn func() error) error {
	if a.Analysis == nil {
		return fn()
	}
	release, err := a.Analysis(c.Request().Context(), int64(n))
	if err != nil {
		return err
	}
	defer release()
	return fn()
}

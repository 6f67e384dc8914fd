package api

import (
	"context"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/httpx"
	"parapet/app/logs"
)

// compareRequest is {"baseline": …, "current": …, "options": {…}}, the
// options those of an analysis. Unknown fields are refused.
type compareRequest struct {
	Baseline *string         `json:"baseline"`
	Current  *string         `json:"current"`
	Options  *analyzeOptions `json:"options"`
}

// CompareLogs answers POST /logs/v1/compare: it mines two logs, a
// baseline and a current period, as one input (so an event has the same
// template on both sides) and returns {"data": comparison}: the templates
// that are new, gone, or changed in rate, ranked errors first (see
// logs.Compare).
//
// The body is JSON only (415 otherwise), read up to the same size as an
// analysis's JSON body. Each side may have 5 MiB and 100,000 lines (413
// payload_too_large naming the side and the limit); a missing side is 400
// invalid_request, as is a side without a line of text. Time:
// logs.Timeout, then 503. Nothing of the input is stored or logged.
func (a *API) CompareLogs(c echo.Context) error {
	if httpx.MediaType(c) != echo.MIMEApplicationJSON {
		return apierr.UnsupportedMediaType("send JSON {\"baseline\": \"…\", \"current\": \"…\"} with Content-Type: application/json")
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	req, err := decodeBody[compareRequest](readLogBody(c, maxLogsJSONBytes))
	if err != nil {
		return err
	}
	switch {
	case req.Baseline == nil:
		return apierr.InvalidRequest("baseline is required: the log of the period to compare with, one entry per line")
	case req.Current == nil:
		return apierr.InvalidRequest("current is required: the log of the period to compare, one entry per line")
	}
	var opts logs.Options
	if err := req.Options.apply(&opts); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), logs.Timeout)
	defer cancel()
	res, err := logs.Compare(ctx, []byte(*req.Baseline), []byte(*req.Current), opts)
	if err != nil {
		return logsError(err)
	}
	return answer(c, res)
}

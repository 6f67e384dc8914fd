package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/httpx"
	"parapet/app/logs"
)

// An analysis still running at logs.Timeout is abandoned with 503
// service_unavailable ("the analysis took too long"): 503 rather than 413
// because the input is within the documented limits, and the same request
// may well succeed on a less busy instance.

// maxLogsJSONBytes bounds a JSON body: the log text may be 10 MiB once
// decoded, and JSON escaping can make it up to twice as long on the wire
// (every newline is \n, every quote \"), plus room for the rest of the
// object. The decoded text is then held to logs.MaxInputBytes by the
// engine.
const maxLogsJSONBytes = 2*logs.MaxInputBytes + 64<<10

// analyzeRequest is the JSON form of a request: {"text": …, "options":
// {"rare_threshold", "join_continuations", "masks", "named_placeholders"}}.
// Unknown fields are refused.
type analyzeRequest struct {
	Text    *string         `json:"text"`
	Options *analyzeOptions `json:"options"`
}

type analyzeOptions struct {
	RareThreshold     *float64    `json:"rare_threshold"`
	JoinContinuations *bool       `json:"join_continuations"`
	Masks             []logs.Mask `json:"masks"`
	NamedPlaceholders bool        `json:"named_placeholders"`
}

// apply checks the options sent (o may be nil: none) and sets them in
// opts; a bad mask is reported by the engine, naming it. The analysis and
// the comparison take the same options.
func (o *analyzeOptions) apply(opts *logs.Options) error {
	if o == nil {
		return nil
	}
	if o.RareThreshold != nil {
		r := *o.RareThreshold
		if !(r > 0 && r <= 1) {
			return apierr.InvalidRequest("options.rare_threshold must be a fraction in (0, 1], not %v; leave it out for the default", r)
		}
		opts.RareThreshold = r
	}
	if o.JoinContinuations != nil {
		opts.SplitContinuations = !*o.JoinContinuations
	}
	opts.Masks = o.Masks
	opts.NamedPlaceholders = o.NamedPlaceholders
	return nil
}

// AnalyzeLogs answers POST /logs/v1/analyze: it analyses a log sample
// with the log analyzer engine, the same one the page uses, and returns
// {"data": result}: the lines matching a fatal, error or reliability
// keyword, the outliers (lines of a rare template) and the templates.
//
// The body is the log itself as text/plain (any charset parameter: the
// bytes are read as UTF-8, invalid sequences shown as U+FFFD), or JSON
// {"text": "…", "options": {"rare_threshold": 0.01, "join_continuations":
// true, "masks": [{"name", "regex"}], "named_placeholders": false}}.
// ?include=assignments adds the template id of every analysed entry, in
// order; ?include=params the values behind each template's placeholders;
// ?include=patterns each template's category, times, timeline counts and
// first entries.
//
// Limits (413 payload_too_large, naming the limit): 10 MiB of log and
// 200,000 lines; a line over 16 KiB is analysed on its first 16 KiB and
// flagged "cut". Time: logs.Timeout. Empty or blank input is 400
// invalid_request "no log lines". Each analysis is stateless: nothing of
// the input is stored or logged.
func (a *API) AnalyzeLogs(c echo.Context) error {
	mt := httpx.MediaType(c)
	if mt != echo.MIMETextPlain && mt != echo.MIMEApplicationJSON {
		return apierr.UnsupportedMediaType("send the log as the body with Content-Type: text/plain, or as JSON {\"text\": \"…\"} with Content-Type: application/json")
	}
	opts, err := includeOptions(c.QueryParams()["include"])
	if err != nil {
		return err
	}
	// The result, and some errors, quote the caller's log lines: keep
	// them out of caches.
	c.Response().Header().Set("Cache-Control", "no-store")
	var input []byte
	if mt == echo.MIMETextPlain {
		if input, err = readLogBody(c, logs.MaxInputBytes); err != nil {
			return err
		}
	} else {
		req, err := decodeBody[analyzeRequest](readLogBody(c, maxLogsJSONBytes))
		if err != nil {
			return err
		}
		if req.Text == nil {
			return apierr.InvalidRequest("text is required: the log to analyse, one entry per line")
		}
		if err := req.Options.apply(&opts); err != nil {
			return err
		}
		input = []byte(*req.Text)
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), logs.Timeout)
	defer cancel()
	res, err := logs.Analyze(ctx, input, opts)
	if err != nil {
		return logsError(err)
	}
	return answer(c, res)
}

// includeOptions reads ?include=, repeated or a comma list: "assignments"
// adds the template id of every entry, "params" the values behind each
// template's placeholders, "patterns" what the patterns view shows of each
// template (logs.PatternInfo); nothing else is known.
func includeOptions(values []string) (logs.Options, error) {
	var opts logs.Options
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			switch strings.TrimSpace(part) {
			case "":
			case "assignments":
				opts.IncludeAssignments = true
			case "params":
				opts.IncludeParams = true
			case "patterns":
				opts.IncludePatterns = true
			default:
				if len(part) > 64 {
					part = part[:64] + "…"
				}
				return opts, apierr.InvalidRequest("unknown include %s: the known ones are assignments, params and patterns", quote(part))
			}
		}
	}
	return opts, nil
}

// readLogBody reads the body up to limit bytes; over it, the 413 names
// the log's limit, which is what the caller can act on.
func readLogBody(c echo.Context, limit int64) ([]byte, error) {
	body, err := httpx.ReadBody(c, limit)
	var ae *apierr.Error
	if err != nil && errors.As(err, &ae) && ae.Status == http.StatusRequestEntityTooLarge {
		msg := (&logs.LimitError{Limit: "input_bytes", Max: logs.MaxInputBytes}).Error()
		if limit != logs.MaxInputBytes {
			msg += fmt.Sprintf("; a JSON body may be at most %d bytes, to allow for its escaping", limit)
		}
		return nil, apierr.PayloadTooLarge(msg)
	}
	return body, err
}

// logsError turns the engine's errors, of an analysis or a comparison,
// into the API's: over a limit (a comparison's naming the side) is 413
// payload_too_large, no lines (a comparison's naming the side) and a bad
// option 400 invalid_request, and an analysis cut off by its deadline (or
// by the client leaving) 503.
func logsError(err error) *apierr.Error {
	if ae := (*apierr.Error)(nil); errors.As(err, &ae) {
		return ae // the analysis pool's 503 busy, as is
	}
	var lim *logs.LimitError
	var side *logs.CompareLimitError
	switch {
	case errors.As(err, &lim):
		return apierr.PayloadTooLarge(lim.Error())
	case errors.As(err, &side):
		return apierr.PayloadTooLarge(side.Error())
	case errors.Is(err, logs.ErrNoLines), errors.Is(err, logs.ErrBadOption):
		return apierr.InvalidRequest("%s", err.Error())
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return &apierr.Error{Status: http.StatusServiceUnavailable, Code: "service_unavailable",
			Message: fmt.Sprintf("analysis took too long: it is stopped after %s; send a smaller sample", logs.Timeout)}
	}
	return apierr.Internal(err)
}

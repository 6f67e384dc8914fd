package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"parapet/app/httpx"
	"parapet/app/logs"
	"parapet/views"
	"parapet/views/paths"
)

// MaxLogsFormBytes bounds the log analyzer form's body: the 10 MiB the
// engine accepts counted twice, because a browser sends every newline of
// a textarea as CRLF, plus room for the multipart framing and the other
// fields. The form is multipart so the log is not percent-encoded on the
// way (which could triple it).
const MaxLogsFormBytes = 2*logs.MaxInputBytes + 64<<10

// LogsPage is the log analyzer (SPEC 1, "Log analyzer"): paste or drop a
// log, or use the sample, and analyze it.
// Its address may carry a patterns view (views.LogsFilter), shared as a
// link: the page shows it, to be applied to the log once analyzed.
func (p *Pages) LogsPage(c echo.Context) error {
	return p.renderLogs(c, http.StatusOK, views.LogsData{Filter: views.ParseLogsFilter(c.QueryParam)})
}

// LogsRun analyses the posted log (form field "log") with the engine the
// JSON API uses. htmx swaps in the report fragment; without JavaScript the
// whole page comes back with the report under the form. Input problems
// (no lines, over a limit, too slow) are a report too: htmx gets them
// with 200, the full page with 422, 413 or 503.
//
// Long results are paged without any state on the server: a page button
// posts the form again, the log included, with a "view" field naming the
// page (views.LogsView), and the log is analysed again. With htmx only
// the paged list's section is swapped; when the log in the textarea is no
// longer the one analysed, the whole result is. The patterns view's
// filter (views.LogsFilter) travels the same way, as form fields, and
// htmx puts it in the page's address. Nothing of the input is stored or
// logged.
func (p *Pages) LogsRun(c echo.Context) error {
	input, report, err := readLogsInput(c)
	if err != nil {
		return err
	}
	view := views.ParseLogsView(c.Request().FormValue("view"))
	filter := views.ParseLogsFilter(c.Request().FormValue)
	status := http.StatusRequestEntityTooLarge
	if report == nil {
		report, status, err = runLogs(c.Request().Context(), input, view)
		if err != nil {
			return err
		}
	}
	report.Filter = filter
	if httpx.IsHTMX(c) {
		if view.Target == "matches" || view.Target == "outliers" {
			if report.Result != nil && view.Digest == report.View.Digest {
				if view.Target == "outliers" {
					return httpx.Stream(c, http.StatusOK, views.LogsOutliers(*report))
				}
				return httpx.Stream(c, http.StatusOK, views.LogsMatches(*report))
			}
			// Another log than the one shown, or a problem: replace the
			// whole result rather than one list of it.
			c.Response().Header().Set("HX-Retarget", "#logs-result")
			c.Response().Header().Set("HX-Reswap", "innerHTML show:#logs-result:top")
		}
		if err := addJSON(report); err != nil {
			return err
		}
		// The address keeps the view (never the log), to be shared.
		c.Response().Header().Set("HX-Push-Url", filter.URL())
		return httpx.Stream(c, http.StatusOK, views.LogsResult(*report))
	}
	if err := addJSON(report); err != nil {
		return err
	}
	d := views.LogsData{Report: report}
	if report.Limit == "" {
		d.Input = string(input) // shown again so the user can page or edit it
	}
	return p.renderLogs(c, status, d)
}

func (p *Pages) renderLogs(c echo.Context, status int, d views.LogsData) error {
	d.AI = p.aiHelp(c, paths.LogAnalyzer+"/explain")
	return streamPage(c, status, "Log Analyzer", "logs", views.Logs, d)
}

// readLogsInput reads the form's log. Over the size limit it returns a
// report saying so instead of the input.
func readLogsInput(c echo.Context) ([]byte, *views.LogsReport, error) {
	tooLarge := &views.LogsReport{Limit: fmt.Sprintf(
		"The log is larger than the analyzer's limit of %s. Analyze a shorter excerpt, or split the log and analyze the parts one by one.",
		httpx.FormatBytes(logs.MaxInputBytes))}
	input, over, err := httpx.FormField(c, "log", MaxLogsFormBytes)
	if err != nil {
		return nil, nil, err
	}
	if over {
		return nil, tooLarge, nil
	}
	input = lf(input, logs.MaxInputBytes)
	if len(input) > logs.MaxInputBytes {
		tooLarge.Limit = fmt.Sprintf("The log is %s, over the analyzer's limit of %s. Analyze a shorter excerpt, or split the log and analyze the parts one by one.",
			sizeText(len(input)), httpx.FormatBytes(logs.MaxInputBytes))
		return nil, tooLarge, nil
	}
	return input, nil, nil
}

// runLogs analyses input and makes the report for view, with the status
// a full page answers with. Errors other than the input's are returned.
func runLogs(ctx context.Context, input []byte, view views.LogsView) (*views.LogsReport, int, error) {
	ctx, cancel := context.WithTimeout(ctx, logs.Timeout)
	defer cancel()
	res, err := logs.Analyze(ctx, input, logs.Options{IncludeParams: true, IncludePatterns: true})
	if err != nil {
		var lim *logs.LimitError
		switch {
		case errors.As(err, &lim):
			return &views.LogsReport{Limit: limitText(lim, input)}, http.StatusRequestEntityTooLarge, nil
		case errors.Is(err, logs.ErrNoLines):
			return &views.LogsReport{Empty: true}, http.StatusUnprocessableEntity, nil
		case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
			return &views.LogsReport{Slow: fmt.Sprintf(
				"The analysis was stopped after %s, its time limit. Analyze a shorter excerpt of the log.",
				logs.Timeout)}, http.StatusServiceUnavailable, nil
		}
		return nil, 0, err
	}
	sum := sha256.Sum256(input)
	if digest := hex.EncodeToString(sum[:12]); digest != view.Digest {
		// A time slice of another log means nothing for this one.
		view.Digest, view.Bucket = digest, 0
	}
	return &views.LogsReport{Result: res, View: view}, http.StatusOK, nil
}

// addJSON adds the JSON download to a report about to be shown whole (a
// page of one list does not carry it): the API's body, byte for byte
// (app/api/logs.go).
func addJSON(rep *views.LogsReport) error {
	if rep.Result == nil {
		return nil
	}
	body, err := httpx.Envelope(rep.Result) // the API's body, byte for byte
	rep.JSON = body
	return err
}

// limitText says which limit the input is over, and by how much.
func limitText(lim *logs.LimitError, input []byte) string {
	switch lim.Limit {
	case "lines":
		return fmt.Sprintf("The log has %s lines, over the analyzer's limit of %s lines. Analyze a shorter excerpt, or split the log and analyze the parts one by one.",
			views.Thousands(lineCount(input)), views.Thousands(lim.Max))
	case "input_bytes":
		return fmt.Sprintf("The log is %s, over the analyzer's limit of %s. Analyze a shorter excerpt, or split the log and analyze the parts one by one.",
			sizeText(len(input)), httpx.FormatBytes(int64(lim.Max)))
	}
	return upperFirst(lim.Error()) + "."
}

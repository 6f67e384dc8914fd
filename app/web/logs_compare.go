package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"parapet/app/httpx"
	"parapet/app/logs"
	"parapet/views"
)

// LogsComparePage is the log analyzer's Compare mode: a baseline log and
// a current one.
func (p *Pages) LogsComparePage(c echo.Context) error {
	return p.renderCompare(c, http.StatusOK, views.LogsCompareData{})
}

// LogsCompareRun compares the posted logs (form fields "baseline" and
// "current") with the engine the JSON API uses. htmx swaps in the report;
// without JavaScript the whole page comes back with it under the form.
// An input problem is a report too: htmx gets it with 200, the full page
// with 413, 422 or 503. The lists are not paged: each table shows the
// first views.compareShown templates, the JSON download all of them.
// Nothing of the input is stored or logged.
func (p *Pages) LogsCompareRun(c echo.Context) error {
	baseline, over, err := httpx.FormField(c, "baseline", MaxLogsFormBytes)
	if err != nil {
		return err
	}
	var report *views.LogsCompareReport
	status := http.StatusRequestEntityTooLarge
	if over {
		report = &views.LogsCompareReport{Title: "The input is over a limit", Problem: fmt.Sprintf(
			"The two logs are larger than the comparison's limit of %s each. Compare shorter excerpts.",
			httpx.FormatBytes(logs.MaxCompareSideBytes))}
	} else {
		current := []byte(c.Request().FormValue("current"))
		report, status, err = runCompare(c.Request().Context(), lf(baseline, logs.MaxCompareSideBytes), lf(current, logs.MaxCompareSideBytes))
		if err != nil {
			return err
		}
	}
	if httpx.IsHTMX(c) {
		return httpx.Stream(c, http.StatusOK, views.LogsCompareResult(*report))
	}
	d := views.LogsCompareData{Report: report}
	if !over {
		d.Baseline, d.Current = c.Request().FormValue("baseline"), c.Request().FormValue("current")
	}
	return p.renderCompare(c, status, d)
}

func (p *Pages) renderCompare(c echo.Context, status int, d views.LogsCompareData) error {
	return streamPage(c, status, "Compare logs", "logs", views.LogsCompare, d)
}

// lf undoes the CRLF a browser sends for every newline of a textarea
// when that is what puts a log over its limit: the limit is on the log
// as the user has it, and the engine reads CRLF as LF anyway.
func lf(log []byte, limit int) []byte {
	if len(log) <= limit {
		return log
	}
	return bytes.ReplaceAll(log, []byte("\r\n"), []byte("\n"))
}

// runCompare compares the logs and makes the report, with the status a
// full page answers with. Errors other than the input's are returned.
func runCompare(ctx context.Context, baseline, current []byte) (*views.LogsCompareReport, int, error) {
	ctx, cancel := context.WithTimeout(ctx, logs.Timeout)
	defer cancel()
	res, err := logs.Compare(ctx, baseline, current, logs.Options{})
	if err != nil {
		var lim *logs.CompareLimitError
		switch {
		case errors.As(err, &lim):
			return &views.LogsCompareReport{Title: "The input is over a limit", Problem: compareLimitText(lim, baseline, current)},
				http.StatusRequestEntityTooLarge, nil
		case errors.Is(err, logs.ErrNoLines):
			return &views.LogsCompareReport{Title: "No log lines", Problem: upperFirst(err.Error()) +
				": paste a log with at least one line of text on both sides, then compare."}, http.StatusUnprocessableEntity, nil
		case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
			return &views.LogsCompareReport{Title: "The comparison took too long", Problem: fmt.Sprintf(
					"The comparison was stopped after %s, its time limit. Compare shorter excerpts of the logs.", logs.Timeout)},
				http.StatusServiceUnavailable, nil
		}
		return nil, 0, err
	}
	body, err := httpx.Envelope(res) // the API's body, byte for byte
	if err != nil {
		return nil, 0, err
	}
	return &views.LogsCompareReport{Result: res, JSON: body}, http.StatusOK, nil
}

// compareLimitText says which side is over which limit, and by how much.
func compareLimitText(lim *logs.CompareLimitError, baseline, current []byte) string {
	side := baseline
	if lim.Side == "current" {
		side = current
	}
	if lim.Limit == "lines" {
		return fmt.Sprintf("The %s log has %s lines, over the comparison's limit of %s lines a side. Compare shorter excerpts.",
			lim.Side, views.Thousands(lineCount(side)), views.Thousands(lim.Max))
	}
	return fmt.Sprintf("The %s log is %s, over the comparison's limit of %s a side. Compare shorter excerpts.",
		lim.Side, sizeText(len(side)), httpx.FormatBytes(int64(lim.Max)))
}

// lineCount counts lines as the engine does: a last line without its
// newline counts too.
func lineCount(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}

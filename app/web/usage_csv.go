package web

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/models"
	"parapet/views"
	"parapet/views/paths"
)

// csvFlushRows is how many rows the export writes between flushes: the
// month is streamed as it is read, never held whole.
const csvFlushRows = 256

// callsCSVHeader names the export's columns.
var callsCSVHeader = []string{"time", "key_id", "key", "user", "model", "provider", "status", "error_code", "stream",
	"input_tokens", "cache_write_tokens", "cache_read_tokens", "output_tokens", "cost_usd", "price_version",
	"upstream_ms", "total_ms", "attempts", "request_id"}

// UsageCSV streams every gateway call of the organization in a month
// (?month=YYYY-MM, UTC; default this one) as CSV, newest first.
func (p *Pages) UsageCSV(c echo.Context) error {
	org := CurrentOf(c).Org
	if org == nil {
		return c.Redirect(http.StatusSeeOther, paths.Orgs)
	}
	now := models.Now()
	period := c.QueryParam("month")
	if period == "" {
		period = models.Period(now)
	}
	from, to, err := models.MonthOf(period)
	if err != nil || from.After(now) {
		return echo.NewHTTPError(http.StatusBadRequest, "month must be a month up to this one, as YYYY-MM")
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "text/csv; charset=utf-8")
	h.Set(echo.HeaderContentDisposition, `attachment; filename="parapet-gateway-`+period+`.csv"`)
	c.Response().WriteHeader(http.StatusOK)
	w := views.NewCSVWriter(c.Response())
	if err := w.Write(callsCSVHeader); err != nil {
		return nil // the client left
	}
	n := 0
	err = models.EachCall(c.Request().Context(), p.DB.DB, org.ID, from, to, models.CallFilter{}, func(r *models.CallRow) error {
		if err := w.Write(callCSVRow(r)); err != nil {
			return err
		}
		if n++; n%csvFlushRows == 0 {
			w.Flush()
			c.Response().Flush()
		}
		return w.Error()
	})
	w.Flush()
	if err != nil {
		// The status is sent: a broken export ends short, and is logged.
		p.Log.Warn("usage csv", "org", org.ID, "rows", n, "error", err)
	}
	return nil
}

func callCSVRow(r *models.CallRow) []string {
	cost := ""
	if r.CostMicros != nil {
		cost = strconv.FormatFloat(float64(*r.CostMicros)/1e6, 'f', 6, 64)
	}
	stream := ""
	if r.Stream != nil {
		stream = strconv.FormatBool(*r.Stream)
	}
	return []string{r.CreatedAt.UTC().Format(time.RFC3339Nano), views.CSVCell(deref(r.ActorKeyID)), views.CSVCell(deref(r.ActorKeyName)),
		views.CSVCell(deref(r.ActorEmail)), views.CSVCell(deref(r.Model)), views.CSVCell(deref(r.Provider)), num(r.Status), views.CSVCell(deref(r.ErrorCode)), stream,
		num(r.InputTokens), num(r.CacheWriteTokens), num(r.CacheReadTokens), num(r.OutputTokens), cost, views.CSVCell(deref(r.PriceVersion)),
		num(r.UpstreamMs), num(r.TotalMs), views.CSVCell(deref(r.Attempts)), views.CSVCell(r.RequestID)}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func num[T int | int64](n *T) string {
	if n == nil {
		return ""
	}
	return strconv.FormatInt(int64(*n), 10)
}

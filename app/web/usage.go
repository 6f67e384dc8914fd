package web

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/models"
	"parapet/views"
)

// Request log paging: callsPerPage calls a page, at most maxCallsPage
// pages (the CSV export holds the whole month).
const (
	callsPerPage = 50
	maxCallsPage = 200
)

// UsagePage shows the current organization's gateway usage: this month's
// token quota, entitlement and money budget, and for a chosen month
// (?month=YYYY-MM, UTC; default this one) spend and tokens per day, per
// model, provider and key, each target's error rate and latency, and the
// request log (?key=, ?model=, ?status=, ?page=).
func (p *Pages) UsagePage(c echo.Context) error {
	notice := ""
	switch c.QueryParam("saved") {
	case "budget":
		notice = "The budget is saved; calls keep to it within a second."
	case "models":
		notice = "The model list is saved; calls keep to it within a second."
	}
	return p.renderUsage(c, http.StatusOK, notice, "")
}

// renderUsage answers with the usage page, with a notice or an error
// (from a settings form) above the settings.
func (p *Pages) renderUsage(c echo.Context, status int, notice, problem string) error {
	now := models.Now()
	d := views.UsageData{Month: now.Format("January 2006"), Notice: notice, Problem: problem}
	org := CurrentOf(c).Org
	if org == nil {
		return renderPage(c, status, "Gateway usage", "console", views.Usage, d)
	}
	q := c.QueryParams()
	d.Period = models.Period(now)
	if m := q.Get("month"); m != "" {
		d.Period = m
	}
	from, to, err := models.MonthOf(d.Period)
	if err != nil || from.After(now) {
		return echo.NewHTTPError(http.StatusBadRequest, "month must be a month up to this one, as YYYY-MM")
	}
	d.MonthName = from.Format("January 2006")
	d.Prev = models.Period(from.AddDate(0, -1, 0))
	if to.Before(now) {
		d.Next = models.Period(to)
	}
	d.Filter = views.CallQuery{Key: q.Get("key"), Model: q.Get("model"), Status: q.Get("status"), Page: 1}
	filter := models.CallFilter{Key: d.Filter.Key, Model: d.Filter.Model}
	switch s := d.Filter.Status; {
	case s == "":
	case s == "error":
		filter.ErrorsOnly = true
	default:
		code, err := strconv.Atoi(s)
		if err != nil || code < 100 || code > 599 {
			return echo.NewHTTPError(http.StatusBadRequest, "status must be error or an HTTP status code")
		}
		filter.Code = code
	}
	if pg := q.Get("page"); pg != "" {
		n, err := strconv.Atoi(pg)
		if err != nil || n < 1 || n > maxCallsPage {
			return echo.NewHTTPError(http.StatusBadRequest, "page must be a number from 1 to "+strconv.Itoa(maxCallsPage))
		}
		d.Filter.Page = n
	}
	ctx, db := c.Request().Context(), p.DB.DB
	if d.Allowance, err = models.AllowanceOf(ctx, db, org.ID, models.GatewayProductID, models.Period(now)); err != nil {
		return err
	}
	if d.Rows, err = models.UsageByDay(ctx, db, org.ID, models.GatewayProductID, models.Day(from), models.Day(to)); err != nil {
		return err
	}
	days, err := models.SpendByDay(ctx, db, org.ID, from, to)
	if err != nil {
		return err
	}
	until := to // the chart of this month ends today
	if tomorrow := now.Truncate(24*time.Hour).AddDate(0, 0, 1); tomorrow.Before(to) {
		until = tomorrow
	}
	d.Daily = everyDay(days, from, until)
	if d.ByActor, err = models.SpendByActor(ctx, db, org.ID, from, to); err != nil {
		return err
	}
	if d.ByModel, err = models.SpendBy(ctx, db, org.ID, "model", from, to); err != nil {
		return err
	}
	if d.ByProvider, err = models.SpendBy(ctx, db, org.ID, "provider", from, to); err != nil {
		return err
	}
	if d.Targets, d.TargetsCapped, err = models.TargetStatsOf(ctx, db, org.ID, from, to); err != nil {
		return err
	}
	calls, err := models.CallsPage(ctx, db, org.ID, from, to, filter, callsPerPage+1, (d.Filter.Page-1)*callsPerPage)
	if err != nil {
		return err
	}
	if len(calls) > callsPerPage {
		calls, d.More = calls[:callsPerPage], d.Filter.Page < maxCallsPage
	}
	d.Calls = calls
	if err := p.gatewaySettings(c, &d); err != nil {
		return err
	}
	return renderPage(c, status, "Gateway usage", "console", views.Usage, d)
}

// everyDay lists each day from from until to (exclusive) with its spend,
// zero for a day without calls, so the chart has one bar a day.
func everyDay(spent []models.SpendTotal, from, to time.Time) []models.SpendTotal {
	byDay := map[string]models.SpendTotal{}
	for _, s := range spent {
		byDay[s.Name] = s
	}
	var out []models.SpendTotal
	for t := from; t.Before(to); t = t.AddDate(0, 0, 1) {
		s := byDay[models.Day(t)]
		s.Name = models.Day(t)
		out = append(out, s)
	}
	return out
}

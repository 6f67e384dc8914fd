package app

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/httpx"
	"parapet/models"
	"parapet/views"
)

// handleError is the one place errors become responses: the spec's JSON
// shape on API routes, the friendly page on browser routes.
func (a *App) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	e := a.toAPIError(err, c)
	if e.Status >= 500 {
		a.log.Error("request failed", "request_id", httpx.RequestID(c), "status", e.Status, "code", e.Code, "error", e.Error())
	}
	h := c.Response().Header()
	if e.RetryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(e.Status)
		return
	}
	if write := gatewayErrorWriters[c.Path()]; write != nil {
		// The gateway's compatible endpoints answer in their dialect, so
		// the official SDKs raise their usual exceptions.
		write(c, e)
		return
	}
	if httpx.AnswersJSON(c.Request().URL.Path) {
		_ = c.JSON(e.Status, e.SpecBody(httpx.RequestID(c)))
		return
	}
	if httpx.IsHTMX(c) && e.Status < 500 {
		// An htmx request shows the message where its result would go.
		_ = httpx.Render(c, e.Status, views.InlineError(e.Message))
		return
	}
	title, msg := pageText(e)
	if err := httpx.Render(c, e.Status, views.ErrorPage(httpx.Chrome(c, title), e.Status, title, msg, httpx.RequestID(c))); err != nil {
		a.log.Error("render error page", "request_id", httpx.RequestID(c), "error", err)
	}
}

// toAPIError maps any error a handler or Echo returns to an *apierr.Error.
func (a *App) toAPIError(err error, c echo.Context) *apierr.Error {
	var ae *apierr.Error
	if errors.As(err, &ae) {
		return ae
	}
	if errors.Is(err, models.ErrNotFound) {
		return apierr.NotFound("not found")
	}
	var maxBytes *http.MaxBytesError
	if errors.As(err, &maxBytes) {
		return apierr.PayloadTooLarge(fmt.Sprintf("the request body is larger than the limit of %s", httpx.FormatBytes(maxBytes.Limit)))
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		method, path := c.Request().Method, c.Request().URL.Path
		switch he.Code {
		case http.StatusNotFound:
			return apierr.NotFound(fmt.Sprintf("no such endpoint: %s %s", method, path))
		case http.StatusMethodNotAllowed:
			return apierr.New(he.Code, "method_not_allowed", fmt.Sprintf("method %s is not allowed on %s", method, path))
		case http.StatusRequestEntityTooLarge:
			return apierr.PayloadTooLarge("the request body is too large")
		case http.StatusUnsupportedMediaType:
			return apierr.UnsupportedMediaType("unsupported content type")
		case http.StatusBadRequest:
			return apierr.InvalidRequest("%v", he.Message)
		case http.StatusForbidden:
			return apierr.New(he.Code, "forbidden", fmt.Sprint(he.Message))
		case http.StatusServiceUnavailable:
			return apierr.Unavailable(err)
		}
		if he.Code < 500 {
			return apierr.New(he.Code, strings.ReplaceAll(strings.ToLower(http.StatusText(he.Code)), " ", "_"), fmt.Sprint(he.Message))
		}
		return apierr.Internal(err)
	}
	if models.IsUnavailable(err) {
		return apierr.Unavailable(err)
	}
	return apierr.Internal(err)
}

func pageText(e *apierr.Error) (string, string) {
	switch {
	case e.Status == http.StatusNotFound:
		return "Page not found", "There is nothing at this address. Check the link, or start again from the start page."
	case e.Status == http.StatusForbidden:
		return "Not allowed", e.Message
	case e.Status == http.StatusMethodNotAllowed:
		return "Not allowed", "This page does not accept that kind of request."
	case e.Status == http.StatusServiceUnavailable:
		return "Temporarily unavailable", "We cannot serve this page right now. Please try again in a moment."
	case e.Status >= 500:
		return "Something went wrong", "An error on our side stopped this page. It has been logged; please try again."
	default:
		return http.StatusText(e.Status), e.Message
	}
}

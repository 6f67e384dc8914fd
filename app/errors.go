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
	"parapet/app/web"
	"parapet/models"
	"parapet/views"
)

// handleError is the one place errors become responses, each written the
// way the request's area writes its errors (see routes.go): the spec's JSON
// shape, Anthropic's for the Messages endpoint, or the friendly page.
func (a *App) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	e := a.toAPIError(err, c)
	if e.Status >= 500 {
		a.log.Error("request failed", "request_id", httpx.RequestID(c), "status", e.Status, "code", e.Code, "error", e.Error())
	}
	if e.RetryAfter > 0 {
		c.Response().Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(e.Status)
		return
	}
	if err := areaOf(c).errors(c, e); err != nil {
		a.log.Error("write error response", "request_id", httpx.RequestID(c), "error", err)
	}
}

// errorWriter writes an error response in an area's kind.
type errorWriter func(c echo.Context, e *apierr.Error) error

// writeJSONError writes the spec's error shape.
func writeJSONError(c echo.Context, e *apierr.Error) error {
	return c.JSON(e.Status, e.SpecBody(httpx.RequestID(c)))
}

// writeAnthropicError answers as the Anthropic API does, so the official
// SDKs raise their usual exceptions on the Messages-compatible endpoints;
// the body also carries our code and request_id.
func writeAnthropicError(c echo.Context, e *apierr.Error) error {
	return c.Blob(e.AnthropicStatus(), echo.MIMEApplicationJSON, e.AnthropicJSON(httpx.RequestID(c)))
}

// writeOpenAIError answers as the OpenAI API does on the Chat
// Completions-compatible endpoint, with our code and request_id too.
func writeOpenAIError(c echo.Context, e *apierr.Error) error {
	return c.Blob(e.Status, echo.MIMEApplicationJSON, e.OpenAIJSON(httpx.RequestID(c)))
}

// writePageError shows the message where an htmx request's result would
// go, or else the error page in the site's layout.
func writePageError(c echo.Context, e *apierr.Error) error {
	if httpx.IsHTMX(c) && e.Status < 500 {
		return httpx.Render(c, e.Status, views.InlineError(e.Message))
	}
	title, msg := pageText(e)
	return httpx.Render(c, e.Status, views.ErrorPage(web.Chrome(c, title), e.Status, title, msg, httpx.RequestID(c)))
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
			return methodNotAllowed(method, path)
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

func methodNotAllowed(method, path string) *apierr.Error {
	return apierr.New(http.StatusMethodNotAllowed, "method_not_allowed", fmt.Sprintf("method %s is not allowed on %s", method, path))
}

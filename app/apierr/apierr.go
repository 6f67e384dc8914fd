// Package apierr is the one error type JSON endpoints return. The central
// error handler turns it into the spec's shape:
//
//	{"error":{"code":"…","message":"…","request_id":"…"}}
//
// Handlers never write an error body themselves; they return an *Error.
package apierr

import (
	"errors"
	"fmt"
	"net/http"
)

// Error is an API error with its HTTP status and machine-readable code.
type Error struct {
	Status  int
	Code    string
	Message string
	// Details lists every problem when there are several (e.g. validation of
	// a whole document); Message names the first.
	Details []Detail
	// RetryAfter, in seconds, becomes a Retry-After header when positive.
	RetryAfter int
	// Internal is logged, never sent.
	Internal error
}

// Detail is one problem of a request, located by its JSON path.
type Detail struct {
	Path    string `json:"path,omitempty"`
	Message string `json:"message"`
}

func (e *Error) Error() string {
	if e.Internal != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Internal)
	}
	return e.Code + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Internal }

// New makes an error with a status, code and message.
func New(status int, code, message string) *Error {
	return &Error{Status: status, Code: code, Message: message}
}

// The errors every endpoint shares.

func InvalidRequest(format string, args ...any) *Error {
	return New(http.StatusBadRequest, "invalid_request", fmt.Sprintf(format, args...))
}

func NotFound(message string) *Error {
	return New(http.StatusNotFound, "not_found", message)
}

func PayloadTooLarge(message string) *Error {
	return New(http.StatusRequestEntityTooLarge, "payload_too_large", message)
}

// RequestTimeout is the 408 of a body that stopped arriving: the server's
// read deadline passed before its end.
func RequestTimeout() *Error {
	return New(http.StatusRequestTimeout, "request_timeout",
		"the request body did not arrive in time: the server waits at most a minute for a whole request; send it again")
}

func UnsupportedMediaType(message string) *Error {
	return New(http.StatusUnsupportedMediaType, "unsupported_media_type", message)
}

// RateLimited is 429 rate_limited, telling the client to retry after
// retryAfter seconds (the Retry-After header).
func RateLimited(message string, retryAfter int) *Error {
	return &Error{Status: http.StatusTooManyRequests, Code: "rate_limited", Message: message, RetryAfter: retryAfter}
}

func Internal(err error) *Error {
	return &Error{Status: http.StatusInternalServerError, Code: "internal_error",
		Message: "something went wrong on our side; quote the request id if you contact us", Internal: err}
}

func Unavailable(err error) *Error {
	return &Error{Status: http.StatusServiceUnavailable, Code: "service_unavailable",
		Message: "the service is temporarily unavailable; try again shortly", Internal: err, RetryAfter: 5}
}

// From is err as an *Error: itself when it is one (or wraps one), else a
// 500 internal_error that keeps err for the log.
func From(err error) *Error {
	if e, ok := errors.AsType[*Error](err); ok {
		return e
	}
	return Internal(err)
}

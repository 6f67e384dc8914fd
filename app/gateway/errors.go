package gateway

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"parapet/app/apierr"
)

// Error codes the core produces. The handler maps them 1:1 onto the JSON error
// body ({"error":{"code",...}}), or onto the Anthropic error shape with
// AnthropicJSON for the Messages-compatible endpoint.
const (
	CodeInvalidRequest      = "invalid_request"       // 400: the client's request is malformed
	CodeUpstreamError       = "upstream_error"        // 502: upstream refused or answered nonsense
	CodeUpstreamUnavailable = "upstream_unavailable"  // 502: upstream could not be reached
	CodeUpstreamOverloaded  = apierr.Overloaded       // 503: upstream said 429/529/503-overloaded
	CodeUpstreamTimeout     = "upstream_timeout"      // 504: total or stream-idle timeout
	CodeClientClosed        = "client_closed_request" // 499: the caller went away; nothing to answer
)

// StatusClientClosed is nginx's convention for "the client closed the
// connection before the answer": no response reaches anyone, but audit
// records still need a status.
const StatusClientClosed = 499

// Error is every error the core returns: app/apierr's one error type, so
// a handler returns it as is. Its Message is safe to show a client (never
// the upstream key); RetryAfter carries an overloaded upstream's
// Retry-After; Internal the cause, for the operator's log.
type Error = apierr.Error

func invalid(format string, args ...any) *Error {
	return &Error{Status: http.StatusBadRequest, Code: CodeInvalidRequest, Message: fmt.Sprintf(format, args...)}
}

func upstreamError(message string, cause error) *Error {
	return &Error{Status: http.StatusBadGateway, Code: CodeUpstreamError, Message: message, Internal: cause}
}

// errInvalidResponse is what the client learns when the upstream answered
// something we cannot parse; the parse error goes to Internal for the log.
func errInvalidResponse(cause error) *Error {
	return upstreamError("invalid response from upstream", cause)
}

func errUnavailable(cause error) *Error {
	return &Error{Status: http.StatusBadGateway, Code: CodeUpstreamUnavailable,
		Message: "upstream is unreachable", Internal: cause}
}

func errTimeout(message string, cause error) *Error {
	return &Error{Status: http.StatusGatewayTimeout, Code: CodeUpstreamTimeout, Message: message, Internal: cause}
}

func errClientClosed(cause error) *Error {
	return &Error{Status: StatusClientClosed, Code: CodeClientClosed,
		Message: "the client closed the request", Internal: cause}
}

// overloaded reports whether the upstream asked us to back off: the only case
// where the core retries.
func overloaded(e *Error) bool { return e.Code == CodeUpstreamOverloaded }

// ErrorBody is the inner object of an error an upstream sends (Anthropic's
// and OpenAI's share these fields).
type ErrorBody struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// upstreamStatusError maps a non-2xx upstream answer to our error. Every
// upstream failure is a gateway failure (5xx) from the client's point of view:
// the client's key and request passed our checks, and only the upstream can
// say what went wrong, so its message is passed on after scrubbing.
func upstreamStatusError(status int, header http.Header, body []byte, sc *scrubber) *Error {
	body = []byte(sc.scrub(string(body))) // before any truncation can cut the key in two
	upType, upMessage := parseUpstreamError(body)
	cause := fmt.Errorf("upstream answered %d: %s", status, truncate(string(body), 512))
	if status >= 400 && status < 500 && status != http.StatusRequestTimeout && status != http.StatusConflict &&
		status != http.StatusTooManyRequests {
		cause = fmt.Errorf("%w: %w", errRefused, cause)
	}
	switch status {
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		cause = fmt.Errorf("%w: %w", errProviderFailed, cause)
	}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		// The upstream rejected the gateway's own credentials. Its message is
		// about our key (OpenAI even quotes part of it), so it is not relayed.
		return upstreamError(fmt.Sprintf("upstream rejected the gateway's credentials (status %d); the operator must fix the upstream key", status), cause)
	case status == http.StatusTooManyRequests || status == 529 ||
		(status == http.StatusServiceUnavailable && isOverloadMessage(upType, upMessage)):
		msg := "upstream is overloaded; retry later"
		if upMessage != "" {
			msg += ": " + upMessage
		}
		return &Error{Status: http.StatusServiceUnavailable, Code: CodeUpstreamOverloaded, Message: msg,
			RetryAfter: parseRetryAfter(header.Get("Retry-After"), time.Now()), Internal: cause}
	default:
		msg := fmt.Sprintf("upstream answered status %d", status)
		if upMessage != "" {
			msg += ": " + upMessage
		}
		e := upstreamError(msg, cause)
		if status >= 500 {
			// When to come back: its breaker stays open that long.
			e.RetryAfter = parseRetryAfter(header.Get("Retry-After"), time.Now())
		}
		return e
	}
}

// errRefused marks an upstream's 4xx answer (but 408, 409 and 429): the
// same request would be refused again.
var errRefused = errors.New("the upstream refused the request")

// Final reports whether err is an upstream's refusal of the request that
// a retry would meet again (a 4xx answer such as 400, 404 or 413, or one
// about the gateway's own credentials): the client is told not to retry
// (X-Should-Retry: false), as both official SDKs otherwise retry every
// 5xx twice, each call reaching the upstream.
func Final(err error) bool { return errors.Is(err, errRefused) }

// streamedUpstreamError maps an error the upstream sent inside a 200 stream
// (Anthropic `event: error`, OpenAI `data: {"error":…}`).
func streamedUpstreamError(upType, upMessage string, sc *scrubber) *Error {
	msg := "upstream failed mid-response"
	if upMessage != "" {
		msg += ": " + sc.scrub(upMessage)
	}
	if isOverloadMessage(upType, upMessage) {
		return &Error{Status: http.StatusServiceUnavailable, Code: CodeUpstreamOverloaded, Message: msg}
	}
	return upstreamError(msg, nil)
}

func isOverloadMessage(upType, upMessage string) bool {
	return strings.Contains(strings.ToLower(upType+" "+upMessage), "overload")
}

// parseUpstreamError reads the error type and message from either provider's
// error body: Anthropic {"type":"error","error":{"type","message"}} and
// OpenAI {"error":{"message","type","code"}} share the inner fields.
func parseUpstreamError(body []byte) (upType, message string) {
	var v struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if decodeUpstream(body, &v) != nil {
		return "", ""
	}
	return v.Error.Type, truncate(strings.TrimSpace(v.Error.Message), 1000)
}

// parseRetryAfter reads a Retry-After header (delta-seconds or HTTP date) and
// returns whole seconds, rounded up; 0 when absent or unreadable.
func parseRetryAfter(v string, now time.Time) int {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 || s > 86400 {
			return 0
		}
		return int(math.Ceil(s))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 && d <= 24*time.Hour {
			return int((d + time.Second - 1) / time.Second)
		}
	}
	return 0
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}

package gateway

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Error codes the core produces. The handler maps them 1:1 onto the JSON error
// body ({"error":{"code",...}}), or onto the Anthropic error shape with
// AnthropicJSON for the Messages-compatible endpoint.
const (
	CodeInvalidRequest      = "invalid_request"       // 400: the client's request is malformed
	CodeUpstreamError       = "upstream_error"        // 502: upstream refused or answered nonsense
	CodeUpstreamUnavailable = "upstream_unavailable"  // 502: upstream could not be reached
	CodeUpstreamOverloaded  = "upstream_overloaded"   // 503: upstream said 429/529/503-overloaded
	CodeUpstreamTimeout     = "upstream_timeout"      // 504: total or stream-idle timeout
	CodeClientClosed        = "client_closed_request" // 499: the caller went away; nothing to answer
)

// StatusClientClosed is nginx's convention for "the client closed the
// connection before the answer": no response reaches anyone, but audit
// records still need a status.
const StatusClientClosed = 499

// Error is every error the core returns: the status and code the handler
// should answer with, a message safe to show the client (never the upstream
// key), and for overload the upstream's Retry-After. Its fields mirror
// app/apierr.Error so the handler converts it field by field.
type Error struct {
	Status  int
	Code    string
	Message string
	// RetryAfter, in seconds, becomes a Retry-After header when positive.
	RetryAfter int
	// Internal is the underlying cause for the operator's log; never sent.
	Internal error
}

func (e *Error) Error() string {
	if e.Internal != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Internal)
	}
	return e.Code + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Internal }

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
func (e *Error) overloaded() bool { return e.Code == CodeUpstreamOverloaded }

// AnthropicType is the Anthropic error type for this error. The official SDKs
// choose their exception class from the HTTP status (see AnthropicStatus), and
// the type repeats that choice in the body.
func (e *Error) AnthropicType() string {
	switch e.AnthropicStatus() {
	case http.StatusBadRequest:
		return "invalid_request_error"
	case http.StatusUnauthorized:
		return "authentication_error"
	case http.StatusForbidden:
		return "permission_error"
	case http.StatusNotFound:
		return "not_found_error"
	case http.StatusRequestEntityTooLarge:
		return "request_too_large"
	case http.StatusTooManyRequests:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	default:
		return "api_error"
	}
}

// AnthropicStatus is the HTTP status to answer with on the Messages-compatible
// endpoint. It is Status, except that an overloaded upstream is reported as
// Anthropic's 529 so the SDKs raise OverloadedError, as they would against the
// real API; our own /chat endpoint keeps the conventional 503.
func (e *Error) AnthropicStatus() int {
	if e.Code == CodeUpstreamOverloaded {
		return 529
	}
	return e.Status
}

// AnthropicJSON is the error body of the Messages-compatible endpoint:
// {"type":"error","error":{"type":"…","message":"…"}}. The same object is the
// data of a streamed `error` event.
func (e *Error) AnthropicJSON() []byte {
	b, _ := json.Marshal(anthropicError{Type: "error", Error: e.anthropicBody()})
	return b
}

func (e *Error) anthropicBody() ErrorBody {
	return ErrorBody{Type: e.AnthropicType(), Message: e.Message}
}

// ErrorBody is the inner object of an Anthropic error.
type ErrorBody struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

type anthropicError struct {
	Type  string    `json:"type"`
	Error ErrorBody `json:"error"`
}

// upstreamStatusError maps a non-2xx upstream answer to our error. Every
// upstream failure is a gateway failure (5xx) from the client's point of view:
// the client's key and request passed our checks, and only the upstream can
// say what went wrong, so its message is passed on after scrubbing.
func upstreamStatusError(status int, header http.Header, body []byte, key string) *Error {
	body = []byte(scrub(string(body), key)) // before any truncation can cut the key in two
	upType, upMessage := parseUpstreamError(body)
	cause := fmt.Errorf("upstream answered %d: %s", status, truncate(string(body), 512))
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
		return upstreamError(msg, cause)
	}
}

// streamedUpstreamError maps an error the upstream sent inside a 200 stream
// (Anthropic `event: error`, OpenAI `data: {"error":…}`).
func streamedUpstreamError(upType, upMessage, key string) *Error {
	msg := "upstream failed mid-response"
	if upMessage != "" {
		msg += ": " + scrub(upMessage, key)
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
	if json.Unmarshal(body, &v) != nil {
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

// scrub removes the upstream key from text that may reach a client or a log:
// an upstream error message may quote the credentials it was sent.
func scrub(s, key string) string {
	if key == "" {
		return s
	}
	return strings.ReplaceAll(s, key, "[redacted]")
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}

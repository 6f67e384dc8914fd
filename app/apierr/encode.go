package apierr

import (
	"encoding/json"
	"net/http"
)

// An Error is written in one of these shapes. The spec's is the default;
// the gateway's compatible endpoints answer in their dialect's, so the
// official SDKs raise the exception class they would against that API, and
// every dialect's body carries our code, message and request_id as extra
// fields beside its own.

// Body is the spec's error shape:
//
//	{"error":{"code":"…","message":"…","request_id":"…","details":[…]}}
type Body struct {
	Error Object `json:"error"`
}

// Object is the inner object of the spec's shape; details is our
// extension for requests with several problems.
type Object struct {
	Code      string   `json:"code"`
	Message   string   `json:"message"`
	RequestID string   `json:"request_id"`
	Details   []Detail `json:"details,omitempty"`
}

// SpecBody is e in the spec's shape.
func (e *Error) SpecBody(requestID string) Body {
	return Body{Error: Object{Code: e.Code, Message: e.Message, RequestID: requestID, Details: e.Details}}
}

// Overloaded is the code of an upstream that asked us to back off.
const Overloaded = "upstream_overloaded"

// AnthropicStatus is the status the Messages-compatible endpoints answer
// with: Status, except that an overloaded upstream is Anthropic's 529 so
// the SDKs raise OverloadedError, as they would against the real API.
func (e *Error) AnthropicStatus() int {
	if e.Code == Overloaded {
		return 529
	}
	return e.Status
}

// AnthropicType is the Anthropic error type for e; the SDKs choose their
// exception class from the status and the type repeats that choice. The
// client errors Anthropic has no type of its own for (405, 408, 415, 422)
// are its invalid_request_error, as its API answers them.
func (e *Error) AnthropicType() string {
	switch status := e.AnthropicStatus(); status {
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
	case http.StatusGatewayTimeout:
		return "timeout_error"
	case 529:
		return "overloaded_error"
	default:
		if status < 500 {
			return "invalid_request_error"
		}
		return "api_error"
	}
}

// AnthropicObject is the inner object of an Anthropic error with our
// fields beside Anthropic's type and message.
type AnthropicObject struct {
	Type      string `json:"type"`
	Message   string `json:"message"`
	Code      string `json:"code"`
	RequestID string `json:"request_id,omitempty"`
}

// AnthropicJSON is e in Anthropic's shape, also the data of a streamed
// `error` event:
//
//	{"type":"error","error":{"type","message","code","request_id"},"request_id"}
func (e *Error) AnthropicJSON(requestID string) []byte {
	b, _ := json.Marshal(struct {
		Type      string          `json:"type"`
		Error     AnthropicObject `json:"error"`
		RequestID string          `json:"request_id,omitempty"`
	}{"error", AnthropicObject{Type: e.AnthropicType(), Message: e.Message, Code: e.Code, RequestID: requestID}, requestID})
	return b
}

// OpenAIType is the OpenAI error type for e. The official openai SDKs
// choose their exception class from the status alone (401
// AuthenticationError, 429 RateLimitError, …); the type is informative.
func (e *Error) OpenAIType() string {
	switch {
	case e.Code == "quota_exceeded":
		return "insufficient_quota"
	case e.Status == http.StatusUnauthorized:
		return "authentication_error"
	case e.Status == http.StatusForbidden:
		return "permission_error"
	case e.Status == http.StatusNotFound:
		return "not_found_error"
	case e.Status == http.StatusTooManyRequests:
		return "rate_limit_error"
	case e.Status >= 500:
		return "server_error"
	default:
		return "invalid_request_error"
	}
}

// OpenAIJSON is e in OpenAI's shape, also the data of a streamed error
// chunk; code is ours (OpenAI's codes are the same kind of snake_case
// word, e.g. invalid_api_key):
//
//	{"error":{"message","type","param":null,"code","request_id"}}
func (e *Error) OpenAIJSON(requestID string) []byte {
	b, _ := json.Marshal(struct {
		Error openAIObject `json:"error"`
	}{openAIObject{Message: e.Message, Type: e.OpenAIType(), Code: e.Code, RequestID: requestID}})
	return b
}

type openAIObject struct {
	Message   string  `json:"message"`
	Type      string  `json:"type"`
	Param     *string `json:"param"`
	Code      string  `json:"code"`
	RequestID string  `json:"request_id,omitempty"`
}

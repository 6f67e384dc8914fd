package ratelimit

import (
	"net/http"
	"strconv"
	"time"

	"parapet/app/httpx"
)

// Response headers; one formatting for the public API and the gateway.
const (
	HeaderLimit      = "X-RateLimit-Limit"
	HeaderRemaining  = "X-RateLimit-Remaining"
	HeaderReset      = "X-RateLimit-Reset"
	HeaderRetryAfter = "Retry-After"
)

// ResetUnix is Reset in Unix epoch seconds, rounded up so that a client that
// waits until that second is never early.
func (d Decision) ResetUnix() int64 {
	s := d.Reset.Unix()
	if d.Reset.Nanosecond() > 0 {
		s++
	}
	return s
}

// RetryAfterSeconds is RetryAfter in whole seconds rounded up, at least 1 for
// a refused request (Retry-After: 0 would invite an immediate retry), and 0
// for an allowed one.
func (d Decision) RetryAfterSeconds() int {
	if d.Allowed {
		return 0
	}
	s := int((d.RetryAfter + time.Second - 1) / time.Second)
	return max(s, 1)
}

// The headers' keys in canonical form, so that SetHeaders, which runs on
// every API request, writes the map directly without canonicalizing.
var (
	rateKeys      = []string{http.CanonicalHeaderKey(HeaderLimit), http.CanonicalHeaderKey(HeaderRemaining), http.CanonicalHeaderKey(HeaderReset)}
	keyRetryAfter = http.CanonicalHeaderKey(HeaderRetryAfter)
)

// SetHeaders writes the three X-RateLimit headers, and Retry-After when the
// request was refused.
func (d Decision) SetHeaders(h http.Header) {
	httpx.SetInts(h, rateKeys, int64(d.Limit), int64(d.Remaining), d.ResetUnix())
	if !d.Allowed {
		h[keyRetryAfter] = []string{strconv.Itoa(d.RetryAfterSeconds())}
	}
}

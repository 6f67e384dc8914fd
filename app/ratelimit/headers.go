package ratelimit

import (
	"net/http"
	"strconv"
	"time"
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

// SetHeaders writes the three X-RateLimit headers, and Retry-After when the
// request was refused.
func (d Decision) SetHeaders(h http.Header) {
	h.Set(HeaderLimit, strconv.Itoa(d.Limit))
	h.Set(HeaderRemaining, strconv.Itoa(d.Remaining))
	h.Set(HeaderReset, strconv.FormatInt(d.ResetUnix(), 10))
	if !d.Allowed {
		h.Set(HeaderRetryAfter, strconv.Itoa(d.RetryAfterSeconds()))
	}
}

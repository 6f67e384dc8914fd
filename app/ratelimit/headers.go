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

// The headers' keys in canonical form, so that SetHeaders, which runs on
// every API request, writes the map directly without canonicalizing.
var (
	keyLimit      = http.CanonicalHeaderKey(HeaderLimit)
	keyRemaining  = http.CanonicalHeaderKey(HeaderRemaining)
	keyReset      = http.CanonicalHeaderKey(HeaderReset)
	keyRetryAfter = http.CanonicalHeaderKey(HeaderRetryAfter)
)

// SetHeaders writes the three X-RateLimit headers, and Retry-After when the
// request was refused. It runs on every API request, so the three values
// share one string and one slice (two allocations, not six).
func (d Decision) SetHeaders(h http.Header) {
	var buf [3 * 20]byte
	b := strconv.AppendInt(buf[:0], int64(d.Limit), 10)
	ends := [3]int{len(b)}
	b = strconv.AppendInt(b, int64(d.Remaining), 10)
	ends[1] = len(b)
	b = strconv.AppendInt(b, d.ResetUnix(), 10)
	ends[2] = len(b)
	text, values := string(b), make([]string, 3)
	values[0], values[1], values[2] = text[:ends[0]], text[ends[0]:ends[1]], text[ends[1]:]
	h[keyLimit] = values[0:1:1] // full slices: an Add elsewhere copies, never overwrites a neighbour
	h[keyRemaining] = values[1:2:2]
	h[keyReset] = values[2:3:3]
	if !d.Allowed {
		h[keyRetryAfter] = []string{strconv.Itoa(d.RetryAfterSeconds())}
	}
}

package models

import (
	"crypto/rand"
	mathrand "math/rand/v2"
	"strings"
	"time"
)

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// RandomBase62 returns n characters drawn uniformly from [0-9A-Za-z] with a
// cryptographic source (rejection sampling avoids modulo bias).
func RandomBase62(n int) string { return randomID("", n) }

// NewID makes an application id such as usr_3kT9…: a prefix and 20 random
// base62 characters (about 119 bits), sortable enough for humans and
// unguessable. Request ids are made on every request, so an id is built
// in one allocation.
func NewID(prefix string) string { return randomID(prefix+"_", 20) }

// NewRequestID makes a request's id, req_ and 20 base62 characters, as
// NewID but from math/rand/v2's per-thread ChaCha8 instead of the
// kernel's generator: every request makes one, and an id that only
// correlates log lines and errors must be unique, not secret (crypto/rand
// was an eighth of a public API request's own time).
func NewRequestID() string {
	var b [24]byte
	copy(b[:], "req_")
	for i := 4; i < len(b); {
		x := mathrand.Uint64()
		for range 10 { // ten base-62 digits of one draw: 62^10 < 2^64
			if i == len(b) {
				break
			}
			b[i] = base62[x%62]
			x /= 62
			i++
		}
	}
	return string(b[:])
}

func randomID(prefix string, n int) string {
	var out strings.Builder
	out.Grow(len(prefix) + n)
	out.WriteString(prefix)
	var stack [64]byte
	buf := stack[:]
	if n+n/2+8 > len(stack) {
		buf = make([]byte, n+n/2+8)
	}
	for left := n; left > 0; {
		_, _ = rand.Read(buf)
		for _, b := range buf {
			if b < 248 { // 248 = 4*62: keep only unbiased bytes
				out.WriteByte(base62[b%62])
				if left--; left == 0 {
					break
				}
			}
		}
	}
	return out.String()
}

// Now is the database's clock: UTC, truncated to microseconds so that a
// value read back from Postgres equals the one written.
func Now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// NewEventID makes an audit event's id: evt_, the time in milliseconds as
// eight base62 digits, then twelve random ones (about 71 bits). Events are
// written in time order, so ids that sort by time are added at the right
// edge of the primary key's index rather than on a random page of it: a
// busy gateway's batch dirties a few pages of that index, not one a row.
func NewEventID(t time.Time) string {
	var b [32]byte
	copy(b[:], "evt_")
	ms := uint64(t.UnixMilli())
	for i := 11; i >= 4; i-- { // 62^8 ms is about 6,900 years
		b[i] = base62[ms%62]
		ms /= 62
	}
	return string(b[:12]) + randomID("", 12)
}

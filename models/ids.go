package models

import (
	"crypto/rand"
	"time"
)

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// RandomBase62 returns n characters drawn uniformly from [0-9A-Za-z] with a
// cryptographic source (rejection sampling avoids modulo bias).
func RandomBase62(n int) string {
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/2+8)
	for len(out) < n {
		_, _ = rand.Read(buf)
		for _, b := range buf {
			if b < 248 { // 248 = 4*62: keep only unbiased bytes
				out = append(out, base62[b%62])
				if len(out) == n {
					break
				}
			}
		}
	}
	return string(out)
}

// NewID makes an application id such as usr_3kT9…: a prefix and 20 random
// base62 characters (about 119 bits), sortable enough for humans and
// unguessable for everyone else.
func NewID(prefix string) string { return prefix + "_" + RandomBase62(20) }

// Now is the database's clock: UTC, truncated to microseconds so that a
// value read back from Postgres equals the one written.
func Now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

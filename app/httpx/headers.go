package httpx

import (
	"net/http"
	"strconv"
)

// SetValues sets each key of keys, in canonical form, to the value at the
// same index of values, which it keeps: each key gets a full slice of that
// one array (an Add to one header copies it instead of overwriting its
// neighbour), so a group of headers costs the one allocation of values,
// not one per header, nor the canonicalizing of each key that Set does.
// Headers on every API answer are set this way.
func SetValues(h http.Header, keys, values []string) {
	for i, k := range keys {
		h[k] = values[i : i+1 : i+1]
	}
}

// SetInts sets each key of keys (canonical; at most four) to the decimal of
// the number at the same index, the numbers written into one string: two
// allocations for the group.
func SetInts(h http.Header, keys []string, nums ...int64) {
	var buf [4 * 20]byte
	var ends [4]int
	b := buf[:0]
	for i, n := range nums {
		b = strconv.AppendInt(b, n, 10)
		ends[i] = len(b)
	}
	text, values := string(b), make([]string, len(nums))
	for i, start := 0, 0; i < len(nums); i++ {
		values[i], start = text[start:ends[i]], ends[i]
	}
	SetValues(h, keys, values)
}

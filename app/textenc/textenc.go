// Package textenc reads text as people save it: UTF-8, with or without a
// byte-order mark, or UTF-16 with one (what Windows PowerShell writes for
// `terraform show -json > plan.json`). It is a leaf: the scanner engine
// and the HTTP layer's JSON checks both use it, and it imports nothing of
// ours.
package textenc

import (
	"bytes"
	"errors"
	"unicode/utf16"
	"unicode/utf8"
)

// ErrOddUTF16 is returned for input that starts with a UTF-16 byte-order
// mark but has an odd number of bytes.
var ErrOddUTF16 = errors.New("the input starts with a UTF-16 byte-order mark but has an odd number of bytes")

// Decode turns in into UTF-8 text: a UTF-8 byte-order mark is dropped and
// UTF-16 with a byte-order mark is converted. Without a byte-order mark
// in is returned as it is (it must be UTF-8 already; the caller checks).
func Decode(in []byte) ([]byte, error) {
	switch {
	case bytes.HasPrefix(in, []byte{0xEF, 0xBB, 0xBF}):
		return in[3:], nil
	case bytes.HasPrefix(in, []byte{0xFF, 0xFE}):
		return fromUTF16(in[2:], false)
	case bytes.HasPrefix(in, []byte{0xFE, 0xFF}):
		return fromUTF16(in[2:], true)
	}
	return in, nil
}

// FromUTF16 converts UTF-16 without a byte-order mark, of the byte order
// given, to UTF-8.
func FromUTF16(b []byte, bigEndian bool) ([]byte, error) { return fromUTF16(b, bigEndian) }

func fromUTF16(b []byte, bigEndian bool) ([]byte, error) {
	if len(b)%2 != 0 {
		return nil, ErrOddUTF16
	}
	units := make([]uint16, len(b)/2)
	for i := range units {
		if bigEndian {
			units[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
		} else {
			units[i] = uint16(b[2*i+1])<<8 | uint16(b[2*i])
		}
	}
	out := make([]byte, 0, len(units))
	for _, r := range utf16.Decode(units) {
		out = utf8.AppendRune(out, r)
	}
	return out, nil
}

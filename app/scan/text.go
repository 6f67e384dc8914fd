package scan

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// decodeText turns a file as people save it into UTF-8 text: a UTF-8
// byte-order mark is dropped, and UTF-16 with a byte-order mark (what
// Windows PowerShell 5 writes for `terraform show -json > plan.json`) is
// converted. Without a byte-order mark the input must be UTF-8 already;
// the JSON and YAML readers report invalid bytes where they are.
func decodeText(in []byte) ([]byte, error) {
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

func fromUTF16(b []byte, bigEndian bool) ([]byte, error) {
	if len(b)%2 != 0 {
		return nil, &SyntaxError{Line: 1, Column: 1, Msg: "the input starts with a UTF-16 byte-order mark but has an odd number of bytes"}
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

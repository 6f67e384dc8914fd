// Package jsonstr appends a Go string as a JSON string, byte for byte as
// one of two encoders the project must match writes it: the access log's
// lines match slog's JSON handler, the gateway's wire JSON matches
// encoding/json. Both are written on every request, so neither goes
// through an encoder.
package jsonstr

import "unicode/utf8"

// Style is whose escaping to match.
type Style int

const (
	// Slog escapes '"', '\' and control characters (\n, \r and \t short,
	// the others as \u00XX), invalid UTF-8 as \ufffd, and U+2028 and
	// U+2029 (they end a line in JavaScript).
	Slog Style = iota
	// EncodingJSON is Slog with \b and \f short and <, > and & escaped as
	// \u003c, \u003e and \u0026, as encoding/json's Marshal does.
	EncodingJSON
)

// Append appends s, quoted and escaped in style, to b.
func Append(b []byte, s string, style Style) []byte {
	const hex = "0123456789abcdef"
	html := style == EncodingJSON
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= ' ' && c != '"' && c != '\\' && (!html || c != '<' && c != '>' && c != '&') {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case html && c == '\b':
				b = append(b, '\\', 'b')
			case html && c == '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(append(b, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(append(b, s[start:]...), '"')
}

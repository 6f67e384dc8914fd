package httpx

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"parapet/app/apierr"
	"parapet/app/keyset"
)

// maxJSONDepth bounds the nesting of a JSON body the check walks; no
// request of ours nests deeper than a few levels.
const maxJSONDepth = 200

// checkJSONText refuses a body that is not valid UTF-8, nests deeper than
// maxJSONDepth, holds a NUL character in a string or repeats a key in an
// object. It is one pass over the bytes, with no allocation for the keys
// of small objects: it runs on every API request, before the handler
// decodes the body. Where the text stops being JSON the check stops
// and lets the handler's decoder explain the syntax error with a line and
// column; the values before that point have been checked.
func checkJSONText(body []byte) error { return checkJSON(body, true) }

// checkJSON is checkJSONText, refusing a repeated key only with
// uniqueKeys.
func checkJSON(body []byte, uniqueKeys bool) error {
	if !utf8.Valid(body) {
		return apierr.InvalidRequest("the request body is not valid UTF-8: send JSON encoded as UTF-8")
	}
	s := jsonScan{body: body, repeatsOK: !uniqueKeys}
	for {
		s.space()
		if s.i >= len(s.body) || s.err != nil || !s.value(0) {
			return s.err
		}
	}
}

type jsonScan struct {
	body      []byte
	i         int
	err       error
	repeatsOK bool // a repeated key is left to the handler (CleanJSONText)
}

// value reads one JSON value at depth; false means the text stopped being
// JSON (s.err unset: a syntax error for the handler) or was refused (s.err).
func (s *jsonScan) value(depth int) bool {
	if s.i >= len(s.body) {
		return false
	}
	switch c := s.body[s.i]; {
	case c == '{' || c == '[':
		if depth >= maxJSONDepth {
			s.err = apierr.InvalidRequest("the JSON body is nested more than %d levels deep", maxJSONDepth)
			return false
		}
		s.i++
		return s.container(c+2, depth+1) // '{'+2 is '}', '['+2 is ']'
	case c == '"':
		_, ok := s.str(false)
		return ok
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	}
	return false
}

// container reads the members of an object or an array up to close.
func (s *jsonScan) container(close byte, depth int) bool {
	var keys keyset.Set[[]byte] // the keys of an object (unused for an array)
	s.space()
	if s.skip(close) {
		return true
	}
	for {
		s.space()
		if close == '}' && !s.key(&keys) {
			return false
		}
		if !s.value(depth) {
			return false
		}
		s.space()
		if s.skip(close) {
			return true
		}
		if !s.skip(',') {
			return false
		}
	}
}

// key reads an object's key and its colon, refusing a key seen before.
func (s *jsonScan) key(keys *keyset.Set[[]byte]) bool {
	if s.i >= len(s.body) || s.body[s.i] != '"' {
		return false
	}
	key, ok := s.str(true)
	if !ok {
		return false
	}
	if !s.repeatsOK && keys.Seen(key) {
		s.err = apierr.InvalidRequest("the JSON object repeats the key %q: send each key once", key)
		return false
	}
	s.space()
	if !s.skip(':') {
		return false
	}
	s.space()
	return true
}

// str reads the string at s.i and, with decode (a key), returns its text:
// the raw bytes when it has no escape (the common case, no copy), else
// the decoded text, so that "a" and "\u0061" are the same key. A value's
// escapes are checked in the scan, not decoded: nearly every prompt has a
// \n, and decoding it would cost several times the scan.
func (s *jsonScan) str(decode bool) ([]byte, bool) {
	start := s.i + 1
	escaped, nul := false, false
	for i := start; i < len(s.body); i++ {
		switch c := s.body[i]; {
		case c == '"':
			s.i = i + 1
			switch {
			case nul:
				s.err = apierr.InvalidRequest("a JSON string holds a NUL character (\\u0000), which is not accepted")
				return nil, false
			case !escaped:
				return s.body[start:i], true
			case !decode:
				return nil, true
			}
			var text string
			if json.Unmarshal(s.body[start-1:i+1], &text) != nil {
				return nil, false
			}
			return []byte(text), true
		case c == '\\':
			n := escapeLen(s.body[i+1:])
			if n == 0 {
				return nil, false // not an escape: a syntax error
			}
			escaped, nul = true, nul || string(s.body[i+1:i+1+n]) == "u0000"
			i += n
		case c < 0x20:
			return nil, false // a raw control character: a syntax error
		}
	}
	return nil, false
}

// escapeLen is the length of the JSON escape that rest opens with, after
// its backslash ("n", "u00e9"); 0 when it is none.
func escapeLen(rest []byte) int {
	if len(rest) == 0 {
		return 0
	}
	switch rest[0] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 1
	case 'u':
		if len(rest) < 5 {
			return 0
		}
		for _, c := range rest[1:5] {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return 0
			}
		}
		return 5
	}
	return 0
}

func (s *jsonScan) literal(word string) bool {
	if !bytes.HasPrefix(s.body[s.i:], []byte(word)) {
		return false
	}
	s.i += len(word)
	return true
}

func (s *jsonScan) space() {
	for s.i < len(s.body) {
		switch s.body[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, JSON's
// grammar, so that the check stops where the decoder would.
func (s *jsonScan) number() bool {
	s.skip('-')
	if !s.skip('0') && !s.digits() {
		return false // no digit, or more digits after a leading zero
	}
	if s.skip('.') && !s.digits() {
		return false
	}
	if s.skip('e') || s.skip('E') {
		if !s.skip('+') {
			s.skip('-')
		}
		return s.digits()
	}
	return true
}

func (s *jsonScan) skip(c byte) bool {
	if s.i < len(s.body) && s.body[s.i] == c {
		s.i++
		return true
	}
	return false
}

// digits reads one or more decimal digits.
func (s *jsonScan) digits() bool {
	start := s.i
	for s.i < len(s.body) && s.body[s.i] >= '0' && s.body[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}

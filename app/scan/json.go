package scan

import (
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// reader is a strict RFC 8259 JSON reader over an in-memory document.
//
// Why not encoding/json: the scanner must report every problem with its JSON
// path, the line of each finding (for SARIF), duplicate keys (which
// encoding/json silently resolves to the last one: a parser differential a
// security tool should not have), and a nesting limit far below
// encoding/json's 10000, and it must be faster than decoding into maps. A
// small hand-written reader does all of that in one pass. It accepts exactly
// what encoding/json accepts and words its syntax errors the same way,
// including where they are reported; FuzzSyntaxMatchesEncodingJSON checks
// both.
//
// Errors abort the read by panicking with an abort value, recovered by
// catchAbort at each entry point: it keeps the hot path free of error
// checks after every call.
type reader struct {
	data    []byte
	pos     int
	depth   int
	scratch []byte // decoded string bytes, valid until the next string read
	// maxDepth is MaxDepth for our format, MaxDocumentDepth for the others.
	maxDepth int
	lines    *lineCounter // readTerraform's, for the lines of resources
	keyStart int          // offset of the last object key read, for errors
	// uniqueKeys makes skip refuse a key given twice in an object, as
	// object always does (dupkeys.go).
	uniqueKeys bool
	dups       dupKeys // the repeated keys met, reported once the read ends
}

type abort struct{ err error }

// catchAbort, deferred by each entry point of the reader, turns an abort
// into the entry point's error; any other panic goes on.
func catchAbort(err *error) {
	if e := recover(); e != nil {
		a, ok := e.(abort)
		if !ok {
			panic(e)
		}
		*err = a.err
	}
}

// readDocument reads a Terraform or CloudFormation document or an envelope,
// fn reading its top-level value, and returns the syntax or limit error
// that aborted the read.
func readDocument(data []byte, fn func(r *reader)) (err error) {
	r := &reader{data: data, maxDepth: MaxDocumentDepth}
	defer catchAbort(&err)
	fn(r)
	r.endOfInput()
	return r.dups.err()
}

// endOfInput rejects anything but white space after the top-level value.
func (r *reader) endOfInput() {
	r.ws()
	if r.pos < len(r.data) {
		r.fail("after top-level value")
	}
}

// plainASCII marks the bytes a string can hold as they are: printable
// ASCII other than '"' and '\\'.
var plainASCII = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

var space = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

func (r *reader) ws() {
	for r.pos < len(r.data) && space[r.data[r.pos]] {
		r.pos++
	}
}

// fail reports the byte at r.pos as unexpected in context. It is for places
// where encoding/json skips white space, so running out of input there is
// "unexpected end of JSON input".
func (r *reader) fail(context string) {
	if r.pos >= len(r.data) {
		panic(abort{newSyntaxError(r.data, len(r.data), "unexpected end of JSON input")})
	}
	r.failChar(r.data[r.pos], context)
}

// failInToken reports the byte at r.pos as invalid inside a literal, number
// or escape. At end of input encoding/json feeds its scanner a space, so the
// message names ' ' there, and so does ours.
func (r *reader) failInToken(context string) {
	c := byte(' ')
	if r.pos < len(r.data) {
		c = r.data[r.pos]
	}
	r.failChar(c, context)
}

func (r *reader) failChar(c byte, context string) {
	panic(abort{newSyntaxError(r.data, r.pos, "invalid character "+quoteChar(c)+" "+context)})
}

// quoteChar formats c as encoding/json does in its messages.
func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}

// valueStart skips white space and returns the first byte of a value.
func (r *reader) valueStart() byte {
	r.ws()
	if r.pos < len(r.data) {
		switch c := r.data[r.pos]; c {
		case '{', '[', '"', 't', 'f', 'n', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			return c
		}
	}
	r.fail("looking for beginning of value")
	return 0
}

// enter consumes the '{' or '[' at r.pos and enforces MaxDepth.
func (r *reader) enter() {
	r.pos++
	r.depth++
	max := r.maxDepth
	if max == 0 {
		max = MaxDepth
	}
	if r.depth > max {
		line, col := lineColumn(r.data, r.pos-1)
		panic(abort{&LimitError{Limit: "depth", Max: max, Message: fmt.Sprintf(
			"JSON nesting is deeper than %d levels at line %d, column %d; the limit is %d", max, line, col, max)}})
	}
}

// objectKey reads the next key of an object opened with enter, and the ':'
// after it. It returns false, having consumed the '}', at the end of the
// object. The key is valid until the next string read.
func (r *reader) objectKey(first bool) ([]byte, bool) {
	r.ws()
	if !first {
		if r.pos >= len(r.data) {
			r.fail("after object key:value pair")
		}
		switch r.data[r.pos] {
		case '}':
			r.pos++
			r.depth--
			return nil, false
		case ',':
			r.pos++
			r.ws()
		default:
			r.fail("after object key:value pair")
		}
	} else if r.pos < len(r.data) && r.data[r.pos] == '}' {
		r.pos++
		r.depth--
		return nil, false
	}
	if r.pos >= len(r.data) || r.data[r.pos] != '"' {
		r.fail("looking for beginning of object key string")
	}
	r.keyStart = r.pos
	key := r.str()
	r.ws()
	if r.pos >= len(r.data) || r.data[r.pos] != ':' {
		r.fail("after object key")
	}
	r.pos++
	return key, true
}

// arrayNext reports whether another element follows in an array opened with
// enter; it returns false, having consumed the ']', at the end.
func (r *reader) arrayNext(first bool) bool {
	r.ws()
	if first {
		if r.pos < len(r.data) && r.data[r.pos] == ']' {
			r.pos++
			r.depth--
			return false
		}
		return true // the element's valueStart reports anything that is not a value
	}
	if r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ',':
			r.pos++
			return true
		case ']':
			r.pos++
			r.depth--
			return false
		}
	}
	r.fail("after array element")
	return false
}

// skip reads and validates one value of any kind.
func (r *reader) skip() {
	switch r.valueStart() {
	case '{':
		if r.uniqueKeys {
			r.skipObjectUnique()
			return
		}
		r.enter()
		for first := true; ; first = false {
			if _, ok := r.objectKey(first); !ok {
				return
			}
			r.skip()
		}
	case '[':
		r.enter()
		for first := true; r.arrayNext(first); first = false {
			r.skip()
		}
	case '"':
		r.scanString()
	case 't':
		r.literal("true")
	case 'f':
		r.literal("false")
	case 'n':
		r.literal("null")
	default:
		r.number()
	}
}

// value reads one value of any kind and returns where it is, noting
// whether a string's raw bytes are its value, so reading it again later
// needs no second scan.
func (r *reader) value() span {
	c := r.valueStart()
	start := r.pos
	if c == '"' {
		_, plain := r.scanString()
		return span{start: start, end: r.pos, plain: plain}
	}
	r.skip()
	return span{start: start, end: r.pos}
}

func (r *reader) literal(word string) {
	for k := 1; k < len(word); k++ {
		if r.pos+k >= len(r.data) || r.data[r.pos+k] != word[k] {
			r.pos += k
			r.failInToken(fmt.Sprintf("in literal %s (expecting %s)", word, quoteChar(word[k])))
		}
	}
	r.pos += len(word)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHex(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// number reads a number; r.pos is at its '-' or first digit.
func (r *reader) number() {
	d, i := r.data, r.pos
	if d[i] == '-' {
		i++
		if i >= len(d) || !isDigit(d[i]) {
			r.pos = i
			r.failInToken("in numeric literal")
		}
	}
	// The integer part is read here, not by digits: most numbers are
	// integers, and a call for each costs time.
	if d[i] == '0' {
		i++
	} else {
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	}
	if i < len(d) && d[i] == '.' {
		i = r.digits(i+1, "after decimal point in numeric literal")
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		i = r.digits(i, "in exponent of numeric literal")
	}
	r.pos = i
}

// digits reads the digits of a fraction or an exponent from i, where at
// least one must be, and returns where they end; context names the part.
func (r *reader) digits(i int, context string) int {
	d := r.data
	if i >= len(d) || !isDigit(d[i]) {
		r.pos = i
		r.failInToken(context)
	}
	for i < len(d) && isDigit(d[i]) {
		i++
	}
	return i
}

// scanString validates the string at r.pos (its opening quote) and moves
// past it. It returns the bytes between the quotes and whether they can be
// used as they are: no escapes and valid UTF-8.
func (r *reader) scanString() (raw []byte, plain bool) {
	d := r.data
	start := r.pos + 1
	i := start
	// Fast path: most strings are short runs of printable ASCII.
	for i < len(d) && plainASCII[d[i]] {
		i++
	}
	if i < len(d) && d[i] == '"' {
		r.pos = i + 1
		return d[start:i], true
	}
	escaped, high := false, false
	for {
		if i >= len(d) {
			r.pos = i
			r.fail("in string literal")
		}
		c := d[i]
		switch {
		case c == '"':
			r.pos = i + 1
			raw = d[start:i]
			return raw, !escaped && (!high || utf8.Valid(raw))
		case c == '\\':
			escaped = true
			i++
			if i >= len(d) {
				r.pos = i
				r.failInToken("in string escape code")
			}
			switch d[i] {
			case 'b', 'f', 'n', 'r', 't', '\\', '/', '"':
				i++
			case 'u':
				i++
				for k := 0; k < 4; k++ {
					if i >= len(d) || !isHex(d[i]) {
						r.pos = i
						r.failInToken(`in \u hexadecimal character escape`)
					}
					i++
				}
			default:
				r.pos = i
				r.failInToken("in string escape code")
			}
		case c < 0x20:
			r.pos = i
			r.fail("in string literal")
		default:
			if c >= utf8.RuneSelf {
				high = true
			}
			i++
		}
	}
}

// str reads a string and returns its decoded bytes, valid until the next
// string read: the raw bytes when no decoding is needed, else r.scratch.
func (r *reader) str() []byte {
	raw, plain := r.scanString()
	if plain {
		return raw
	}
	r.scratch = decodeString(r.scratch[:0], raw)
	return r.scratch
}

// decodeString appends the decoded form of a validated string body to dst,
// exactly as encoding/json decodes it: escapes resolved, a surrogate pair
// joined, a lone surrogate and each byte of invalid UTF-8 replaced by U+FFFD.
func decodeString(dst, s []byte) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			i++
			switch s[i] {
			case 'b':
				dst = append(dst, '\b')
			case 'f':
				dst = append(dst, '\f')
			case 'n':
				dst = append(dst, '\n')
			case 'r':
				dst = append(dst, '\r')
			case 't':
				dst = append(dst, '\t')
			case 'u':
				rr := hex4(s[i+1:])
				i += 5
				if utf16.IsSurrogate(rr) {
					if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
						if dec := utf16.DecodeRune(rr, hex4(s[i+2:])); dec != unicode.ReplacementChar {
							dst = utf8.AppendRune(dst, dec)
							i += 6
							continue
						}
					}
					rr = unicode.ReplacementChar
				}
				dst = utf8.AppendRune(dst, rr)
				continue
			default: // '"', '\\', '/'
				dst = append(dst, s[i])
			}
			i++
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			i++
		default:
			rr, size := utf8.DecodeRune(s[i:])
			dst = utf8.AppendRune(dst, rr) // RuneError for an invalid byte
			i += size
		}
	}
	return dst
}

// hex4 decodes 4 hex digits; the caller has validated them.
func hex4(s []byte) rune {
	var v rune
	for _, c := range s[:4] {
		switch {
		case c <= '9':
			c -= '0'
		case c >= 'a':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		v = v<<4 | rune(c)
	}
	return v
}

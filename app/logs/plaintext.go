package logs

import (
	"bytes"

	"parapet/app/textenc"
)

// utf8Text is input as UTF-8 text whose lines end with '\n': UTF-16 with
// a byte-order mark, as Windows tools save logs, or without one (see
// bomlessUTF16) is converted, and so are line ends of '\r' alone (see
// crLines). Anything else is input as it is (UTF-16 of an odd length
// too: its bytes are then invalid UTF-8, replaced where a line is shown).
func utf8Text(input []byte) []byte {
	text, err := textenc.Decode(input)
	if err != nil {
		text = input
	}
	if sameBytes(text, input) {
		if big, ok := bomlessUTF16(input); ok {
			text, _ = textenc.FromUTF16(input, big)
		}
	}
	return crLines(text)
}

// utf16Sample is how many bytes bomlessUTF16 looks at.
const utf16Sample = 512

// bomlessUTF16 reports input that is UTF-16 without a byte-order mark, and
// its byte order: of an even length, at least half the pairs of its first
// bytes an ASCII character (a zero byte and a printable one or a white
// space), the zero always the same one of the pair, and the other byte
// of a pair never zero. UTF-8 text holds no NUL but where a binary writer
// left one; then not this regularly.
func bomlessUTF16(input []byte) (bigEndian, ok bool) {
	n := min(len(input), utf16Sample) &^ 1
	if n < 4 || len(input)%2 != 0 {
		return false, false
	}
	var ascii, zeros [2]int // by where the zero is: first or second of a pair
	for i := 0; i < n; i += 2 {
		for z := range 2 {
			if c := input[i+z]; c == 0 {
				zeros[z]++
				if o := input[i+1-z]; o >= 0x20 && o < 0x7f || o == '\n' || o == '\r' || o == '\t' {
					ascii[z]++
				}
			}
		}
	}
	switch pairs := n / 2; {
	case zeros[0] == 0 && 2*ascii[1] >= pairs:
		return false, true // little-endian: "E\x00R\x00"
	case zeros[1] == 0 && 2*ascii[0] >= pairs:
		return true, true
	}
	return false, false
}

// crLines is text with its line ends made '\n' when they are '\r' alone,
// as classic Mac OS and some exports write them: without a '\n' but maybe
// one at the very end, the text would be one line, cut at MaxLineBytes.
// Text with '\n' line ends is returned as it is, '\r' inside a line too
// (a progress bar's updates, CRLF).
func crLines(text []byte) []byte {
	if k := bytes.IndexByte(text, '\n'); k >= 0 && k < len(text)-1 || bytes.IndexByte(text, '\r') < 0 {
		return text
	}
	out := bytes.ReplaceAll(text, []byte{'\r'}, []byte{'\n'})
	if n := len(out); n >= 2 && out[n-1] == '\n' && out[n-2] == '\n' && text[n-2] == '\r' {
		out = out[:n-1] // "\r\n" at the very end is one line end
	}
	return out
}

// readable is the text the analysis reads of input, with the same lines:
// the messages of container records (unwrapped), without terminal escape
// sequences and byte-order marks (plainText), a line redrawn over itself
// as it was shown last (overwritten), and Docker Compose's output without
// its prefixes, each service's lines together (composed). It is input
// itself when none applies. The lineMap says where lines moved: nil when
// none did.
func readable(input []byte) ([]byte, *lineMap) {
	text, moved, _ := readableTimes(input)
	return text, moved
}

// readableTimes is readable, with the container runtime's time of each
// line (see unwrappedTimes) when its lines are where they were.
func readableTimes(input []byte) ([]byte, *lineMap, []int64) {
	text, times := unwrappedTimes(input)
	text, moved := composed(overwritten(plainText(text)))
	if moved != nil {
		times = nil
	}
	return text, moved, times
}

// bom is the UTF-8 byte-order mark.
var bom = []byte("\xef\xbb\xbf")

// plainText is input without terminal escape sequences and byte-order
// marks: loggers that colour their output write "\x1b[31mERROR\x1b[0m",
// and a file put together from pieces saved on Windows carries a BOM at
// the start of each piece. Neither is part of what a line says, and both
// hide a line's header, level and timestamp. Lines keep their numbers
// (no newline is removed). Without either, input itself is returned; else
// a copy, which the result's texts then share.
func plainText(input []byte) []byte {
	hasESC := bytes.IndexByte(input, 0x1b) >= 0
	if !hasESC && !bytes.Contains(input, bom) {
		return input
	}
	out := make([]byte, 0, len(input))
	for rest := input; len(rest) > 0; {
		k := bytes.IndexByte(rest, 0x1b)
		if k < 0 {
			out = append(out, rest...)
			break
		}
		out = append(out, rest[:k]...)
		rest = rest[k+escapeLen(rest[k:]):]
	}
	out = bytes.TrimPrefix(out, bom)
	if bytes.Contains(out, bom) {
		out = bytes.ReplaceAll(out, append([]byte{'\n'}, bom...), []byte{'\n'})
	}
	return out
}

// escapeLen is the length of the escape sequence at the start of s (which
// opens with ESC): a CSI sequence (ESC '[', parameters, intermediates, a
// final byte), as colours and cursor moves are written; an OSC sequence
// (ESC ']' up to BEL or ESC '\'), as titles and links are; else ESC,
// intermediate bytes and a final byte ("\x1b(B" selects a character set).
// A sequence cut by the end of a line ends there.
func escapeLen(s []byte) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		return sequenceEnd(s, 2, 0x3f, 0x40)
	case ']':
		for i := 2; i < len(s); i++ {
			switch {
			case s[i] == 0x07:
				return i + 1
			case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
				return i + 2
			case s[i] == '\n':
				return i
			}
		}
		return len(s)
	}
	return sequenceEnd(s, 1, 0x2f, 0x30)
}

// sequenceEnd is where an escape sequence ends that goes on from s[i]
// with bytes in 0x20–maxMiddle, then one final byte in minFinal–0x7e.
func sequenceEnd(s []byte, i int, maxMiddle, minFinal byte) int {
	for i < len(s) && s[i] >= 0x20 && s[i] <= maxMiddle {
		i++
	}
	if i < len(s) && s[i] >= minFinal && s[i] <= 0x7e {
		i++
	}
	return i
}

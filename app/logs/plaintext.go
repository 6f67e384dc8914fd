package logs

import (
	"bytes"

	"parapet/app/textenc"
)

// utf8Text is input as UTF-8: UTF-16 with a byte-order mark, as Windows
// tools save logs, is converted. Anything else is input as it is (UTF-16
// of an odd length too: its bytes are then invalid UTF-8, replaced where
// a line is shown).
func utf8Text(input []byte) []byte {
	if text, err := textenc.Decode(input); err == nil {
		return text
	}
	return input
}

// readable is the text the analysis reads of input, with the same lines:
// the messages of container records (unwrapped), without terminal escape
// sequences and byte-order marks (plainText), and Docker Compose's output
// without its prefixes, each service's lines together (composed). It is
// input itself when none applies. The lineMap says where lines moved: nil
// when none did.
func readable(input []byte) ([]byte, *lineMap) { return composed(plainText(unwrapped(input))) }

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

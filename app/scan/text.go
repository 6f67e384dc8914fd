package scan

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"parapet/app/textenc"
)

// decodeText turns a file as people save it into UTF-8 text (see
// textenc.Decode); the JSON and YAML readers report invalid bytes where
// they are.
func decodeText(in []byte) ([]byte, error) {
	out, err := textenc.Decode(in)
	if errors.Is(err, textenc.ErrOddUTF16) {
		return nil, &SyntaxError{Line: 1, Column: 1, Msg: err.Error()}
	}
	return out, err
}

// checkUTF8 refuses a document that is not UTF-8 text, at its first
// invalid byte, with its line and column. The API refuses such a JSON body
// before the engine sees it, but not one sent as YAML; encoding/json would
// replace the bytes with U+FFFD, so a name the deploy tool reads one way
// would be checked as another.
func checkUTF8(data []byte) error {
	if utf8.Valid(data) {
		return nil
	}
	at := 0
	for at < len(data) {
		r, size := utf8.DecodeRune(data[at:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		at += size
	}
	se := newSyntaxError(data, at, fmt.Sprintf("invalid UTF-8 (byte 0x%02x): send the document as UTF-8 text", data[at]))
	if !looksJSON(data) {
		se.Msg = "invalid YAML: " + se.Msg
	}
	return se
}

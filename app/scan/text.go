package scan

import (
	"errors"

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

package gateway

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"testing"
)

// decodeJSON reads every body as encoding/json (with UseNumber) did: the
// same values, and the same bodies refused.
func TestDecodeJSONReadsAsEncodingJSON(t *testing.T) {
	for _, body := range []string{
		`{"model":"m","max_tokens":16,"messages":[{"role":"user","content":"Hi"}]}`,
		`{"a":1,"a":2}`, // a name twice: the last value
		`{"n":[0,-0,1.50,1e400,-12e-3,123456789012345678901234567890]}`, // numbers as their text
		`{"s":"\u00e9\ud83d\ude00\n\"\\\/","t":true,"f":false,"z":null,"e":{},"l":[]}`,
		`[1,"two",[3],{"four":4}]`,
		`"just a string"`, `12`, `null`, ` {"ws" : [ 1 , 2 ] } `,
		`{"a":1} {"b":2}`, `{"a":1,}`, `{"a"}`, `{"a":01}`, `[1,2`, `{`, ``, `nul`, `{"a":"\x"}`,
		`{"a":1}]`, `{"a":"\ud800"}`,
	} {
		got, gotOK := decodeJSON([]byte(body))
		dec := json.NewDecoder(bytes.NewReader([]byte(body)))
		dec.UseNumber()
		var want any
		wantOK := dec.Decode(&want) == nil
		if wantOK {
			_, err := dec.Token()
			wantOK = err == io.EOF
		}
		if gotOK != wantOK || (wantOK && !reflect.DeepEqual(got, want)) {
			t.Errorf("%s: decodeJSON = %#v, %v; encoding/json = %#v, %v", body, got, gotOK, want, wantOK)
		}
	}
}

package scan

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		input string
		want  string
	}{
		{``, "line 1, column 1: unexpected end of JSON input"},
		{"  \n ", "line 2, column 2: unexpected end of JSON input"},
		{`{"resources": [`, "line 1, column 16: unexpected end of JSON input"},
		{`{"resources": [}`, "line 1, column 16: invalid character '}' looking for beginning of value"},
		{"{\n  \"resources\": [\n    {\"type\": \"s3_bucket\",}\n  ]\n}", "line 3, column 26: invalid character '}' looking for beginning of object key string"},
		{`{"a": tru}`, "line 1, column 10: invalid character '}' in literal true (expecting 'e')"},
		{`{"a": nul`, "line 1, column 10: invalid character ' ' in literal null (expecting 'l')"},
		{`{"a": 01}`, "line 1, column 8: invalid character '1' after object key:value pair"},
		{`{"a": 1.}`, "line 1, column 9: invalid character '}' after decimal point in numeric literal"},
		{`{"a": 1e}`, "line 1, column 9: invalid character '}' in exponent of numeric literal"},
		{`{"a": -}`, "line 1, column 8: invalid character '}' in numeric literal"},
		{`{"a": -`, "line 1, column 8: invalid character ' ' in numeric literal"},
		{`{"a": "\x"}`, `line 1, column 9: invalid character 'x' in string escape code`},
		{`{"a": "\u12G4"}`, `line 1, column 12: invalid character 'G' in \u hexadecimal character escape`},
		{"{\"a\": \"x\ty\"}", `line 1, column 9: invalid character '\t' in string literal`},
		{`{"a": "abc`, "line 1, column 11: unexpected end of JSON input"},
		{`{"a" 1}`, "line 1, column 6: invalid character '1' after object key"},
		{`{1:2}`, "line 1, column 2: invalid character '1' looking for beginning of object key string"},
		{`{"a":1 "b":2}`, `line 1, column 8: invalid character '"' after object key:value pair`},
		{`{"a":[1 2]}`, "line 1, column 9: invalid character '2' after array element"},
		{`{"a":[1,]}`, "line 1, column 9: invalid character ']' looking for beginning of value"},
		{`{} {}`, "line 1, column 4: invalid character '{' after top-level value"},
		{`{"a": 'x'}`, `line 1, column 7: invalid character '\'' looking for beginning of value`},
		// Columns count characters, not bytes.
		{`{"név": é}`, "line 1, column 9: invalid character 'Ã' looking for beginning of value"},
	}
	for _, tt := range tests {
		_, err := Scan([]byte(tt.input))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Scan(%q): want *SyntaxError, got %T %v", tt.input, err, err)
			continue
		}
		if se.Error() != tt.want {
			t.Errorf("Scan(%q):\n got %s\nwant %s", tt.input, se.Error(), tt.want)
		}
		checkSyntaxMatchesEncodingJSON(t, []byte(tt.input), se)
	}
}

// checkSyntaxMatchesEncodingJSON checks that encoding/json rejects data with
// the same message at the same place.
func checkSyntaxMatchesEncodingJSON(t *testing.T, data []byte, se *SyntaxError) {
	t.Helper()
	var raw json.RawMessage
	err := json.Unmarshal(data, &raw)
	var je *json.SyntaxError
	if !errors.As(err, &je) {
		t.Fatalf("%q: we report %v, encoding/json reports %v", data, se, err)
	}
	// encoding/json's Offset counts the offending byte as read; at the end
	// of input it is the input length, as ours.
	want := int64(se.Offset)
	if se.Offset < len(data) {
		want++
	}
	if je.Error() != se.Msg || je.Offset != want {
		t.Fatalf("%q: we report %q at offset %d, encoding/json %q at offset %d", data, se.Msg, se.Offset, je.Error(), je.Offset)
	}
}

// FuzzSyntaxMatchesEncodingJSON checks that the reader accepts exactly what
// encoding/json accepts and reports the same error at the same place, and
// that it decodes strings the same way.
func FuzzSyntaxMatchesEncodingJSON(f *testing.F) {
	for _, s := range []string{
		``, `{}`, `[]`, `{"resources":[]}`, Sample(), `{"a":[1,-2.5e+3,true,false,null,"x\n\u00e9\ud83d\ude00"]}`,
		`{"a": tru}`, `{"a":"\ud800"}`, "\"\xff\xfe\"", `[01]`, `{"a":1,}`, `"\u12`, `-`, `1.`, ` 1 2`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &reader{data: data}
		var err error
		func() {
			defer func() {
				if e := recover(); e != nil {
					err = e.(abort).err
				}
			}()
			r.skip()
			r.ws()
			if r.pos < len(data) {
				r.fail("after top-level value")
			}
		}()
		var le *LimitError
		if errors.As(err, &le) {
			return // deeper than MaxDepth: encoding/json allows 10000 levels
		}
		if err == nil {
			if !json.Valid(data) {
				t.Fatalf("%q: we accept it, encoding/json does not", data)
			}
			checkStringsMatchEncodingJSON(t, data)
			return
		}
		checkSyntaxMatchesEncodingJSON(t, data, err.(*SyntaxError))
	})
}

// checkStringsMatchEncodingJSON decodes a valid top-level string with both
// decoders.
func checkStringsMatchEncodingJSON(t *testing.T, data []byte) {
	r := &reader{data: data}
	if r.valueStart() != '"' {
		return
	}
	got := string(r.str())
	var want string
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("%q: we decode %q, encoding/json %q", data, got, want)
	}
}

func TestDecodeStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{
		`"plain"`, `"caf\u00e9"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\ude00x"`, `"\ud83d\u0041"`,
		`"tab\there\/\\\"\b\f\r\n"`, "\"bad \xff utf8 \xe2\x82\"", `"é"`,
	} {
		checkStringsMatchEncodingJSON(t, []byte(s))
	}
}

func TestDepthLimit(t *testing.T) {
	nested := func(n int) string {
		// root object (1) > resources array (2) > resource object (3) > n arrays
		return `{"resources":[{"type":"s3_bucket","name":"b","extra":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}]}`
	}
	if _, err := Scan([]byte(nested(MaxDepth - 3))); err != nil {
		t.Fatalf("depth %d: %v", MaxDepth, err)
	}
	_, err := Scan([]byte(nested(MaxDepth - 2)))
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != "depth" || le.Max != MaxDepth {
		t.Fatalf("depth %d: want depth LimitError, got %T %v", MaxDepth+1, err, err)
	}
	want := "JSON nesting is deeper than 32 levels at line 1, column 83; the limit is 32"
	if le.Error() != want {
		t.Errorf("got %q, want %q", le.Error(), want)
	}
}

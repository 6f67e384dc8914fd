package httpx

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"parapet/app/apierr"
)

var jsonCheckCases = []string{
	`{"model":"m","messages":[{"role":"user","content":"hi"}],"max_tokens":10}`,
	`{"a":1,"a":2}`,
	`{"a":1,"\u0061":2}`,
	`{"a":{"b":1},"c":{"b":2}}`,
	`{"a":{"b":1,"b":1}}`,
	`[{"a":1},{"a":1}]`,
	`{"s":"x\u0000y"}`,
	`{"s":"x\\u0000y"}`,
	`{"\u0000":1}`,
	`{"a":1,}{"a":1,"a":1}`,
	`{"a":01,"a":1}`,
	`{"a":1.,"a":1}`,
	`{"a":-,"a":1}`,
	`{"a":1e+5,"b":-0.5E-3,"a":1}`,
	`{"a":truex,"a":1}`,
	`{} {"a":1,"a":2}`,
	`1 2 "x" null`,
	`{"a":"\x","a":1}`,
	`{"a":"\ud800","a":1}`,
	"{\"a\":\"\x01\",\"a\":1}",
	`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k3":3}`,
	`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k16":17}`,
	strings.Repeat("[", 201) + strings.Repeat("]", 201),
	strings.Repeat("[", 200) + strings.Repeat("]", 200),
	"\xff",
	``,
	`   `,
}

// TestCheckJSONTextAgreesWithTokenizer holds the one-pass check to the
// tokenizer's answers: the same refusals, with the same messages, and
// nothing refused that it accepts.
func TestCheckJSONTextAgreesWithTokenizer(t *testing.T) {
	for _, body := range jsonCheckCases {
		assertAgree(t, []byte(body))
	}
}

func FuzzCheckJSONText(f *testing.F) {
	for _, body := range jsonCheckCases {
		f.Add([]byte(body))
	}
	f.Fuzz(assertAgree)
}

func assertAgree(t *testing.T, body []byte) {
	got, want := errText(checkJSONText(body)), errText(tokenCheck(body))
	if got != want {
		t.Errorf("%q: one pass says %q, the tokenizer %q", body, got, want)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestCheckJSONTextRefusals(t *testing.T) {
	for body, want := range map[string]string{
		`{"model":"a","model":"b"}`: `repeats the key "model"`,
		`{"m":"a","\u006d":"b"}`:    `repeats the key "m"`,
		`{"content":"a\u0000b"}`:    "NUL character",
		strings.Repeat("[", 300):    "nested more than 200 levels",
		"{\"a\":\"\xc3\x28\"}":      "not valid UTF-8",
	} {
		if got := errText(checkJSONText([]byte(body))); !strings.Contains(got, want) {
			t.Errorf("%q: got %q, want it to say %q", body, got, want)
		}
	}
	if err := checkJSONText([]byte(`{"a":{"a":{"a":1}},"b":[1,2,{"a":1}]}`)); err != nil {
		t.Errorf("a key repeated at other depths is refused: %v", err)
	}
}

// A wide object costs its length, not its square.
func TestCheckJSONTextWideObject(t *testing.T) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i := range 100000 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k`)
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(strconv.Itoa(i))
		b.WriteString(`":1`)
	}
	b.WriteString(`,"k0":2}`)
	if got := errText(checkJSONText(b.Bytes())); !strings.Contains(got, `repeats the key "k0"`) {
		t.Fatalf("got %q", got)
	}
}

func BenchmarkCheckJSONText(b *testing.B) {
	body := []byte(`{"model":"claude-sonnet","max_tokens":256,"stream":false,"metadata":{"user_id":"u-123"},` +
		`"messages":[{"role":"system","content":"You are terse."},{"role":"user","content":"` +
		strings.Repeat(`Summarise the incident report in two lines.\n`, 20) + `"}]}`) // a prompt has line breaks: escapes
	b.Run("one-pass", func(b *testing.B) {
		for b.Loop() {
			_ = checkJSONText(body)
		}
	})
	b.Run("tokenizer", func(b *testing.B) {
		for b.Loop() {
			_ = tokenCheck(body)
		}
	})
}

// tokenCheck is the check written the slow, plain way, with
// encoding/json's tokenizer: checkJSONText must agree with it on every
// input.
func tokenCheck(body []byte) error {
	if !utf8.Valid(body) {
		return apierr.InvalidRequest("the request body is not valid UTF-8: send JSON encoded as UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	type frame struct {
		object  bool
		keys    map[string]struct{}
		wantKey bool
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil // io.EOF, or a syntax error for the handler to explain
		}
		top := (*frame)(nil)
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				if len(stack) >= maxJSONDepth {
					return apierr.InvalidRequest("the JSON body is nested more than %d levels deep", maxJSONDepth)
				}
				if top != nil && top.object {
					top.wantKey = true
				}
				stack = append(stack, &frame{object: v == '{', keys: map[string]struct{}{}, wantKey: v == '{'})
			default:
				stack = stack[:len(stack)-1]
			}
			continue
		case string:
			if strings.IndexByte(v, 0) >= 0 {
				return apierr.InvalidRequest("a JSON string holds a NUL character (\\u0000), which is not accepted")
			}
			if top != nil && top.object && top.wantKey {
				if _, dup := top.keys[v]; dup {
					return apierr.InvalidRequest("the JSON object repeats the key %q: send each key once", v)
				}
				top.keys[v] = struct{}{}
				top.wantKey = false
				continue
			}
		}
		if top != nil && top.object {
			top.wantKey = true
		}
	}
}

package gateway

import (
	"reflect"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// An answer, a content block and usage are read token by token as v2 reads
// their wire structs by reflection: the same values and the same refusals.
func TestBlockAndUsageDecodeAsReflection(t *testing.T) {
	opts := jsontext.AllowInvalidUTF8(true)
	for _, body := range []string{
		`{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"Hi"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":1}}`,
		`{"type":"message","content":[],"stop_sequence":"\n\nHuman:","container":{"id":"c"},"usage":null}`,
		`{"content":null,"stop_reason":null,"model":null}`, `{"\u0069d":"escaped name","t\u0079pe":"message"}`,
		`{"content":[{"type":"text","text":"a"},null,{"type":"tool_use","id":"t","name":"f","input":{"x":1}}]}`,
		`{"id":"a","id":"b"}`, `{"content":{}}`, `{"content":[1]}`, `{"usage":[]}`, `{"stop_sequence":3}`, `{"ID":"x"}`,
		`{"id":"\ud800 lone"}`, "{\"\\u0069d\xff\":\"x\",\"id\":\"y\"}", `{"i\u0064":"x","id":"y"}`, `{"\u0069d":"x","i\u0064":"y"}`,
		`{"id":"x"`, `{"id":"x",}`, `null`, `[]`, `"message"`, `{"usage":{"input_tokens":1e400}}`,
	} {
		var got Message
		gotErr := jsonv2.Unmarshal([]byte(body), &got, opts)
		var want messageWire // no methods: v2's reflection
		wantErr := jsonv2.Unmarshal([]byte(body), &want, opts)
		if (gotErr == nil) != (wantErr == nil) {
			t.Errorf("message %s: error %v, reflection's %v", body, gotErr, wantErr)
		} else if gotErr == nil && !reflect.DeepEqual(got, Message(want)) {
			t.Errorf("message %s:\n got %#v\nwant %#v", body, got, want)
		}
	}
	for _, body := range []string{
		`{"type":"text","text":"Hi"}`,
		`{"type":"text","text":null,"citations":[{"type":"char_location","cited_text":"x"}],"cache_control":{"type":"ephemeral"}}`,
		`{"type":"tool_use","id":"toolu_1","name":"get","input":{ "q" : [1, 2, {"a":null}] }}`,
		`{"type":"tool_use","id":"toolu_1","name":"get","input":null}`,
		`{"type":"thinking","thinking":"hmm","signature":"c2ln"}`, `{"type":"thinking","thinking":"","signature":null}`,
		`{"type":"redacted_thinking","data":"abc"}`,
		`{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"r"}],"is_error":true}`,
		`{"type":"tool_result","tool_use_id":"t","content":"plain","is_error":null}`,
		`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAA"},"title":"t","context":"c"}`,
		`{"type":"server_tool_use","id":"s","name":"web_search","input":{},"extra":[1,{"x":true}]}`,
		`{"type":"text","text":"a","text":"b"}`, `{"type":5}`, `{"text":7}`, `{"input":}`, `{"is_error":"yes"}`,
		`{"source":"here"}`, `{"type":"text"`, `[]`, `"text"`, `null`, `{"Type":"text"}`, `{"type":"t\u00e9\ud83d\ude00"}`,
	} {
		var got ContentBlock
		gotErr := jsonv2.Unmarshal([]byte(body), &got, opts)
		var w blockWire // no methods: v2's reflection
		var want ContentBlock
		wantErr := jsonv2.Unmarshal([]byte(body), &w, opts)
		if wantErr == nil {
			want.fromWire(w)
		}
		if (gotErr == nil) != (wantErr == nil) {
			t.Errorf("block %s: error %v, reflection's %v", body, gotErr, wantErr)
		} else if gotErr == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("block %s:\n got %#v\nwant %#v", body, got, want)
		}
	}
	for _, body := range []string{
		`{"input_tokens":3,"output_tokens":1}`,
		`{"input_tokens":10,"cache_read_input_tokens":5,"cache_creation_input_tokens":2,"output_tokens":7,"server_tool_use":{"web_search_requests":1}}`,
		`{"input_tokens":1.5,"output_tokens":-2,"cache_read_input_tokens":1e12}`, `{"input_tokens":null}`, `null`, `{}`,
		`{"input_tokens":"3"}`, `{"input_tokens":1,"input_tokens":2}`, `[]`, `{"input_tokens":1e400}`, `{"output_tokens":true}`,
		`{"input_tokens":-0,"output_tokens":0.0000001,"cache_read_input_tokens":12345678901234567890}`, `{"input_tokens":{}}`,
	} {
		var got Usage
		gotErr := jsonv2.Unmarshal([]byte(body), &got, opts)
		var w usageWire
		var want Usage
		wantErr := jsonv2.Unmarshal([]byte(body), &w, opts)
		if wantErr == nil {
			want = lenientUsage(w.InputTokens, w.OutputTokens)
			want.CacheCreationInputTokens = want.read(w.CacheCreationInputTokens)
			want.CacheReadInputTokens = want.read(w.CacheReadInputTokens)
		}
		if (gotErr == nil) != (wantErr == nil) {
			t.Errorf("usage %s: error %v, reflection's %v", body, gotErr, wantErr)
		} else if gotErr == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("usage %s:\n got %#v\nwant %#v", body, got, want)
		}
	}
}

// messageWire is Message without its methods, as v2 reads it by reflection.
type messageWire Message

// FuzzAnswerDecodeAsReflection: whatever an upstream sends, an answer read
// token by token has the values and the refusals of v2's reflection, and
// never panics.
func FuzzAnswerDecodeAsReflection(f *testing.F) {
	f.Add(`{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"Hi"},{"type":"tool_use","id":"t","name":"f","input":{}}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":1,"cache_read_input_tokens":2}}`)
	f.Add(`{"content":[{"type":"thinking","thinking":"x","signature":"s"},{"type":"tool_result","content":[{"type":"text","text":"r"}],"is_error":true}]}`)
	f.Add("{\"\\u0069d\xff\":1,\"t\\u0079pe\":\"image\",\"source\":{\"type\":\"url\",\"url\":\"u\"}}")
	opts := jsontext.AllowInvalidUTF8(true)
	f.Fuzz(func(t *testing.T, body string) {
		var got Message
		gotErr := jsonv2.Unmarshal([]byte(body), &got, opts)
		var want messageWire
		wantErr := jsonv2.Unmarshal([]byte(body), &want, opts)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%q: error %v, reflection's %v", body, gotErr, wantErr)
		}
		if gotErr == nil && !reflect.DeepEqual(got, Message(want)) {
			t.Fatalf("%q:\n got %#v\nwant %#v", body, got, want)
		}
	})
}

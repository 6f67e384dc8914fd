package gateway

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestMessageJSON(t *testing.T) {
	seq := "END"
	tests := []struct {
		name string
		msg  Message
		want string
	}{
		{"complete answer",
			Message{ID: "msg_1", Model: "m", Content: []ContentBlock{{Type: "text", Text: "Hi"}},
				StopReason: StopStopSequence, StopSequence: &seq, Usage: Usage{InputTokens: 3, OutputTokens: 1}},
			`{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"Hi"}],"stop_reason":"stop_sequence","stop_sequence":"END","usage":{"input_tokens":3,"output_tokens":1}}`},
		{"stream skeleton: empty content and null stop_reason",
			Message{ID: "msg_1", Model: "m", Usage: Usage{InputTokens: 3}},
			`{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":0}}`},
		{"strings escaped as encoding/json escapes them, every block type",
			Message{ID: "msg_<1>", Model: "m&m", Content: []ContentBlock{
				{Type: BlockThinking, Thinking: "a < b", Signature: "sig"},
				{Type: "text", Text: "bad \xff byte, \u2028 and \"quotes\""},
				{Type: BlockToolUse, ID: "toolu_1", Name: "get", Input: json.RawMessage(`{"q": "<x>"}`)},
			}, StopReason: StopToolUse, Usage: Usage{InputTokens: 3, OutputTokens: 9, CacheReadInputTokens: 2}},
			`{"id":"msg_\u003c1\u003e","type":"message","role":"assistant","model":"m\u0026m","content":[` +
				`{"type":"thinking","thinking":"a \u003c b","signature":"sig"},{"type":"text","text":"bad \ufffd byte, \u2028 and \"quotes\""},` +
				`{"type":"tool_use","id":"toolu_1","name":"get","input":{"q":"\u003cx\u003e"}}],"stop_reason":"tool_use","stop_sequence":null,` +
				`"usage":{"input_tokens":3,"output_tokens":9,"cache_read_input_tokens":2}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// JSON, and an encoder given the Message, write the same bytes.
			got, err := tt.msg.JSON()
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("JSON: got  %s\nwant %s", got, tt.want)
			}
			if got, err = json.Marshal(tt.msg); err != nil || string(got) != tt.want {
				t.Errorf("json.Marshal: got  %s (%v)\nwant %s", got, err, tt.want)
			}
		})
	}
	if id := newMessageID(); !strings.HasPrefix(id, "msg_") || len(id) < 20 || id == newMessageID() {
		t.Errorf("message id %q", id)
	}
}

func TestEventJSON(t *testing.T) {
	seq := "###"
	tests := []struct {
		ev   Event
		want string
	}{
		{Event{Type: EventMessageStart, Message: &Message{ID: "msg_1", Model: "m", Usage: Usage{InputTokens: 25, OutputTokens: 1}}},
			`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":25,"output_tokens":1}}}`},
		{Event{Type: EventContentBlockStart}, `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`},
		{Event{Type: EventContentBlockDelta, Index: 1, Text: "Hello"}, `{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hello"}}`},
		{Event{Type: EventContentBlockStop}, `{"type":"content_block_stop","index":0}`},
		{Event{Type: EventMessageDelta, StopReason: StopEndTurn, Usage: &Usage{OutputTokens: 15}},
			`{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":15}}`},
		{Event{Type: EventMessageDelta, StopReason: StopStopSequence, StopSequence: &seq, Usage: &Usage{InputTokens: 9, OutputTokens: 2}},
			`{"type":"message_delta","delta":{"stop_reason":"stop_sequence","stop_sequence":"###"},"usage":{"input_tokens":9,"output_tokens":2}}`},
		{Event{Type: EventMessageStop}, `{"type":"message_stop"}`},
		{Event{Type: EventPing}, `{"type":"ping"}`},
		{Event{Type: EventError, Error: &ErrorBody{Type: "overloaded_error", Message: "Overloaded"}},
			`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.ev.Type, func(t *testing.T) {
			got, err := json.Marshal(tt.ev)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			var back Event
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			again, _ := json.Marshal(back)
			if string(again) != tt.want {
				t.Errorf("round trip gave %s", again)
			}
		})
	}
	for _, bad := range []Event{{Type: "nonsense"}, {Type: EventMessageStart}, {Type: EventError}} {
		if _, err := json.Marshal(bad); err == nil {
			t.Errorf("%+v marshalled", bad)
		}
	}
}

func TestErrorAnthropicJSON(t *testing.T) {
	tests := []struct {
		err        Error
		wantStatus int
		wantType   string
	}{
		{Error{Status: 400, Code: CodeInvalidRequest}, 400, "invalid_request_error"},
		{Error{Status: 401, Code: "invalid_api_key"}, 401, "authentication_error"},
		{Error{Status: 403, Code: "not_entitled"}, 403, "permission_error"},
		{Error{Status: 404, Code: "not_found"}, 404, "not_found_error"},
		{Error{Status: 413, Code: "payload_too_large"}, 413, "request_too_large"},
		{Error{Status: 429, Code: "rate_limited"}, 429, "rate_limit_error"},
		{Error{Status: 429, Code: "quota_exceeded"}, 429, "rate_limit_error"},
		{Error{Status: 500, Code: "internal_error"}, 500, "api_error"},
		{Error{Status: 502, Code: CodeUpstreamError}, 502, "api_error"},
		{Error{Status: 502, Code: CodeUpstreamUnavailable}, 502, "api_error"},
		{Error{Status: 503, Code: CodeUpstreamOverloaded}, 529, "overloaded_error"},
		{Error{Status: 504, Code: CodeUpstreamTimeout}, 504, "timeout_error"},
		{Error{Status: 415, Code: "unsupported_media_type"}, 415, "invalid_request_error"},
		{Error{Status: 408, Code: "request_timeout"}, 408, "invalid_request_error"},
	}
	for _, tt := range tests {
		t.Run(tt.err.Code, func(t *testing.T) {
			tt.err.Message = `say "hi"`
			if got := tt.err.AnthropicStatus(); got != tt.wantStatus {
				t.Errorf("status %d, want %d", got, tt.wantStatus)
			}
			want := `{"type":"error","error":{"type":"` + tt.wantType + `","message":"say \"hi\"","code":"` + tt.err.Code + `","request_id":"req_1"},"request_id":"req_1"}`
			if got := string(tt.err.AnthropicJSON("req_1")); got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := map[string]int{
		"":    0,
		"30":  30,
		"0":   0,
		"1.2": 2,
		"-5":  0,
		"abc": 0,
		now.Add(10 * time.Second).Format(http.TimeFormat): 10,
		now.Add(-time.Minute).Format(http.TimeFormat):     0,
	}
	for in, want := range tests {
		if got := parseRetryAfter(in, now); got != want {
			t.Errorf("parseRetryAfter(%q) = %d, want %d", in, got, want)
		}
	}
}

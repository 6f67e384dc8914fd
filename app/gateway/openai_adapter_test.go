package gateway

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

func checkOpenAICall(t *testing.T, r *http.Request, wantBody string) {
	t.Helper()
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		t.Errorf("%s %s", r.Method, r.URL.Path)
	}
	if r.Header.Get("Authorization") != "Bearer "+testKey || r.Header.Get("x-api-key") != "" ||
		r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("headers %v", r.Header)
	}
	body, _ := io.ReadAll(r.Body)
	if !jsonEqual(t, string(body), wantBody) {
		t.Errorf("upstream got %s\nwant %s", body, wantBody)
	}
}

func TestOpenAIComplete(t *testing.T) {
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		// top_k has no equivalent and is dropped.
		checkOpenAICall(t, r, `{"model":"claude-sonnet-4-5","max_tokens":256,
			"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello"},{"role":"user","content":"Bye"}],
			"temperature":0.2,"top_p":0.9,"stop":["END"],"user":"u-1"}`)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, openAICompletion)
	})
	msg, rep, err := newTestProxy(t, srv.URL, StyleOpenAI).Complete(context.Background(), fullRequest())
	if err != nil {
		t.Fatal(err)
	}
	if len(msg.ID) < 20 || msg.ID[:4] != "msg_" {
		t.Errorf("id %q", msg.ID)
	}
	msg.ID = "msg_x"
	got, _ := json.Marshal(msg)
	want := `{"id":"msg_x","type":"message","role":"assistant","model":"gpt-4o-mini-2024-07-18",
		"content":[{"type":"text","text":"Hello there, how may I assist you today?"}],"stop_reason":"end_turn","stop_sequence":null,
		"usage":{"input_tokens":9,"output_tokens":12}}`
	if !jsonEqual(t, string(got), want) {
		t.Errorf("got %s", got)
	}
	if rep.Usage != (Usage{InputTokens: 9, OutputTokens: 12}) || rep.StopReason != StopEndTurn || rep.Model != "gpt-4o-mini-2024-07-18" {
		t.Errorf("report %+v", rep)
	}
}

// A tool call cut short by max_tokens (finish_reason "length", its
// arguments no whole JSON) is no call to make: the answer ends at
// max_tokens with what came before it, as a stream's would, instead of
// failing as invalid; arguments that are JSON but no object still fail.
func TestOpenAICompleteToolCallCutShort(t *testing.T) {
	for args, wantErr := range map[string]bool{`{\"city\": \"Ber`: false, `[1,2]`: true} {
		srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"id":"c1","model":"gpt-x","choices":[{"index":0,"finish_reason":"length","message":{"role":"assistant","content":"Let me look.",`+
				`"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get","arguments":"`+args+`"}}]}}],"usage":{"prompt_tokens":5,"completion_tokens":16}}`)
		})
		msg, _, err := newTestProxy(t, srv.URL, StyleOpenAI).Complete(context.Background(), testRequest())
		if wantErr {
			assertError(t, err, 502, CodeUpstreamError, "invalid response from upstream")
			continue
		}
		if err != nil || msg.StopReason != StopMaxTokens || len(msg.Content) != 1 || msg.Content[0].Text != "Let me look." {
			t.Errorf("cut short: %v %+v", err, msg)
		}
	}
}

func TestOpenAIStopReasons(t *testing.T) {
	req := &Request{StopSequences: []string{"END", "STOP"}}
	tests := []struct {
		finish, matched string
		want            string
		wantSeq         string
	}{
		{"stop", ``, StopEndTurn, ""},
		{"stop", `null`, StopEndTurn, ""},
		{"stop", `"STOP"`, StopStopSequence, "STOP"}, // vLLM names the stop string
		{"stop", `"OTHER"`, StopEndTurn, ""},
		{"stop", `50256`, StopEndTurn, ""}, // vLLM: a stop token id
		{"length", ``, StopMaxTokens, ""},
		{"content_filter", ``, StopRefusal, ""},
		{"tool_calls", ``, StopToolUse, ""},
		{"", ``, StopEndTurn, ""},
	}
	for _, tt := range tests {
		var matched any // the field as the response decodes it
		if tt.matched != "" {
			_ = json.Unmarshal([]byte(tt.matched), &matched)
		}
		got, seq := openAIStop(tt.finish, matched, req)
		var gotSeq string
		if seq != nil {
			gotSeq = *seq
		}
		if got != tt.want || gotSeq != tt.wantSeq {
			t.Errorf("%s %s: got %s %q, want %s %q", tt.finish, tt.matched, got, gotSeq, tt.want, tt.wantSeq)
		}
	}
}

// TestOpenAIStream: chunks become Messages events, with usage from the final
// chunk, as an Anthropic SDK expects them.
func TestOpenAIStream(t *testing.T) {
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		checkOpenAICall(t, r, `{"model":"test-model","max_tokens":100,"messages":[{"role":"user","content":"Hello"}],
			"stream":true,"stream_options":{"include_usage":true}}`)
		startSSE(w)
		for _, data := range openAIStream {
			writeSSE(w, "", data)
		}
	})
	gw, results := serveGateway(t, newTestProxy(t, srv.URL, StyleOpenAI), testRequest())
	evs := readEvents(t, postStream(t, context.Background(), testClient(t), gw.URL).Body)
	// " there" ends in "e", which is part of the upstream key: it is held
	// back in case the next delta completes a run of the key, and sent in
	// one more delta before content_block_stop.
	if got := eventNames(evs); got != "message_start,content_block_start,content_block_delta,content_block_delta,content_block_delta,content_block_stop,message_delta,message_stop" {
		t.Fatalf("events %s", got)
	}
	start, _ := json.Marshal(evs[0].data["message"])
	id, _ := evs[0].data["message"].(map[string]any)["id"].(string)
	if !jsonEqual(t, string(start), `{"id":"`+id+`","type":"message","role":"assistant","model":"gpt-4o-mini-2024-07-18","content":[],
		"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":0,"output_tokens":0}}`) {
		t.Errorf("message_start %s", start)
	}
	for i, want := range []string{
		`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" ther"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"e"}}`,
		`{"type":"content_block_stop","index":0}`,
		`{"type":"message_delta","delta":{"stop_reason":"max_tokens","stop_sequence":null},"usage":{"input_tokens":9,"output_tokens":2}}`,
		`{"type":"message_stop"}`,
	} {
		got, _ := json.Marshal(evs[i+1].data)
		if !jsonEqual(t, string(got), want) {
			t.Errorf("event %d: got %s\nwant %s", i+1, got, want)
		}
	}
	res := wait(t, results, "the handler")
	if res.err != nil {
		t.Fatal(res.err)
	}
	if res.msg.Text() != "Hello there" || res.msg.Usage != (Usage{InputTokens: 9, OutputTokens: 2}) || res.report.Usage != (Usage{InputTokens: 9, OutputTokens: 2}) ||
		res.report.StopReason != StopMaxTokens {
		t.Errorf("message %+v, report %+v", res.msg, res.report)
	}
}

func TestOpenAIStreamErrorChunk(t *testing.T) {
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		startSSE(w)
		writeSSE(w, "", openAIStream[0])
		writeSSE(w, "", openAIStream[1])
		writeSSE(w, "", `{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}`)
	})
	gw, results := serveGateway(t, newTestProxy(t, srv.URL, StyleOpenAI), testRequest())
	evs := readEvents(t, postStream(t, context.Background(), testClient(t), gw.URL).Body)
	if got := eventNames(evs); got != "message_start,content_block_start,content_block_delta,error" {
		t.Fatalf("events %s", got)
	}
	last, _ := json.Marshal(evs[3].data)
	if !jsonEqual(t, string(last), `{"type":"error","error":{"type":"api_error","message":"upstream failed mid-response: The server had an error while processing your request.","code":"upstream_error"}}`) {
		t.Errorf("error event %s", last)
	}
	assertError(t, wait(t, results, "the handler").err, 502, CodeUpstreamError, "")
}

// TestOpenAIStreamWithoutDone: a stream that ends without [DONE] failed,
// after "Hello there" was delivered: it is metered by that text (11
// bytes, 2 deltas: 4 tokens), and the input estimated.
func TestOpenAIStreamWithoutDone(t *testing.T) {
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		startSSE(w)
		for _, data := range openAIStream[:5] { // everything but [DONE]
			writeSSE(w, "", data)
		}
	})
	_, rep, err := newTestProxy(t, srv.URL, StyleOpenAI).Stream(context.Background(), testRequest(), func(Event) error { return nil })
	assertError(t, err, 502, CodeUpstreamError, "the upstream stream ended before it was complete")
	if rep.Usage != (Usage{InputTokens: EstimateInputTokens(testRequest()), OutputTokens: 4}) || rep.UsageFlag != UsageEstimated || rep.Status != 502 {
		t.Errorf("report %+v", rep)
	}
}

package gateway

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

// checkMessagesCall asserts what the messages adapter sends upstream.
func checkMessagesCall(t *testing.T, r *http.Request, wantBody string) {
	t.Helper()
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		t.Errorf("%s %s", r.Method, r.URL.Path)
	}
	if r.Header.Get("x-api-key") != testKey || r.Header.Get("anthropic-version") != "2023-06-01" ||
		r.Header.Get("Content-Type") != "application/json" || r.Header.Get("Authorization") != "" {
		t.Errorf("headers %v", r.Header)
	}
	body, _ := io.ReadAll(r.Body)
	if !jsonEqual(t, string(body), wantBody) {
		t.Errorf("upstream got %s\nwant %s", body, wantBody)
	}
}

func fullRequest() *Request {
	return &Request{Model: "claude-sonnet-4-5", MaxTokens: 256, System: "Be brief.",
		Messages:    []ChatMessage{{Role: "user", Content: "Hi"}, {Role: "assistant", Content: "Hello"}, {Role: "user", Content: "Bye"}},
		Temperature: new(0.2), TopP: new(0.9), TopK: new(5), StopSequences: []string{"END"},
		Metadata: Metadata{UserID: "u-1"}}
}

func TestMessagesComplete(t *testing.T) {
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		checkMessagesCall(t, r, `{"model":"claude-sonnet-4-5","max_tokens":256,"system":"Be brief.",
			"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello"},{"role":"user","content":"Bye"}],
			"temperature":0.2,"top_p":0.9,"top_k":5,"stop_sequences":["END"],"metadata":{"user_id":"u-1"}}`)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, anthropicMessage)
	})
	p := newTestProxy(t, srv.URL, StyleMessages)
	msg, rep, err := p.Complete(context.Background(), fullRequest())
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(msg)
	want := `{"id":"msg_013Zva2CMHLNnXjNJJKqJ2EF","type":"message","role":"assistant","model":"claude-sonnet-4-5",
		"content":[{"type":"text","text":"Hi! My name is Claude."}],"stop_reason":"end_turn","stop_sequence":null,
		"usage":{"input_tokens":31,"output_tokens":9}}`
	if !jsonEqual(t, string(got), want) {
		t.Errorf("got %s", got)
	}
	if rep.Usage != (Usage{InputTokens: 31, OutputTokens: 9}) || rep.StopReason != StopEndTurn || rep.Status != 200 || rep.ErrorCode != "" ||
		rep.Attempts != 1 || rep.Stream || rep.Model != "claude-sonnet-4-5" || rep.Latency <= 0 {
		t.Errorf("report %+v", rep)
	}
}

func TestMessagesCompleteRefusesNonText(t *testing.T) {
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"server_tool_use","id":"t","name":"web_search","input":{}}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`)
	})
	_, rep, err := newTestProxy(t, srv.URL, StyleMessages).Complete(context.Background(), testRequest())
	assertError(t, err, 502, CodeUpstreamError, `upstream answered with a "server_tool_use" content block; this gateway relays text, tool_use and thinking blocks`)
	if rep.Status != 502 || rep.ErrorCode != CodeUpstreamError {
		t.Errorf("report %+v", rep)
	}
}

// TestMessagesStreamPassthrough: the upstream's events reach the client in
// order and unchanged; events a text-only client cannot use are dropped.
func TestMessagesStreamPassthrough(t *testing.T) {
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		checkMessagesCall(t, r, `{"model":"test-model","max_tokens":100,"messages":[{"role":"user","content":"Hello"}],"stream":true}`)
		if r.Header.Get("Accept") != "text/event-stream" {
			t.Errorf("Accept %q", r.Header.Get("Accept"))
		}
		startSSE(w)
		for i, ev := range anthropicStream {
			writeSSE(w, ev.name, ev.data)
			if i == 3 { // noise a real stream may carry
				io.WriteString(w, ": keep-alive comment\n\n")
				writeSSE(w, "future_event", `{"type":"future_event","x":1}`)
				writeSSE(w, "content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{}}}`)
			}
		}
	})
	p := newTestProxy(t, srv.URL, StyleMessages)
	gw, results := serveGateway(t, p, testRequest())
	resp := postStream(t, context.Background(), testClient(t), gw.URL)
	evs := readEvents(t, resp.Body)
	if len(evs) != len(anthropicStream) {
		t.Fatalf("got events %s", eventNames(evs))
	}
	for i, ev := range evs {
		got, _ := json.Marshal(ev.data)
		if ev.name != anthropicStream[i].name || !jsonEqual(t, string(got), anthropicStream[i].data) {
			t.Errorf("event %d: got %s %s\nwant %s %s", i, ev.name, got, anthropicStream[i].name, anthropicStream[i].data)
		}
	}
	res := wait(t, results, "the handler")
	if res.err != nil {
		t.Fatal(res.err)
	}
	if res.msg.Text() != "Hello, world" || res.msg.ID != "msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY" || res.msg.StopReason != StopEndTurn {
		t.Errorf("message %+v", res.msg)
	}
	if r := res.report; r.Usage != (Usage{InputTokens: 25, OutputTokens: 15}) || r.StopReason != StopEndTurn || !r.Stream || r.Status != 200 ||
		r.Model != "claude-sonnet-4-5" || r.Latency <= 0 {
		t.Errorf("report %+v", r)
	}
}

func TestMessagesStreamRefusesNonTextBlock(t *testing.T) {
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		startSSE(w)
		writeSSE(w, "message_start", anthropicStream[0].data)
		writeSSE(w, "content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"web_search_tool_result","tool_use_id":"t"}}`)
	})
	gw, results := serveGateway(t, newTestProxy(t, srv.URL, StyleMessages), testRequest())
	evs := readEvents(t, postStream(t, context.Background(), testClient(t), gw.URL).Body)
	if eventNames(evs) != "message_start,error" {
		t.Fatalf("got %s", eventNames(evs))
	}
	assertError(t, wait(t, results, "the handler").err, 502, CodeUpstreamError,
		`upstream answered with a "web_search_tool_result" content block; this gateway relays text, tool_use and thinking blocks`)
}

// A stream's events are read as answers are: an event that names a member
// twice ends the stream as an invalid response; a bad byte in a delta's
// text is replaced.
func TestMessagesStreamEventReading(t *testing.T) {
	for _, tc := range []struct{ delta, want string }{
		{`{"type":"text_delta","text":"a","text":"b"}`, "error"},
		{"{\"type\":\"text_delta\",\"text\":\"ok \xff\"}", "ok \uFFFD"},
	} {
		srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
			startSSE(w)
			writeSSE(w, "message_start", anthropicStream[0].data)
			writeSSE(w, "content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
			writeSSE(w, "content_block_delta", `{"type":"content_block_delta","index":0,"delta":`+tc.delta+`}`)
			for _, ev := range anthropicStream[len(anthropicStream)-3:] {
				writeSSE(w, ev.name, ev.data)
			}
		})
		gw, results := serveGateway(t, newTestProxy(t, srv.URL, StyleMessages), testRequest())
		evs := readEvents(t, postStream(t, context.Background(), testClient(t), gw.URL).Body)
		res := wait(t, results, "the handler")
		if tc.want == "error" {
			if eventNames(evs) != "message_start,content_block_start,error" {
				t.Errorf("a member named twice: got %s", eventNames(evs))
			}
			assertError(t, res.err, 502, CodeUpstreamError, "invalid response from upstream")
			continue
		}
		if res.err != nil || res.msg.Text() != tc.want {
			t.Errorf("invalid UTF-8: got %v %+v", res.err, res.msg)
		}
	}
}

// An answer is read strictly where it could mislead (a field named twice:
// which one was meant?) and leniently where the call is already billed (a
// bad byte in the text is replaced, not fatal).
func TestMessagesAnswerReading(t *testing.T) {
	answer := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, body)
		}
	}
	twice := `{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"a"}],` +
		`"content":[{"type":"text","text":"b"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`
	p := newTestProxy(t, upstream(t, answer(twice)).URL, StyleMessages)
	_, _, err := p.Complete(context.Background(), testRequest())
	assertError(t, err, 502, CodeUpstreamError, "invalid response from upstream")

	bad := "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[{\"type\":\"text\",\"text\":\"ok \xff end\"}]," +
		"\"stop_reason\":\"end_turn\",\"usage\":{\"input_tokens\":1,\"output_tokens\":2}}"
	p = newTestProxy(t, upstream(t, answer(bad)).URL, StyleMessages)
	msg, rep, err := p.Complete(context.Background(), testRequest())
	if err != nil {
		t.Fatal(err)
	}
	if msg.Text() != "ok \uFFFD end" || rep.Usage != (Usage{InputTokens: 1, OutputTokens: 2}) {
		t.Errorf("got %q, usage %+v", msg.Text(), rep.Usage)
	}
}

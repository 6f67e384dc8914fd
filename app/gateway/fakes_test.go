package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"
)

// Fakes at the edge of the world: upstreams speaking the real wire formats
// over real HTTP, and a gateway handler in front of a Proxy, as the app's
// handler will be.

const testKey = "sk-test-SECRET-0123456789"

// sseLine is one server-sent event as an upstream writes it.
type sseLine struct{ name, data string }

// anthropicStream is a stream as the Messages API sends it (from its docs).
var anthropicStream = []sseLine{
	{"message_start", `{"type":"message_start","message":{"id":"msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY","type":"message","role":"assistant","content":[],"model":"claude-sonnet-4-5","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":25,"output_tokens":1}}}`},
	{"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`},
	{"ping", `{"type": "ping"}`},
	{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}`},
	{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":", world"}}`},
	{"content_block_stop", `{"type":"content_block_stop","index":0}`},
	{"message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"input_tokens":25,"output_tokens":15}}`},
	{"message_stop", `{"type":"message_stop"}`},
}

const anthropicMessage = `{"id":"msg_013Zva2CMHLNnXjNJJKqJ2EF","type":"message","role":"assistant","model":"claude-sonnet-4-5",
	"content":[{"type":"text","text":"Hi! My name is Claude."}],"stop_reason":"end_turn","stop_sequence":null,
	"usage":{"input_tokens":31,"output_tokens":9,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}`

const openAICompletion = `{"id":"chatcmpl-123","object":"chat.completion","created":1677652288,"model":"gpt-4o-mini-2024-07-18",
	"choices":[{"index":0,"message":{"role":"assistant","content":"Hello there, how may I assist you today?","refusal":null},"logprobs":null,"finish_reason":"stop"}],
	"usage":{"prompt_tokens":9,"completion_tokens":12,"total_tokens":21}}`

// openAIStream is a stream as Chat Completions sends it with include_usage.
var openAIStream = []string{
	`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}],"usage":null}`,
	`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"delta":{"content":"Hello"},"logprobs":null,"finish_reason":null}],"usage":null}`,
	`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"delta":{"content":" there"},"logprobs":null,"finish_reason":null}],"usage":null}`,
	`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"length"}],"usage":null}`,
	`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini-2024-07-18","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":2,"total_tokens":11}}`,
	`[DONE]`,
}

// writeSSE writes one event and flushes it, as a real upstream does.
func writeSSE(w http.ResponseWriter, name, data string) {
	if name != "" {
		fmt.Fprintf(w, "event: %s\n", name)
	}
	fmt.Fprintf(w, "data: %s\n\n", data)
	w.(http.Flusher).Flush()
}

func startSSE(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
}

// upstream starts a fake upstream. Handlers that wait must also return when
// r.Context() is done, or closing the server blocks. The request body is read
// up front, as a real upstream does: net/http notices a client going away
// (and cancels r.Context()) only once the body has been consumed.
func upstream(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			t.Errorf("reading the request: %v", err)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// newTestProxy builds a Proxy on a fake upstream with short timeouts.
func newTestProxy(t *testing.T, url, style string, tweak ...func(*Config)) *Proxy {
	t.Helper()
	cfg := Config{URL: url, Key: testKey, Style: style, Model: "test-model",
		ConnectTimeout: time.Second, Timeout: 5 * time.Second, StreamIdleTimeout: 5 * time.Second}
	for _, f := range tweak {
		f(&cfg)
	}
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

func testRequest() *Request {
	return &Request{Model: "test-model", MaxTokens: 100,
		Messages: []ChatMessage{{Role: "user", Content: "Hello"}}}
}

// result is what the gateway handler observed of one call.
type result struct {
	msg    *Message
	report Report
	err    error
}

// serveGateway serves the Proxy the way the app's handler will: stream through an
// SSEWriter, and answer with an Anthropic error body when the call fails
// before the stream started. Each call's result is sent on the channel.
func serveGateway(t *testing.T, p *Proxy, req *Request) (*httptest.Server, <-chan result) {
	t.Helper()
	results := make(chan result, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sse := NewSSEWriter(w)
		msg, rep, err := p.Stream(r.Context(), req, sse.Send)
		if e, ok := errors.AsType[*Error](err); ok {
			switch {
			case !sse.Started():
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(e.AnthropicStatus())
				w.Write(e.AnthropicJSON(""))
			case e.Code != CodeClientClosed:
				sse.SendError(e, "")
			}
		}
		results <- result{msg, rep, err}
	}))
	t.Cleanup(srv.Close)
	return srv, results
}

// testClient is an HTTP client whose connections are closed after the test.
func testClient(t *testing.T) *http.Client {
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// clientEvent is an event as a client read it off the wire.
type clientEvent struct {
	name string
	data map[string]any
}

// readEvents reads the events of a gateway response until the stream ends.
func readEvents(t *testing.T, body io.Reader) []clientEvent {
	t.Helper()
	r := newSSEReader(body)
	var evs []clientEvent
	for {
		ev, err := r.next()
		if err == io.EOF {
			return evs
		}
		if err != nil {
			t.Fatalf("reading the stream: %v", err)
		}
		evs = append(evs, decodeClientEvent(t, ev))
	}
}

func decodeClientEvent(t *testing.T, ev sseEvent) clientEvent {
	t.Helper()
	var data map[string]any
	if err := json.Unmarshal(ev.data, &data); err != nil {
		t.Fatalf("event %q has invalid data %q: %v", ev.name, ev.data, err)
	}
	if data["type"] != ev.name {
		t.Errorf("event %q has data of type %v", ev.name, data["type"])
	}
	return clientEvent{ev.name, data}
}

func eventNames(evs []clientEvent) string {
	var names []string
	for _, ev := range evs {
		names = append(names, ev.name)
	}
	return strings.Join(names, ",")
}

// jsonEqual compares JSON documents by value, ignoring key order and spacing.
func jsonEqual(t *testing.T, got, want string) bool {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("got invalid JSON %q: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want invalid JSON %q: %v", want, err)
	}
	return reflect.DeepEqual(g, w)
}

// postStream opens a stream on the gateway.
func postStream(t *testing.T, ctx context.Context, c *http.Client, url string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// refusedURL is an address where nothing listens.
func refusedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

// wait receives from ch or fails the test after a few seconds.
func wait[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(5 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		panic("unreachable")
	}
}

// assertError checks err is the *Error expected; an empty message is not
// compared.
func assertError(t *testing.T, err error, status int, code, message string) *Error {
	t.Helper()
	e, ok := errors.AsType[*Error](err)
	if !ok {
		t.Fatalf("got %v (%T), want an *Error", err, err)
	}
	if e.Status != status || e.Code != code || (message != "" && e.Message != message) {
		t.Errorf("got %d %s %q\nwant %d %s %q", e.Status, e.Code, e.Message, status, code, message)
	}
	return e
}

package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestErrorMapping: every way an upstream fails, in both styles and both
// modes, becomes the documented *Error; nothing of the key leaks.
func TestErrorMapping(t *testing.T) {
	anthropicErr := func(typ, msg string) string {
		b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]string{"type": typ, "message": msg}})
		return string(b)
	}
	tests := []struct {
		name       string
		style      string
		status     int
		header     map[string]string
		body       string
		wantStatus int
		wantCode   string
		wantMsg    string
		wantRetry  int // Retry-After seconds
		wantCalls  int32
	}{
		{name: "400 relays the upstream's message", style: StyleMessages, status: 400,
			body:       anthropicErr("invalid_request_error", "messages: roles must alternate between \"user\" and \"assistant\""),
			wantStatus: 502, wantCode: CodeUpstreamError, wantCalls: 1,
			wantMsg: `upstream answered status 400: messages: roles must alternate between "user" and "assistant"`},
		{name: "400 quoting the key is scrubbed", style: StyleMessages, status: 400,
			body:       anthropicErr("invalid_request_error", "bad header "+testKey),
			wantStatus: 502, wantCode: CodeUpstreamError, wantCalls: 1,
			wantMsg: `upstream answered status 400: bad header [redacted]`},
		{name: "a key the log's truncation would cut is scrubbed", style: StyleMessages, status: 500,
			body:       anthropicErr("api_error", strings.Repeat("x", 473)+" "+testKey),
			wantStatus: 502, wantCode: CodeUpstreamError, wantCalls: 1,
			wantMsg: `upstream answered status 500: ` + strings.Repeat("x", 473) + ` [redacted]`},
		{name: "401 never relays what the upstream says of our key", style: StyleMessages, status: 401,
			body:       anthropicErr("authentication_error", "invalid x-api-key "+testKey),
			wantStatus: 502, wantCode: CodeUpstreamError, wantCalls: 1,
			wantMsg: `upstream rejected the gateway's credentials (status 401); the operator must fix the upstream key`},
		{name: "openai 401", style: StyleOpenAI, status: 401,
			body:       `{"error":{"message":"Incorrect API key provided: sk-test-***6789.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`,
			wantStatus: 502, wantCode: CodeUpstreamError, wantCalls: 1,
			wantMsg: `upstream rejected the gateway's credentials (status 401); the operator must fix the upstream key`},
		{name: "404 model", style: StyleOpenAI, status: 404,
			body:       `{"error":{"message":"The model 'x' does not exist","type":"invalid_request_error","code":"model_not_found"}}`,
			wantStatus: 502, wantCode: CodeUpstreamError, wantCalls: 1,
			wantMsg: `upstream answered status 404: The model 'x' does not exist`},
		{name: "429 with a long retry-after is passed on, not retried", style: StyleMessages, status: 429,
			header:     map[string]string{"Retry-After": "30"},
			body:       anthropicErr("rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"),
			wantStatus: 503, wantCode: CodeUpstreamOverloaded, wantRetry: 30, wantCalls: 1,
			wantMsg: `upstream is overloaded; retry later: Number of request tokens has exceeded your per-minute rate limit`},
		{name: "openai 429", style: StyleOpenAI, status: 429, header: map[string]string{"Retry-After": "20"},
			body:       `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`,
			wantStatus: 503, wantCode: CodeUpstreamOverloaded, wantRetry: 20, wantCalls: 1},
		{name: "529 is retried once", style: StyleMessages, status: 529,
			body:       anthropicErr("overloaded_error", "Overloaded"),
			wantStatus: 503, wantCode: CodeUpstreamOverloaded, wantCalls: 2,
			wantMsg: `upstream is overloaded; retry later: Overloaded`},
		{name: "503 overloaded is retried once", style: StyleOpenAI, status: 503,
			body:       `{"error":{"message":"The engine is currently overloaded, please try again later","type":"server_error"}}`,
			wantStatus: 503, wantCode: CodeUpstreamOverloaded, wantCalls: 2},
		{name: "503 otherwise is an upstream error", style: StyleMessages, status: 503, body: `Service Unavailable`,
			wantStatus: 502, wantCode: CodeUpstreamError, wantCalls: 1, wantMsg: `upstream answered status 503`},
		{name: "500", style: StyleMessages, status: 500, body: anthropicErr("api_error", "Internal server error"),
			wantStatus: 502, wantCode: CodeUpstreamError, wantCalls: 1,
			wantMsg: `upstream answered status 500: Internal server error`},
		{name: "redirect is not followed", style: StyleMessages, status: 307, header: map[string]string{"Location": "http://127.0.0.1:1/"},
			wantStatus: 502, wantCode: CodeUpstreamError, wantCalls: 1, wantMsg: `upstream answered status 307`},
		{name: "garbage", style: StyleMessages, status: 200, header: map[string]string{"Content-Type": "application/json"},
			body: `<html>oops</html>`, wantStatus: 502, wantCode: CodeUpstreamError, wantCalls: 1,
			wantMsg: `invalid response from upstream`},
		{name: "openai garbage", style: StyleOpenAI, status: 200, body: `Internal Server Error`,
			wantStatus: 502, wantCode: CodeUpstreamError, wantCalls: 1, wantMsg: `invalid response from upstream`},
	}
	for _, tt := range tests {
		for _, stream := range []bool{false, true} {
			name := tt.name + map[bool]string{false: " (complete)", true: " (stream)"}[stream]
			t.Run(name, func(t *testing.T) {
				var calls atomic.Int32
				srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
					calls.Add(1)
					for k, v := range tt.header {
						w.Header().Set(k, v)
					}
					if stream && tt.status == 200 {
						w.Header().Set("Content-Type", "text/event-stream")
						tt.body = "data: " + tt.body + "\n\n"
					}
					w.WriteHeader(tt.status)
					io.WriteString(w, tt.body)
				})
				p := newTestProxy(t, srv.URL, tt.style)
				var err error
				var rep Report
				if stream {
					emitted := 0
					_, rep, err = p.Stream(context.Background(), testRequest(), func(Event) error { emitted++; return nil })
					if emitted != 0 {
						t.Errorf("%d events emitted before the failure", emitted)
					}
				} else {
					_, rep, err = p.Complete(context.Background(), testRequest())
				}
				e := assertError(t, err, tt.wantStatus, tt.wantCode, tt.wantMsg)
				if e.RetryAfter != tt.wantRetry {
					t.Errorf("RetryAfter %d, want %d", e.RetryAfter, tt.wantRetry)
				}
				if strings.Contains(err.Error(), "SECRET") || strings.Contains(string(e.AnthropicJSON("")), "SECRET") {
					t.Errorf("the key leaked: %v", err)
				}
				if calls.Load() != tt.wantCalls || rep.Attempts != int(tt.wantCalls) {
					t.Errorf("%d upstream calls, %d attempts reported, want %d", calls.Load(), rep.Attempts, tt.wantCalls)
				}
				if rep.Status != tt.wantStatus || rep.ErrorCode != tt.wantCode || rep.Model != "test-model" || rep.Latency <= 0 {
					t.Errorf("report %+v", rep)
				}
			})
		}
	}
}

func TestUnreachable(t *testing.T) {
	p := newTestProxy(t, refusedURL(t), StyleMessages)
	_, rep, err := p.Complete(context.Background(), testRequest())
	assertError(t, err, 502, CodeUpstreamUnavailable, "upstream is unreachable")
	if rep.Attempts != 1 || rep.ErrorCode != CodeUpstreamUnavailable {
		t.Errorf("report %+v", rep)
	}
	_, _, err = p.Stream(context.Background(), testRequest(), func(Event) error { return nil })
	assertError(t, err, 502, CodeUpstreamUnavailable, "upstream is unreachable")
}

// hang is an upstream that never answers. It reports each request when it
// arrives and when the client abandons it.
type hang struct{ arrived, cancelled chan struct{} }

func newHang() hang { return hang{make(chan struct{}, 2), make(chan struct{}, 2)} }

func (h hang) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.arrived <- struct{}{}
	<-r.Context().Done()
	h.cancelled <- struct{}{}
}

func TestTotalTimeout(t *testing.T) {
	h := newHang()
	srv := upstream(t, h.ServeHTTP)
	p := newTestProxy(t, srv.URL, StyleMessages, func(c *Config) { c.Timeout = 500 * time.Millisecond })
	start := time.Now()
	_, rep, err := p.Complete(context.Background(), testRequest())
	assertError(t, err, 504, CodeUpstreamTimeout, "upstream did not answer within 500ms")
	if d := time.Since(start); d < 500*time.Millisecond || d > 3*time.Second {
		t.Errorf("gave up after %s", d)
	}
	if rep.Status != 504 {
		t.Errorf("report %+v", rep)
	}
	wait(t, h.arrived, "the upstream request")
	wait(t, h.cancelled, "the upstream request to be cancelled")
}

// TestStreamIdleTimeout: a stream that falls silent ends with an error event.
func TestStreamIdleTimeout(t *testing.T) {
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		startSSE(w)
		writeSSE(w, anthropicStream[0].name, anthropicStream[0].data)
		<-r.Context().Done()
	})
	p := newTestProxy(t, srv.URL, StyleMessages, func(c *Config) { c.StreamIdleTimeout = 500 * time.Millisecond })
	gw, results := serveGateway(t, p, testRequest())
	evs := readEvents(t, postStream(t, context.Background(), testClient(t), gw.URL).Body)
	if eventNames(evs) != "message_start,error" {
		t.Fatalf("events %s", eventNames(evs))
	}
	last, _ := json.Marshal(evs[1].data)
	if !jsonEqual(t, string(last), `{"type":"error","error":{"type":"timeout_error","message":"upstream sent nothing for 500ms","code":"upstream_timeout"}}`) {
		t.Errorf("error event %s", last)
	}
	res := wait(t, results, "the handler")
	assertError(t, res.err, 504, CodeUpstreamTimeout, "")
	if res.report.Usage.InputTokens != 25 || res.report.Status != 504 {
		t.Errorf("report %+v", res.report) // the tokens already reported are spent
	}
}

// TestSlowSteadyStream: a stream longer than the total timeout and than the
// idle timeout succeeds while something arrives within every idle period,
// keep-alive comments included.
func TestSlowSteadyStream(t *testing.T) {
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		// Elapsed time is the subject: the fake paces its stream on purpose.
		startSSE(w)
		for i, ev := range anthropicStream {
			if i == 3 { // 900ms of comments only: no event, yet not idle
				for range 9 {
					time.Sleep(100 * time.Millisecond)
					io.WriteString(w, ": still thinking\n\n")
					w.(http.Flusher).Flush()
				}
			}
			time.Sleep(100 * time.Millisecond)
			writeSSE(w, ev.name, ev.data)
		}
	})
	p := newTestProxy(t, srv.URL, StyleMessages, func(c *Config) {
		c.Timeout = 300 * time.Millisecond // would cut the stream if applied to it
		c.StreamIdleTimeout = 700 * time.Millisecond
	})
	start := time.Now()
	msg, rep, err := p.Stream(context.Background(), testRequest(), func(Event) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 1700*time.Millisecond {
		t.Errorf("stream took only %s", d)
	}
	if msg.Text() != "Hello, world" || rep.Latency < 1700*time.Millisecond {
		t.Errorf("message %+v, report %+v", msg, rep)
	}
}

func TestRetryOverloadedThenSuccess(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(map[bool]string{false: "complete", true: "stream"}[stream], func(t *testing.T) {
			var calls atomic.Int32
			srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
				if calls.Add(1) == 1 {
					w.WriteHeader(529)
					io.WriteString(w, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
					return
				}
				if !stream {
					io.WriteString(w, anthropicMessage)
					return
				}
				startSSE(w)
				for _, ev := range anthropicStream {
					writeSSE(w, ev.name, ev.data)
				}
			})
			p := newTestProxy(t, srv.URL, StyleMessages)
			start := time.Now()
			var rep Report
			var err error
			if stream {
				_, rep, err = p.Stream(context.Background(), testRequest(), func(Event) error { return nil })
			} else {
				_, rep, err = p.Complete(context.Background(), testRequest())
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d < retryMinWait {
				t.Errorf("retried after %s, before the jitter", d)
			}
			if calls.Load() != 2 || rep.Attempts != 2 || rep.Status != 200 || rep.Usage.InputTokens == 0 {
				t.Errorf("%d calls, report %+v", calls.Load(), rep)
			}
		})
	}
}

// TestNoRetryAfterBytesSent: once the client has seen an event, an overload
// ends the stream with an error event instead of a retry.
func TestNoRetryAfterBytesSent(t *testing.T) {
	var calls atomic.Int32
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		startSSE(w)
		writeSSE(w, anthropicStream[0].name, anthropicStream[0].data)
		writeSSE(w, "error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
	})
	gw, results := serveGateway(t, newTestProxy(t, srv.URL, StyleMessages), testRequest())
	evs := readEvents(t, postStream(t, context.Background(), testClient(t), gw.URL).Body)
	if eventNames(evs) != "message_start,error" {
		t.Fatalf("events %s", eventNames(evs))
	}
	last, _ := json.Marshal(evs[1].data)
	if !jsonEqual(t, string(last), `{"type":"error","error":{"type":"overloaded_error","message":"upstream failed mid-response: Overloaded","code":"upstream_overloaded"}}`) {
		t.Errorf("error event %s", last)
	}
	res := wait(t, results, "the handler")
	assertError(t, res.err, 503, CodeUpstreamOverloaded, "")
	if calls.Load() != 1 || res.report.Attempts != 1 {
		t.Errorf("%d calls, report %+v", calls.Load(), res.report)
	}
}

// TestOverloadedBeforeFirstEventIsRetried: an error event that arrives before
// message_start has not reached the client, so the retry is still allowed.
func TestOverloadedBeforeFirstEventIsRetried(t *testing.T) {
	var calls atomic.Int32
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		startSSE(w)
		if calls.Add(1) == 1 {
			writeSSE(w, "error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
			return
		}
		for _, ev := range anthropicStream {
			writeSSE(w, ev.name, ev.data)
		}
	})
	msg, rep, err := newTestProxy(t, srv.URL, StyleMessages).Stream(context.Background(), testRequest(), func(Event) error { return nil })
	if err != nil || msg.Text() != "Hello, world" || rep.Attempts != 2 {
		t.Errorf("err %v, message %+v, report %+v", err, msg, rep)
	}
}

// TestStreamIsUnbuffered: each upstream event must reach the client before
// the upstream sends the next. The fake upstream waits for the test to see
// each event arrive through the gateway (a real HTTP server, SSEWriter, real
// client) before it sends the next: any buffering on the way deadlocks.
func TestStreamIsUnbuffered(t *testing.T) {
	seen := make(chan string)
	last := len(anthropicStream) - 1
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		startSSE(w)
		for i, ev := range anthropicStream {
			writeSSE(w, ev.name, ev.data)
			if i == last {
				return
			}
			select {
			case got := <-seen:
				if got != ev.name {
					t.Errorf("client saw %s, upstream sent %s", got, ev.name)
				}
			case <-time.After(3 * time.Second):
				t.Errorf("the client never saw %s: the stream is buffered", ev.name)
				return
			case <-r.Context().Done():
				t.Errorf("request cancelled after %s", ev.name)
				return
			}
		}
	})
	gw, results := serveGateway(t, newTestProxy(t, srv.URL, StyleMessages), testRequest())
	resp := postStream(t, context.Background(), testClient(t), gw.URL)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream; charset=utf-8" {
		t.Fatalf("status %d, headers %v", resp.StatusCode, resp.Header)
	}
	r := newSSEReader(resp.Body)
	for i := range anthropicStream {
		ev, err := r.next()
		if err != nil {
			t.Fatal(err)
		}
		if i < last {
			select {
			case seen <- ev.name:
			case <-time.After(3 * time.Second):
				t.Fatalf("the upstream stopped waiting after %s", ev.name)
			}
		}
	}
	if res := wait(t, results, "the handler"); res.err != nil {
		t.Fatal(res.err)
	}
}

// TestClientGoneDrainsUpstream: when the client disconnects mid-stream,
// the upstream is read on to its end, so its own usage is reported.
func TestClientGoneDrainsUpstream(t *testing.T) {
	gone := make(chan struct{}) // closed when the gateway's handler sees the client leave
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		startSSE(w)
		for _, ev := range anthropicStream[:5] { // through the last text delta
			writeSSE(w, ev.name, ev.data)
		}
		<-gone // the client leaves before message_delta
		for _, ev := range anthropicStream[5:] {
			writeSSE(w, ev.name, ev.data)
		}
	})
	p := newTestProxy(t, srv.URL, StyleMessages)
	results := make(chan result, 1)
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		stop := context.AfterFunc(r.Context(), func() { close(gone) })
		defer stop()
		msg, rep, err := p.Stream(r.Context(), testRequest(), NewSSEWriter(w).Send)
		results <- result{msg, rep, err}
	}))
	t.Cleanup(gw.Close)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp := postStream(t, ctx, testClient(t), gw.URL)
	readUntil(t, resp.Body, `", world"`)
	cancel()
	res := wait(t, results, "the handler")
	assertError(t, res.err, StatusClientClosed, CodeClientClosed, "")
	if r := res.report; r.Usage.InputTokens != 25 || r.Usage.OutputTokens != 15 || r.UsageFlag != "" {
		t.Errorf("report %+v: want the upstream's own usage", r)
	}
}

// TestClientGoneEstimatesWhenTheUpstreamStalls: an upstream that does not
// finish within DrainTimeout is cancelled, and the output is estimated from
// what the client was sent, flagged.
func TestClientGoneEstimatesWhenTheUpstreamStalls(t *testing.T) {
	cancelled := make(chan struct{})
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		startSSE(w)
		for _, ev := range anthropicStream[:5] {
			writeSSE(w, ev.name, ev.data)
		}
		<-r.Context().Done()
		close(cancelled)
	})
	p := newTestProxy(t, srv.URL, StyleMessages, func(c *Config) { c.DrainTimeout = 200 * time.Millisecond })
	gw, results := serveGateway(t, p, testRequest())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp := postStream(t, ctx, testClient(t), gw.URL)
	readUntil(t, resp.Body, `", world"`)
	cancel()
	wait(t, cancelled, "the upstream request to be cancelled")
	res := wait(t, results, "the handler")
	assertError(t, res.err, StatusClientClosed, CodeClientClosed, "")
	// Two deltas, "Hello" and ", world" (12 bytes): 4 tokens at 3 bytes a token.
	if r := res.report; r.ErrorCode != CodeClientClosed || r.Usage.InputTokens != 25 || r.Usage.OutputTokens != 4 || r.UsageFlag != UsageEstimated {
		t.Errorf("report %+v", r)
	}
}

// TestClientGoneBeforeTheStreamStarted: a client that leaves a stream
// before the upstream's first event, whose upstream does not start within
// DrainTimeout either, is metered at the input estimate (flagged): the
// upstream was reading the prompt when the gateway cut it off, as for a
// non-streamed call (which also counts max_tokens: its output is unseen).
// Before, such a call was free, however long its prompt.
func TestClientGoneBeforeTheStreamStarted(t *testing.T) {
	received := make(chan struct{})
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		close(received)
		<-r.Context().Done()
	})
	p := newTestProxy(t, srv.URL, StyleMessages, func(c *Config) { c.DrainTimeout = 100 * time.Millisecond })
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-received; cancel() }()
	req := testRequest()
	req.Messages[0].Content = strings.Repeat("a long prompt ", 300)
	_, rep, err := p.Stream(ctx, req, func(Event) error { return nil })
	assertError(t, err, StatusClientClosed, CodeClientClosed, "")
	if rep.Usage.InputTokens != EstimateInputTokens(req) || rep.Usage.OutputTokens != 0 || rep.UsageFlag != UsageEstimated {
		t.Errorf("report %+v", rep)
	}
}

// readUntil reads a stream until it has seen s.
func readUntil(t *testing.T, body io.Reader, s string) {
	t.Helper()
	var seen []byte
	buf := make([]byte, 4096)
	for !strings.Contains(string(seen), s) {
		n, err := body.Read(buf)
		seen = append(seen, buf[:n]...)
		if err != nil {
			t.Fatalf("stream ended before %q: %v\n%s", s, err, seen)
		}
	}
}

func TestCallerCancelsComplete(t *testing.T) {
	h := newHang()
	srv := upstream(t, h.ServeHTTP)
	p := newTestProxy(t, srv.URL, StyleOpenAI)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-h.arrived
		cancel()
	}()
	_, rep, err := p.Complete(ctx, testRequest())
	assertError(t, err, StatusClientClosed, CodeClientClosed, "the client closed the request")
	if rep.ErrorCode != CodeClientClosed {
		t.Errorf("report %+v", rep)
	}
	wait(t, h.cancelled, "the upstream request to be cancelled")

	// A deadline on the caller's context (a server-side request timeout) is a
	// timeout, not a client gone.
	ctx, cancel = context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	_, _, err = p.Complete(ctx, testRequest())
	assertError(t, err, 504, CodeUpstreamTimeout, "the request ran out of time")
	wait(t, h.cancelled, "the upstream request to be cancelled")
}

// TestTruncatedStream: an upstream that stops before message_stop ends the
// client's stream with an error event; the call is metered by what was
// delivered ("Hello": 2 tokens), more than message_start's report (1).
func TestTruncatedStream(t *testing.T) {
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		startSSE(w)
		for _, ev := range anthropicStream[:4] {
			writeSSE(w, ev.name, ev.data)
		}
		io.WriteString(w, "event: content_block_delta\ndata: {\"type\":\"content_blo") // and the connection ends
	})
	gw, results := serveGateway(t, newTestProxy(t, srv.URL, StyleMessages), testRequest())
	evs := readEvents(t, postStream(t, context.Background(), testClient(t), gw.URL).Body)
	if eventNames(evs) != "message_start,content_block_start,ping,content_block_delta,error" {
		t.Fatalf("events %s", eventNames(evs))
	}
	last, _ := json.Marshal(evs[4].data)
	if !jsonEqual(t, string(last), `{"type":"error","error":{"type":"api_error","message":"the upstream stream ended before it was complete","code":"upstream_error"}}`) {
		t.Errorf("error event %s", last)
	}
	res := wait(t, results, "the handler")
	assertError(t, res.err, 502, CodeUpstreamError, "")
	if res.msg != nil || res.report.Usage != (Usage{InputTokens: 25, OutputTokens: 2}) || res.report.UsageFlag != UsageEstimated || res.report.StopReason != "" {
		t.Errorf("message %+v, report %+v", res.msg, res.report)
	}
}

// TestErrorBeforeStreamIsAnHTTPError: a failure before the first event is
// still a plain HTTP error the handler answers with, in Anthropic's shape.
func TestErrorBeforeStreamIsAnHTTPError(t *testing.T) {
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(529)
		io.WriteString(w, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
	})
	gw, _ := serveGateway(t, newTestProxy(t, srv.URL, StyleMessages), testRequest())
	resp := postStream(t, context.Background(), testClient(t), gw.URL)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 529 || !jsonEqual(t, string(body), `{"type":"error","error":{"type":"overloaded_error","message":"upstream is overloaded; retry later: Overloaded","code":"upstream_overloaded"}}`) {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
}

// A tool call whose input is JSON but no object (a list, a number) is an
// invalid answer, streamed or not: a stream fails before the block's end
// reaches the client, as every client reads the input as the object of
// the tool's parameters. An input cut short by max_tokens goes through,
// its stop reason saying so.
func TestProxyRefusesToolInputThatIsNoObject(t *testing.T) {
	cut := []Event{{Type: EventMessageStart, Message: &Message{ID: "msg_1"}},
		{Type: EventContentBlockStart, Block: &ContentBlock{Type: BlockToolUse, ID: "toolu_1", Name: "get"}},
		{Type: EventContentBlockDelta, DeltaType: DeltaInputJSON, Text: `{"q": "wea`},
		{Type: EventContentBlockStop}, {Type: EventMessageDelta, StopReason: StopMaxTokens}, {Type: EventMessageStop}}
	if msg, _, err := streamFrom(t, cut); err != nil || msg.StopReason != StopMaxTokens {
		t.Errorf("a tool call cut short by max_tokens: %v, %+v", err, msg)
	}
	for _, input := range []string{"[1,2]", `"x"`, "7"} {
		events := []Event{{Type: EventMessageStart, Message: &Message{ID: "msg_1"}},
			{Type: EventContentBlockStart, Block: &ContentBlock{Type: BlockToolUse, ID: "toolu_1", Name: "get"}},
			{Type: EventContentBlockDelta, DeltaType: DeltaInputJSON, Text: input},
			{Type: EventContentBlockStop}, {Type: EventMessageDelta, StopReason: StopToolUse}, {Type: EventMessageStop}}
		_, got, err := streamFrom(t, events)
		assertError(t, err, 502, CodeUpstreamError, "invalid response from upstream")
		if slices.Contains(got, EventContentBlockStop) {
			t.Errorf("input %s: the tool call's end reached the client: %v", input, got)
		}
		answer := &Message{ID: "msg_1", Type: "message", Role: "assistant", Content: []ContentBlock{{Type: BlockToolUse, ID: "toolu_1", Name: "get", Input: json.RawMessage(input)}}}
		p, _ := NewWithUpstream(Config{}, misbehaving{answer: answer})
		_, _, err = p.Complete(context.Background(), testRequest())
		assertError(t, err, 502, CodeUpstreamError, "invalid response from upstream")
	}
}

// misbehaving is an Upstream that breaks the event-order contract.
type misbehaving struct {
	events []Event
	answer *Message // Complete's
}

func (m misbehaving) Complete(context.Context, *Request) (*Message, error) { return m.answer, nil }

func (m misbehaving) Stream(_ context.Context, _ *Request, emit func(Event) error) error {
	for _, ev := range m.events {
		if err := emit(ev); err != nil {
			return err
		}
	}
	return nil
}

// streamFrom streams a test request through a Proxy whose upstream sends
// events, returning the answer, the types of the events the client got
// and the error.
func streamFrom(t *testing.T, events []Event) (*Message, []string, error) {
	t.Helper()
	p, err := NewWithUpstream(Config{}, misbehaving{events: events})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	msg, _, err := p.Stream(context.Background(), testRequest(), func(ev Event) error {
		got = append(got, ev.Type)
		return nil
	})
	return msg, got, err
}

func TestProxyEnforcesEventOrder(t *testing.T) {
	start := Event{Type: EventMessageStart, Message: &Message{ID: "msg_1"}}
	tests := map[string][]Event{
		"delta first":          {{Type: EventContentBlockDelta, Text: "x"}},
		"delta outside block":  {start, {Type: EventContentBlockDelta, Text: "x"}},
		"wrong index":          {start, {Type: EventContentBlockStart, Index: 1}},
		"error event":          {start, {Type: EventError, Error: &ErrorBody{}}},
		"returns without stop": {start, {Type: EventContentBlockStart}, {Type: EventContentBlockStop}},
		"after message_stop":   {start, {Type: EventMessageStop}, {Type: EventPing}},
	}
	for name, events := range tests {
		t.Run(name, func(t *testing.T) {
			_, got, err := streamFrom(t, events)
			assertError(t, err, 502, CodeUpstreamError, "invalid response from upstream")
			if slices.Contains(got, EventError) {
				t.Errorf("an upstream's error event reached the client: %v", got)
			}
		})
	}
	p, _ := NewWithUpstream(Config{}, misbehaving{})
	_, _, err := p.Complete(context.Background(), testRequest())
	assertError(t, err, 502, CodeUpstreamError, "invalid response from upstream")
}

func TestEmitFailureIsClientClosed(t *testing.T) {
	p, _ := NewWithUpstream(Config{}, &Demo{})
	gone := errors.New("broken pipe")
	calls := 0
	_, rep, err := p.Stream(context.Background(), testRequest(), func(ev Event) error {
		calls++
		return gone
	})
	e := assertError(t, err, StatusClientClosed, CodeClientClosed, "")
	if !errors.Is(e, gone) || calls != 1 || rep.ErrorCode != CodeClientClosed {
		t.Errorf("err %v, %d calls, report %+v", err, calls, rep)
	}
}

func TestNewValidatesConfig(t *testing.T) {
	for _, cfg := range []Config{
		{URL: "api.anthropic.com", Model: "m"},
		{URL: "https://api.openai.com/v1", Style: StyleOpenAI, Model: "m"},
		{URL: "https://api.anthropic.com", Style: "gemini", Model: "m"},
		{URL: "https://api.anthropic.com"},
		{MaxTokens: 9000, MaxTokensCap: 8192},
		{Timeout: -time.Second},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.pass.targets[0].up.(*Demo); !ok || p.Defaults() != (Defaults{Model: DemoModel, MaxTokens: 1024, MaxTokensCap: 8192, EmbeddingModel: DemoEmbeddingModel}) {
		t.Errorf("no URL: upstream %T, defaults %+v", p.pass.targets[0].up, p.Defaults())
	}
}

// TestClientGoneCompleteScrubsTheRecord: a non-streamed answer that comes
// after the client left is still recorded, so the upstream key is
// scrubbed from it as from an answer the client gets.
func TestClientGoneCompleteScrubsTheRecord(t *testing.T) {
	arrived, answer := make(chan struct{}), make(chan struct{})
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		<-answer
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, strings.Replace(anthropicMessage, `"claude-sonnet-4-5"`, `"claude-`+testKey+`"`, 1))
	})
	p := newTestProxy(t, srv.URL, StyleMessages)
	ctx, cancel := context.WithCancel(context.Background())
	results := make(chan result, 1)
	go func() {
		msg, rep, err := p.Complete(ctx, testRequest())
		results <- result{msg, rep, err}
	}()
	wait(t, arrived, "the upstream call")
	cancel()
	close(answer)
	res := wait(t, results, "Complete")
	assertError(t, res.err, StatusClientClosed, CodeClientClosed, "")
	if r := res.report; r.Model != "claude-[redacted]" || r.UsageFlag == UsageEstimated {
		t.Errorf("report %+v: want the upstream's (checked) usage and its model with the key scrubbed", r)
	}
}

// Final tells the upstream's refusals of the request (4xx but 408, 409
// and 429), which a retry would meet again, from the failures a retry may
// get past.
func TestFinalUpstreamErrors(t *testing.T) {
	sc := newScrubber("")
	for status, want := range map[int]bool{400: true, 401: true, 403: true, 404: true, 413: true, 422: true,
		408: false, 409: false, 429: false, 500: false, 502: false, 503: false, 529: false} {
		if got := Final(upstreamStatusError(status, http.Header{}, []byte(`{"error":{"type":"x","message":"m"}}`), sc)); got != want {
			t.Errorf("upstream %d: final %v, want %v", status, got, want)
		}
	}
	if Final(errClientClosed(nil)) || Final(errTimeout("t", nil)) || Final(nil) {
		t.Error("a client that left, a timeout or no error is not final")
	}
}

package gateway

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestCallersOwnTextIsNotRedacted: the key is scrubbed from what the
// upstream says, but not where the caller wrote it: an upstream that
// quotes the request (Anthropic's 404 says "model: <name>"; a model asked
// to repeat a text) would otherwise show by what it redacts whether the
// caller's guess extends a run of the key, and the key would fall to a
// character-by-character search (about 64 calls a character, 404s free).
func TestCallersOwnTextIsNotRedacted(t *testing.T) {
	known := testKey[:len(testKey)-11] // "sk-test-SECRET-": a key's public prefix
	right, wrong := known+testKey[len(known):len(known)+1], known+"x"
	echo := func(w http.ResponseWriter, r *http.Request) {
		var req messagesRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			t.Error(err)
		}
		if beta := r.Header.Get("Anthropic-Beta"); beta != "" {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"type":"error","error":{"type":"invalid_request_error","message":"Unexpected value(s) `+beta+` for the anthropic-beta header"}}`)
			return
		}
		if req.Model != "test-model" {
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"type":"error","error":{"type":"not_found_error","message":"model: `+req.Model+`"}}`)
			return
		}
		text := req.Messages[0].Content
		io.WriteString(w, `{"id":"msg_1","type":"message","role":"assistant","model":"test-model","content":[{"type":"text","text":`+
			jsonString(text+" and "+testKey)+`}],"stop_reason":"end_turn","usage":{"input_tokens":9,"output_tokens":9}}`)
	}
	p := newTestProxy(t, upstream(t, echo).URL, StyleMessages)
	for _, guess := range []string{right, wrong} {
		t.Run(guess, func(t *testing.T) {
			req := testRequest()
			req.Model = guess
			_, _, err := p.Complete(context.Background(), req)
			e := assertError(t, err, 502, CodeUpstreamError, "")
			if e.Message != "upstream answered status 404: model: "+guess {
				t.Errorf("error %q", e.Message)
			}
			req = testRequest()
			req.AnthropicBeta = []string{guess}
			_, _, err = p.Complete(context.Background(), req)
			if e := assertError(t, err, 502, CodeUpstreamError, ""); e.Message != "upstream answered status 400: Unexpected value(s) "+guess+" for the anthropic-beta header" {
				t.Errorf("error %q", e.Message)
			}
			req = testRequest()
			req.Messages[0].Content = "repeat " + guess
			msg, _, err := p.Complete(context.Background(), req)
			// The key itself, which the caller did not write, is still
			// redacted, but for the runs the caller wrote.
			echo, after := "repeat "+guess+" and ", testKey[len(known)+1:]
			if err != nil || !strings.HasPrefix(msg.Text(), echo) || !strings.HasSuffix(msg.Text(), "[redacted]") ||
				strings.Contains(msg.Text(), after[:MinScrubRun]) {
				t.Errorf("text %q, err %v", msg.Text(), err)
			}
		})
	}
}

// TestCallersOwnTextIsNotRedactedInAStream: likewise when a stream echoes
// the prompt 4 bytes a delta.
func TestCallersOwnTextIsNotRedactedInAStream(t *testing.T) {
	text := "repeat " + testKey[:len(testKey)-10]
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		startSSE(w)
		for _, ev := range anthropicStream[:3] {
			writeSSE(w, ev.name, ev.data)
		}
		for s := text; s != ""; s = s[min(4, len(s)):] {
			writeSSE(w, "content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":`+jsonString(s[:min(4, len(s))])+`}}`)
		}
		for _, ev := range anthropicStream[5:] {
			writeSSE(w, ev.name, ev.data)
		}
	})
	req := testRequest()
	req.Messages[0].Content = text
	gw, results := serveGateway(t, newTestProxy(t, srv.URL, StyleMessages), req)
	readEvents(t, postStream(t, context.Background(), testClient(t), gw.URL).Body)
	if res := wait(t, results, "the handler"); res.err != nil || res.msg.Text() != text {
		t.Errorf("message %+v, err %v", res.msg, res.err)
	}
}

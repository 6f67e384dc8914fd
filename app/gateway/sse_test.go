package gateway

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

func TestSSEWriterWireFormat(t *testing.T) {
	rec := httptest.NewRecorder()
	rec.Header().Set("X-Request-Id", "req_1") // set by the handler before streaming
	sse := NewSSEWriter(rec)
	if sse.Started() {
		t.Fatal("started before the first event")
	}
	for _, ev := range []Event{
		{Type: EventMessageStart, Message: &Message{ID: "msg_1", Model: "m", Usage: Usage{InputTokens: 2}}},
		{Type: EventContentBlockDelta, Text: "Hi\nthere"},
		{Type: EventMessageStop},
	} {
		if err := sse.Send(ev); err != nil {
			t.Fatal(err)
		}
	}
	if !sse.Started() || !rec.Flushed {
		t.Error("not started or not flushed")
	}
	want := "event: message_start\n" +
		`data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":2,"output_tokens":0}}}` + "\n\n" +
		"event: content_block_delta\n" +
		`data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi\nthere"}}` + "\n\n" +
		"event: message_stop\n" +
		`data: {"type":"message_stop"}` + "\n\n"
	if got := rec.Body.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "text/event-stream; charset=utf-8" ||
		rec.Header().Get("Cache-Control") != "no-cache" || rec.Header().Get("X-Request-Id") != "req_1" {
		t.Errorf("status %d, headers %v", rec.Code, rec.Header())
	}
}

// unflushable hides the recorder's Flush, as a buffering middleware would.
type unflushable struct{ http.ResponseWriter }

func TestSSEWriterRefusesToBuffer(t *testing.T) {
	sse := NewSSEWriter(unflushable{httptest.NewRecorder()})
	if err := sse.Send(Event{Type: EventPing}); !errors.Is(err, http.ErrNotSupported) {
		t.Errorf("got %v, want ErrNotSupported", err)
	}
}

func TestSSEReader(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []sseEvent
	}{
		{"anthropic", "event: ping\ndata: {\"type\": \"ping\"}\n\nevent: message_stop\ndata: {}\n\n",
			[]sseEvent{{"ping", []byte(`{"type": "ping"}`)}, {"message_stop", []byte(`{}`)}}},
		{"openai, CRLF, comments, no space after colon", ": keep-alive\r\n\r\ndata:{\"a\":1}\r\n\r\ndata: [DONE]\r\n\r\n",
			[]sseEvent{{"", []byte(`{"a":1}`)}, {"", []byte(`[DONE]`)}}},
		{"multi-line data, ignored fields", "id: 7\nretry: 10\nevent: x\ndata: a\ndata: b\n\n",
			[]sseEvent{{"x", []byte("a\nb")}}},
		{"event without data is dropped", "event: x\n\ndata: y\n\n", []sseEvent{{"", []byte("y")}}},
		{"last event without blank line", "data: [DONE]\n", []sseEvent{{"", []byte("[DONE]")}}},
		{"cut-off last line is dropped", "data: 1\n\ndata: {\"typ", []sseEvent{{"", []byte("1")}}},
		{"long line", "data: " + strings.Repeat("x", 100000) + "\n\n", []sseEvent{{"", []byte(strings.Repeat("x", 100000))}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newSSEReader(strings.NewReader(tt.input))
			var got []sseEvent
			for {
				ev, err := r.next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, ev)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
	huge := "data: " + strings.Repeat("x", maxSSEEventBytes) + "\n\n"
	if _, err := newSSEReader(strings.NewReader(huge)).next(); err != errSSETooLarge {
		t.Errorf("oversized event: got %v", err)
	}
}

func FuzzSSEReader(f *testing.F) {
	f.Add("event: a\ndata: b\n\n: c\r\ndata:d\ndata: e\n\n")
	f.Add("data: [DONE]")
	f.Fuzz(func(t *testing.T, input string) {
		r := newSSEReader(strings.NewReader(input))
		for range len(input) + 1 {
			ev, err := r.next()
			if err != nil {
				return
			}
			if len(ev.data) > len(input) {
				t.Fatalf("event data longer than the input")
			}
		}
		t.Fatal("more events than bytes")
	})
}

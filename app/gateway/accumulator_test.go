package gateway

import (
	"context"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
)

// TestAccumulatorTextGrowsInPlace: a long stream of small deltas costs
// memory in proportion to its text, not to its square (joining strings
// copied the whole text again for every delta).
func TestAccumulatorTextGrowsInPlace(t *testing.T) {
	var a accumulator
	for _, ev := range []Event{
		{Type: EventMessageStart, Message: &Message{ID: "msg_1"}},
		{Type: EventContentBlockStart, Block: &ContentBlock{Type: "text"}},
	} {
		if err := a.add(ev); err != nil {
			t.Fatal(err)
		}
	}
	const deltas, size = 1000, 1 << 10
	piece := strings.Repeat("x", size)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range deltas {
		if err := a.add(Event{Type: EventContentBlockDelta, Text: piece}); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	if got := a.msg.Content[0].Text; len(got) != deltas*size {
		t.Fatalf("text of %d bytes, want %d", len(got), deltas*size)
	}
	// Quadratic growth allocates about deltas/2 times the text (500 MB).
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8*deltas*size {
		t.Errorf("%d bytes allocated for %d bytes of text", alloc, deltas*size)
	}
}

// TestStreamTextIsBounded: an upstream that streams text without end is
// cut off once the text exceeds what a non-streamed answer may hold, with
// an error event, and metered by what was delivered, so that it cannot
// fill the gateway's memory until StreamMaxDuration.
func TestStreamTextIsBounded(t *testing.T) {
	delta := `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"` + strings.Repeat("y", 1<<20) + `"}}`
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		startSSE(w)
		for _, ev := range anthropicStream[:2] {
			writeSSE(w, ev.name, ev.data)
		}
		for i := 0; i <= maxResponseBytes>>20 && r.Context().Err() == nil; i++ {
			writeSSE(w, "content_block_delta", delta)
		}
		for _, ev := range anthropicStream[5:] {
			writeSSE(w, ev.name, ev.data)
		}
	})
	gw, results := serveGateway(t, newTestProxy(t, srv.URL, StyleMessages), testRequest())
	resp := postStream(t, context.Background(), testClient(t), gw.URL)
	evs := readEvents(t, resp.Body)
	fit := (maxResponseBytes - blockBytes) >> 20 // the deltas within the bound
	want := "message_start,content_block_start" + strings.Repeat(",content_block_delta", fit) + ",error"
	if got := eventNames(evs); got != want {
		t.Fatalf("%d events: %.200s…", len(evs), got)
	}
	res := wait(t, results, "the handler")
	assertError(t, res.err, 502, CodeUpstreamError, "")
	// What was delivered is far more than max_tokens: the call counts its
	// reservation's output at most.
	if res.report.Usage.OutputTokens != testRequest().MaxTokens {
		t.Errorf("report %+v", res.report)
	}
	io.Copy(io.Discard, resp.Body)
}

// TestAccumulatorBoundsEmptyBlocks: blocks without text count too, so
// endless empty blocks end the stream as endless text does.
func TestAccumulatorBoundsEmptyBlocks(t *testing.T) {
	var a accumulator
	if err := a.add(Event{Type: EventMessageStart, Message: &Message{ID: "msg_1"}}); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		if i > maxResponseBytes/blockBytes {
			t.Fatalf("%d empty blocks accepted", i)
		}
		if err := a.add(Event{Type: EventContentBlockStart, Index: i, Block: &ContentBlock{Type: "text"}}); err != nil {
			assertError(t, err, 502, CodeUpstreamError, "")
			return
		}
		if err := a.add(Event{Type: EventContentBlockStop, Index: i}); err != nil {
			t.Fatal(err)
		}
	}
}

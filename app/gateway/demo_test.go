package gateway

import (
	"context"
	"strings"
	"testing"
	"time"
)

func demoProxy(t *testing.T, delay time.Duration) *Proxy {
	t.Helper()
	p, err := NewWithUpstream(Config{}, &Demo{WordDelay: delay})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDemoText(t *testing.T) {
	long := strings.Repeat("word ", 60) // 300 characters
	tests := []struct {
		name string
		req  Request
		want string
	}{
		{"one message",
			Request{Model: DemoModel, MaxTokens: 1024, Messages: []ChatMessage{{Role: "user", Content: "Hello"}}},
			`Hello from Parapet's demo upstream. No real model is behind it, so this answer only describes your request. ` +
				`It has 1 message; the last user message is "Hello". There is no system prompt. Model: parapet-demo, max_tokens: 1024.`},
		{"conversation with system prompt, quote flattened and cut",
			Request{Model: "m", MaxTokens: 500, System: "Be\n  brief.", Messages: []ChatMessage{
				{Role: "user", Content: "First"}, {Role: "assistant", Content: "Reply"}, {Role: "user", Content: long}, {Role: "assistant", Content: "Prefill"}}},
			`Hello from Parapet's demo upstream. No real model is behind it, so this answer only describes your request. ` +
				`It has 4 messages; the last user message is "` + strings.TrimSpace(long[:200]) + `…". ` +
				`The system prompt is "Be brief.". Model: m, max_tokens: 500.`},
		{"no user message",
			Request{Model: "m", MaxTokens: 50, Messages: []ChatMessage{{Role: "assistant", Content: "Hi"}}},
			`Hello from Parapet's demo upstream. No real model is behind it, so this answer only describes your request. ` +
				`It has 1 message and none from the user. There is no system prompt. Model: m, max_tokens: 50.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg, rep, err := demoProxy(t, 0).Complete(context.Background(), &tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if msg.Text() != tt.want {
				t.Errorf("got  %s\nwant %s", msg.Text(), tt.want)
			}
			wantIn := len(strings.Fields(tt.req.System))
			for _, m := range tt.req.Messages {
				wantIn += len(strings.Fields(m.Content))
			}
			if msg.StopReason != StopEndTurn || msg.Usage != (Usage{InputTokens: wantIn, OutputTokens: len(strings.Fields(tt.want))}) ||
				msg.Model != tt.req.Model || !strings.HasPrefix(msg.ID, "msg_") || rep.Usage != msg.Usage {
				t.Errorf("message %+v, report %+v", msg, rep)
			}
		})
	}
}

func TestDemoLimits(t *testing.T) {
	seq := func(s string) *string { return &s }
	tests := []struct {
		name     string
		max      int
		stops    []string
		wantText string
		wantStop string
		wantSeq  *string
	}{
		{"max_tokens counts words", 5, nil, "Hello from Parapet's demo upstream.", StopMaxTokens, nil},
		{"stop sequence is not part of the answer", 100, []string{"demo"}, "Hello from Parapet's ", StopStopSequence, seq("demo")},
		{"earliest stop sequence wins", 100, []string{"model", "from P"}, "Hello ", StopStopSequence, seq("from P")},
		{"stop sequence mid-word", 100, []string{"arapet"}, "Hello from P", StopStopSequence, seq("arapet")},
		{"stop sequence after max_tokens", 3, []string{"upstream"}, "Hello from Parapet's", StopMaxTokens, nil},
		{"stop sequence never said", 100, []string{"xyzzy"}, "", StopEndTurn, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := testRequest()
			req.MaxTokens, req.StopSequences = tt.max, tt.stops
			p := demoProxy(t, 0)
			var deltas []string
			streamed, _, err := p.Stream(context.Background(), req, func(ev Event) error {
				if ev.Type == EventContentBlockDelta {
					deltas = append(deltas, ev.Text)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			complete, _, err := p.Complete(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			for _, msg := range []*Message{streamed, complete} {
				if tt.wantText != "" && msg.Text() != tt.wantText {
					t.Errorf("text %q, want %q", msg.Text(), tt.wantText)
				}
				if msg.StopReason != tt.wantStop || (msg.StopSequence == nil) != (tt.wantSeq == nil) ||
					(tt.wantSeq != nil && *msg.StopSequence != *tt.wantSeq) {
					t.Errorf("stop %s %v, want %s %v", msg.StopReason, msg.StopSequence, tt.wantStop, tt.wantSeq)
				}
				if msg.Usage.OutputTokens != len(deltas) || msg.Usage.InputTokens != 1 {
					t.Errorf("usage %+v for %d words", msg.Usage, len(deltas))
				}
			}
			if streamed.Text() != complete.Text() || strings.Join(deltas, "") != streamed.Text() {
				t.Errorf("streamed %q, complete %q", streamed.Text(), complete.Text())
			}
			if tt.wantStop == StopMaxTokens && len(deltas) != tt.max {
				t.Errorf("%d words for max_tokens %d", len(deltas), tt.max)
			}
		})
	}
}

// TestDemoStreamsWordByWord: one delta per word, paced by WordDelay, in the
// event order of a real stream.
func TestDemoStreamsWordByWord(t *testing.T) {
	const delay = 10 * time.Millisecond
	var names []string
	var deltas []string
	var times []time.Time
	msg, rep, err := demoProxy(t, delay).Stream(context.Background(), testRequest(), func(ev Event) error {
		names = append(names, ev.Type)
		if ev.Type == EventContentBlockDelta {
			deltas = append(deltas, ev.Text)
			times = append(times, time.Now())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	words := strings.Fields(msg.Text())
	if len(deltas) != len(words) || msg.Usage.OutputTokens != len(words) {
		t.Fatalf("%d deltas, %d words, usage %+v", len(deltas), len(words), msg.Usage)
	}
	for i, d := range deltas {
		if strings.TrimSpace(d) != words[i] || (i > 0 && d != " "+words[i]) {
			t.Errorf("delta %d is %q", i, d)
		}
		if i > 0 && times[i].Sub(times[i-1]) < delay/2 {
			t.Errorf("delta %d came %s after the previous", i, times[i].Sub(times[i-1]))
		}
	}
	want := "message_start,content_block_start,ping," + strings.Repeat("content_block_delta,", len(words)) +
		"content_block_stop,message_delta,message_stop"
	if strings.Join(names, ",") != want {
		t.Errorf("events %s", strings.Join(names, ","))
	}
	if rep.Latency < time.Duration(len(words))*delay {
		t.Errorf("report %+v", rep)
	}
}

// TestDemoHonoursTimeouts: the demo is slow like a model, so the Proxy's
// timeouts and the caller's cancellation apply to it as to any upstream.
func TestDemoHonoursTimeouts(t *testing.T) {
	p, err := NewWithUpstream(Config{Timeout: 50 * time.Millisecond}, &Demo{WordDelay: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = p.Complete(context.Background(), testRequest())
	assertError(t, err, 504, CodeUpstreamTimeout, "upstream did not answer within 50ms")

	ctx, cancel := context.WithCancel(context.Background())
	_, rep, err := p.Stream(ctx, testRequest(), func(ev Event) error {
		if ev.Type == EventContentBlockDelta {
			cancel()
		}
		return nil
	})
	assertError(t, err, StatusClientClosed, CodeClientClosed, "")
	if rep.Usage.InputTokens != 1 {
		t.Errorf("report %+v", rep)
	}
}

func TestDemoIsTheDefaultUpstream(t *testing.T) {
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	req, err := ParseChatRequest([]byte(`{"messages":[{"role":"user","content":"Hi"}],"max_tokens":3}`), p.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	msg, _, err := p.Complete(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if msg.Model != DemoModel || msg.Text() != "Hello from Parapet's" || msg.StopReason != StopMaxTokens {
		t.Errorf("message %+v", msg)
	}
}

func FuzzSplitTokens(f *testing.F) {
	for _, s := range []string{"Hello world", "  lead", "trail  ", "a\n\tb", "", " ", "one"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tokens := splitTokens(s)
		if strings.Join(tokens, "") != s {
			t.Fatalf("%q split into %q", s, tokens)
		}
		if len(tokens) != max(len(strings.Fields(s)), min(len(s), 1)) {
			t.Fatalf("%q: %d tokens for %d words", s, len(tokens), len(strings.Fields(s)))
		}
	})
}

package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// The upstream is not trusted: what it claims is checked where it enters,
// before it reaches the client or the record, however the call ends.

// hugeStart is a message_start claiming 10^12 input tokens.
const hugeStart = `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-test","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1e12,"output_tokens":1}}}`

// TestStartUsageIsChecked: an absurd input count in message_start is
// replaced by the estimate and flagged before the client sees it, when
// the stream then fails, stalls, or loses its client.
func TestStartUsageIsChecked(t *testing.T) {
	for _, end := range []string{"error", "stall", "client leaves"} {
		t.Run(end, func(t *testing.T) {
			srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
				startSSE(w)
				writeSSE(w, "message_start", hugeStart)
				writeSSE(w, anthropicStream[1].name, anthropicStream[1].data)
				if end == "error" {
					writeSSE(w, "error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
					return
				}
				<-r.Context().Done()
			})
			p := newTestProxy(t, srv.URL, StyleMessages, func(c *Config) {
				c.StreamIdleTimeout, c.DrainTimeout = 300*time.Millisecond, 200*time.Millisecond
			})
			gw, results := serveGateway(t, p, testRequest())
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			resp := postStream(t, ctx, testClient(t), gw.URL)
			var start string
			if end == "client leaves" {
				readUntil(t, resp.Body, `"content_block_start"`)
				cancel()
			} else {
				evs := readEvents(t, resp.Body)
				if len(evs) == 0 || evs[0].name != "message_start" {
					t.Fatalf("events %s", eventNames(evs))
				}
				start = jsonString(evs[0].data)
			}
			want := EstimateInputTokens(testRequest())
			if start != "" && !strings.Contains(start, `"input_tokens":`+itoa(want)+`,`) {
				t.Errorf("the client was told %s, want input_tokens %d", start, want)
			}
			res := wait(t, results, "the handler")
			if r := res.report; r.Usage.InputTokens != want || r.UsageFlag == "" {
				t.Errorf("report %+v: want input %d, flagged", r, want)
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// jsonString is an event's data as JSON, for messages and substring checks.
func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestUpstreamNamesAreMadeSafe: the model name and message id an upstream
// sends back lose their control and format characters and are cut to 256
// characters before they are forwarded or reported (and so recorded).
func TestUpstreamNamesAreMadeSafe(t *testing.T) {
	for name, model := range map[string]string{
		"control":    "evil\u0000\u001b[31mRED\u001b[0m\nFAKE LOG LINE\u202e\u2028",
		"100,000":    strings.Repeat("m", 100_000),
		"key inside": "claude-" + testKey,
	} {
		for _, stream := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s stream=%t", name, stream), func(t *testing.T) {
				id := "msg_\u0000" + strings.Repeat("i", 300)
				srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
					start, msg := map[string]any{}, map[string]any{}
					_ = json.Unmarshal([]byte(anthropicStream[0].data), &start)
					_ = json.Unmarshal([]byte(anthropicMessage), &msg)
					for _, m := range []any{start["message"], msg} {
						m.(map[string]any)["model"], m.(map[string]any)["id"] = model, id
					}
					if !stream {
						io.WriteString(w, jsonString(msg))
						return
					}
					startSSE(w)
					writeSSE(w, "message_start", jsonString(start))
					for _, ev := range anthropicStream[1:] {
						writeSSE(w, ev.name, ev.data)
					}
				})
				p := newTestProxy(t, srv.URL, StyleMessages)
				var sent *Message
				var rep Report
				var err error
				if stream {
					_, rep, err = p.Stream(context.Background(), testRequest(), func(ev Event) error {
						if ev.Type == EventMessageStart {
							sent = ev.Message
						}
						return nil
					})
				} else {
					sent, rep, err = p.Complete(context.Background(), testRequest())
				}
				if err != nil {
					t.Fatal(err)
				}
				for what, s := range map[string]string{"model sent": sent.Model, "id sent": sent.ID, "model reported": rep.Model} {
					if hasUnsafe(s) || utf8.RuneCountInString(s) > 256 || strings.Contains(s, "SECRET") {
						t.Errorf("%s: %q (%d characters)", what, s[:min(len(s), 80)], utf8.RuneCountInString(s))
					}
				}
				if name == "control" && sent.Model != "evil\uFFFD\uFFFD[31mRED\uFFFD[0m\uFFFDFAKE LOG LINE\uFFFD\uFFFD" {
					t.Errorf("model sent %q", sent.Model)
				}
			})
		}
	}
}

// TestUnreportedUsageIsEstimated: an answer without usage (none, null
// counts, an OpenAI-style answer or stream without a usage chunk) is not
// free: the input is estimated, the output too from the text delivered,
// flagged "estimated", and the client is told those counts.
func TestUnreportedUsageIsEstimated(t *testing.T) {
	const text = "Hello, world" // 12 bytes: 4 tokens, or 2 deltas
	noUsage := strings.NewReplacer(`"usage":{"input_tokens":25,"output_tokens":1}`, `"usage":{"input_tokens":null,"output_tokens":null}`,
		`,"usage":{"input_tokens":25,"output_tokens":15}`, ``)
	var messagesStream []sseLine
	for _, ev := range anthropicStream {
		messagesStream = append(messagesStream, sseLine{ev.name, noUsage.Replace(ev.data)})
	}
	openAIChunks := slices.Clone(openAIStream)
	openAIChunks = append(openAIChunks[:4], openAIChunks[5:]...) // no usage chunk
	tests := []struct {
		name, style string
		stream      bool
		answer      func(w http.ResponseWriter)
	}{
		{"messages, no usage", StyleMessages, false, func(w http.ResponseWriter) {
			io.WriteString(w, `{"id":"m","type":"message","role":"assistant","model":"x","content":[{"type":"text","text":"`+text+`"}],"stop_reason":"end_turn","stop_sequence":null}`)
		}},
		{"messages, null counts", StyleMessages, false, func(w http.ResponseWriter) {
			io.WriteString(w, `{"id":"m","type":"message","role":"assistant","model":"x","content":[{"type":"text","text":"`+text+`"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":null,"output_tokens":null}}`)
		}},
		{"messages stream, null and no usage", StyleMessages, true, func(w http.ResponseWriter) {
			startSSE(w)
			for _, ev := range messagesStream {
				writeSSE(w, ev.name, ev.data)
			}
		}},
		{"openai, no usage", StyleOpenAI, false, func(w http.ResponseWriter) {
			io.WriteString(w, `{"id":"c","object":"chat.completion","model":"gpt","choices":[{"index":0,"message":{"role":"assistant","content":"`+text+`"},"finish_reason":"stop"}]}`)
		}},
		{"openai stream, no usage chunk", StyleOpenAI, true, func(w http.ResponseWriter) {
			startSSE(w)
			for _, c := range openAIChunks {
				writeSSE(w, "", c)
			}
		}}, // "Hello", " there": 11 bytes, 4 tokens too
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := upstream(t, func(w http.ResponseWriter, r *http.Request) { tt.answer(w) })
			p := newTestProxy(t, srv.URL, tt.style)
			req := testRequest()
			var told *Usage
			var rep Report
			var err error
			if tt.stream {
				_, rep, err = p.Stream(context.Background(), req, func(ev Event) error {
					if ev.Type == EventMessageDelta {
						told = ev.Usage
					}
					return nil
				})
			} else {
				var msg *Message
				msg, rep, err = p.Complete(context.Background(), req)
				if msg != nil {
					told = &msg.Usage
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			want := Usage{InputTokens: EstimateInputTokens(req), OutputTokens: 4}
			if rep.Usage != want || rep.UsageFlag != UsageEstimated || told == nil || *told != want {
				t.Errorf("report %+v, client told %+v; want %+v estimated", rep, told, want)
			}
		})
	}
}

// TestStreamedKeyInPiecesIsScrubbed: an upstream that streams its key in
// deltas of 4 bytes, each of which passes the scrubber alone: the client's
// text joins into the whole text scrubbed, in as many deltas as the
// upstream sent (one more for the held end), in both upstream styles.
func TestStreamedKeyInPiecesIsScrubbed(t *testing.T) {
	const text = "leaked " + testKey + " there" // 38 bytes: 10 deltas
	var parts []string
	for s := text; s != ""; s = s[min(4, len(s)):] {
		parts = append(parts, s[:min(4, len(s))])
	}
	for _, style := range []string{StyleMessages, StyleOpenAI} {
		t.Run(style, func(t *testing.T) {
			srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
				startSSE(w)
				if style == StyleOpenAI {
					for _, p := range parts {
						writeSSE(w, "", `{"id":"c","object":"chat.completion.chunk","model":"gpt","choices":[{"index":0,"delta":{"content":`+jsonString(p)+`},"finish_reason":null}]}`)
					}
					writeSSE(w, "", `{"id":"c","object":"chat.completion.chunk","model":"gpt","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":10}}`)
					writeSSE(w, "", "[DONE]")
					return
				}
				for _, ev := range anthropicStream[:3] {
					writeSSE(w, ev.name, ev.data)
				}
				for _, p := range parts {
					writeSSE(w, "content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":`+jsonString(p)+`}}`)
				}
				for _, ev := range anthropicStream[5:] {
					writeSSE(w, ev.name, ev.data)
				}
			})
			gw, results := serveGateway(t, newTestProxy(t, srv.URL, style), testRequest())
			evs := readEvents(t, postStream(t, context.Background(), testClient(t), gw.URL).Body)
			var got strings.Builder
			deltas := 0
			for _, ev := range evs {
				if ev.name == "content_block_delta" {
					deltas++
					got.WriteString(ev.data["delta"].(map[string]any)["text"].(string))
				}
			}
			if got.String() != "leaked [redacted] there" || deltas < len(parts) || deltas > len(parts)+1 {
				t.Errorf("the client got %q in %d deltas, from %d", got.String(), deltas, len(parts))
			}
			res := wait(t, results, "the handler")
			if res.err != nil || res.msg.Text() != "leaked [redacted] there" {
				t.Errorf("message %+v, err %v", res.msg, res.err)
			}
		})
	}
}

// TestHeldTextIsSentWhenTheStreamFails: text held back in case the next
// delta completes a run of the key is sent before the error event of a
// stream that fails inside its block: nothing that was billed is lost.
func TestHeldTextIsSentWhenTheStreamFails(t *testing.T) {
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		startSSE(w)
		for _, ev := range anthropicStream[:3] {
			writeSSE(w, ev.name, ev.data)
		}
		writeSSE(w, "content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"the key is sk-te"}}`)
		writeSSE(w, "error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
	})
	gw, results := serveGateway(t, newTestProxy(t, srv.URL, StyleMessages), testRequest())
	evs := readEvents(t, postStream(t, context.Background(), testClient(t), gw.URL).Body)
	var texts []string
	for _, ev := range evs {
		if ev.name == "content_block_delta" {
			texts = append(texts, ev.data["delta"].(map[string]any)["text"].(string))
		}
	}
	if strings.Join(texts, "|") != "the key is |sk-te" || evs[len(evs)-1].name != "error" {
		t.Errorf("events %s, texts %q", eventNames(evs), texts)
	}
	wait(t, results, "the handler")
}

// The stop reason and stop sequence an upstream sends back are forwarded
// and recorded like the rest of its answer: the key scrubbed from both,
// the reason a safe, bounded name; a stop sequence keeps its newlines.
func TestUpstreamStopFieldsAreCleaned(t *testing.T) {
	reason := "end_turn " + testKey + "\u0000\u202e" + strings.Repeat("x", 100)
	seq := "\n\nHuman: " + testKey
	for _, stream := range []bool{false, true} {
		srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
			if !stream {
				msg := map[string]any{}
				_ = json.Unmarshal([]byte(anthropicMessage), &msg)
				msg["stop_reason"], msg["stop_sequence"] = reason, seq
				io.WriteString(w, jsonString(msg))
				return
			}
			startSSE(w)
			for _, ev := range anthropicStream {
				if ev.name == "message_delta" {
					d := map[string]any{}
					_ = json.Unmarshal([]byte(ev.data), &d)
					d["delta"] = map[string]any{"stop_reason": reason, "stop_sequence": seq}
					writeSSE(w, ev.name, jsonString(d))
					continue
				}
				writeSSE(w, ev.name, ev.data)
			}
		})
		p := newTestProxy(t, srv.URL, StyleMessages)
		var gotReason string
		var gotSeq *string
		var rep Report
		var err error
		if stream {
			_, rep, err = p.Stream(context.Background(), testRequest(), func(ev Event) error {
				if ev.Type == EventMessageDelta {
					gotReason, gotSeq = ev.StopReason, ev.StopSequence
				}
				return nil
			})
		} else {
			var msg *Message
			msg, rep, err = p.Complete(context.Background(), testRequest())
			if msg != nil {
				gotReason, gotSeq = msg.StopReason, msg.StopSequence
			}
		}
		if err != nil {
			t.Fatalf("stream=%t: %v", stream, err)
		}
		for what, s := range map[string]string{"reason": gotReason, "recorded reason": rep.StopReason} {
			if strings.Contains(s, testKey[:MinScrubRun]) || hasUnsafe(s) || utf8.RuneCountInString(s) > maxStopReasonLen {
				t.Errorf("stream=%t: %s %q", stream, what, s)
			}
		}
		if gotSeq == nil || strings.Contains(*gotSeq, testKey[:MinScrubRun]) || !strings.HasPrefix(*gotSeq, "\n\nHuman: ") {
			t.Errorf("stream=%t: stop sequence %v", stream, gotSeq)
		}
	}
}

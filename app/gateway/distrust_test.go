package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
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

package gateway

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
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

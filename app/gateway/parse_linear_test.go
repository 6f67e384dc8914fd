package gateway

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// A long run of function calls, of their outputs or of assistant messages
// (the Responses API), or of tool messages (Chat Completions), joins one
// turn: reading eight times
// as many items takes about eight times as long, not sixty-four (a join
// recomputed the whole turn's text, and 32,000 tool messages of a 1.7 MB
// body kept a core busy for 13 s). Timed against itself in the same run,
// the best of three each.
func TestParseJoinedTurnsIsLinear(t *testing.T) {
	responses := func(n int) []byte {
		var b strings.Builder
		b.WriteString(`{"model":"m","input":[{"role":"user","content":"hi"}`)
		for i := range n {
			fmt.Fprintf(&b, `,{"type":"function_call","call_id":"c%d","name":"f","arguments":"{}"}`, i)
		}
		for i := range n {
			fmt.Fprintf(&b, `,{"type":"function_call_output","call_id":"c%d","output":"ok"}`, i)
		}
		for range n {
			b.WriteString(`,{"role":"assistant","content":"an answer"}`)
		}
		return []byte(b.String() + `]}`)
	}
	completions := func(n int) []byte {
		var b strings.Builder
		b.WriteString(`{"model":"m","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]}`)
		for range n {
			b.WriteString(`,{"role":"tool","tool_call_id":"a","content":"ok"}`)
		}
		return []byte(b.String() + `]}`)
	}
	for _, tc := range []struct {
		name  string
		body  func(int) []byte
		parse func([]byte, Defaults) (*Request, error)
	}{{"responses", responses, ParseResponsesRequest}, {"completions", completions, ParseCompletionsRequest}} {
		took := func(n int) time.Duration {
			body := tc.body(n)
			best := time.Duration(1 << 62)
			for range 3 {
				start := time.Now()
				if _, err := tc.parse(body, Defaults{MaxTokens: 100}); err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				best = min(best, time.Since(start))
			}
			return best
		}
		small, large := took(2000), took(16000)
		if ratio := float64(large) / float64(small); ratio > 24 {
			t.Errorf("%s: 8x the items took %.0fx the time (%v, %v): not linear", tc.name, ratio, small, large)
		}
	}
}

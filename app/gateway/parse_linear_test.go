package gateway

import (
	"fmt"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A long run of function calls, of their outputs or of assistant messages
// (the Responses API), or of tool messages (Chat Completions), joins one
// turn: reading sixteen
// times as many items takes about sixteen times as long, not 256 (a join
// recomputed the whole turn's text, and 32,000 tool messages of a 1.7 MB
// body kept a core busy for 13 s). Timed against itself in the same run,
// the best of three each, in the process's CPU time, which other work on
// the machine does not stretch.
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
		b.WriteString(`{"model":"m","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[`)
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"id":"a%d","type":"function","function":{"name":"f","arguments":"{}"}}`, i)
		}
		b.WriteString(`]}`)
		for i := range n {
			fmt.Fprintf(&b, `,{"role":"tool","tool_call_id":"a%d","content":"ok"}`, i)
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
				runtime.GC()
				start := cpuTime(t)
				if _, err := tc.parse(body, Defaults{MaxTokens: 100}); err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				best = min(best, cpuTime(t)-start)
			}
			return best
		}
		small, large := took(1000), took(16000)
		if ratio := float64(large) / float64(small); ratio > 80 {
			t.Errorf("%s: 16x the items took %.0fx the time (%v, %v): not linear", tc.name, ratio, small, large)
		}
	}
}

// cpuTime is the CPU time the process has used.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

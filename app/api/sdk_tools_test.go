package api_test

import (
	"testing"
)

// loopResult is what a tool-use loop script prints for one loop.
type loopResult struct {
	FirstStop string            `json:"first_stop"`
	Tool      string            `json:"tool"`
	Input     map[string]string `json:"input"`
	ID        string            `json:"id"`
	LastStop  string            `json:"last_stop"`
	Text      string            `json:"text"`
}

// Each official SDK runs a whole tool-use loop, streamed and not, against
// a fake provider of each style: the tool call reaches the client with
// the provider's id, its input whole (streamed as input_json_delta or as
// tool-call argument fragments), and the result goes back to the
// provider in its own form under that same id, which the fake checks
// before it answers.
func TestOfficialSDKsToolLoop(t *testing.T) {
	for _, sdk := range []struct{ script, pkg, base, toolStop, endStop string }{
		{"anthropic_sdk_tools.mjs", "@anthropic-ai/sdk", "/gateway", "tool_use", "end_turn"},
		{"openai_sdk_tools.mjs", "openai", "/gateway/v1", "tool_calls", "stop"},
	} {
		for _, style := range []string{"messages", "openai"} {
			t.Run(sdk.pkg+" to "+style, func(t *testing.T) {
				up := agentUpstream(t, style)
				var got struct{ Plain, Stream loopResult }
				runSDK(t, sdk.script, sdk.pkg, sdk.base, &got, agentOptions(up, style)...)
				id := map[string]string{"messages": messagesToolID, "openai": openAIToolID}[style]
				for name, r := range map[string]loopResult{"create": got.Plain, "stream": got.Stream} {
					if r.FirstStop != sdk.toolStop || r.Tool != "get_weather" || r.Input["city"] != "Paris" || r.ID != id {
						t.Errorf("%s: the tool call %+v", name, r)
					}
					if r.Text != agentAnswer || r.LastStop != sdk.endStop {
						t.Errorf("%s: the answer after the result: %q (%s), want %q", name, r.Text, r.LastStop, agentAnswer)
					}
				}
			})
		}
	}
}

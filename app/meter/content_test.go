package meter

import (
	"encoding/json"
	"strings"
	"testing"

	"parapet/app/gateway"
)

// The kept content of a call holds its tool calls and results, a streamed
// call's input cut short by max_tokens (no JSON) as the text it is: the
// whole content was lost to it.
func TestContentKeepsToolTurns(t *testing.T) {
	req := &gateway.Request{Messages: []gateway.ChatMessage{
		{Role: "user", Content: "weather?"},
		{Role: "assistant", Blocks: []gateway.ContentBlock{{Type: gateway.BlockToolUse, ID: "t1", Name: "get", Input: json.RawMessage(`{"city":"Oslo"}`)}}},
		{Role: "user", Blocks: []gateway.ContentBlock{{Type: gateway.BlockToolResult, ToolUseID: "t1", Content: []gateway.ContentBlock{{Type: gateway.BlockText, Text: "rain"}}}}},
	}}
	reply := &gateway.Message{Content: []gateway.ContentBlock{{Type: gateway.BlockToolUse, ID: "t2", Name: "get", Input: json.RawMessage(`{"city": "Ber`)}}}
	got := content(req, reply)
	if got == nil || !json.Valid([]byte(*got)) {
		t.Fatalf("content %v", got)
	}
	for _, want := range []string{`"city":"Oslo"`, `"content":"rain"`, `"input":"{\"city\": \"Ber"`} {
		if !strings.Contains(*got, want) {
			t.Errorf("content lacks %s: %s", want, *got)
		}
	}
}

package gateway

import (
	"encoding/json"
	"strings"
	"testing"
)

// OpenAI's reasoning models refuse max_tokens and sampling settings: they
// are sent max_completion_tokens and no temperature or top_p; other
// models, and OpenAI-compatible servers' own, get them as asked.
func TestOpenAIReasoningModels(t *testing.T) {
	for model, reasoning := range map[string]bool{
		"gpt-5": true, "gpt-5.5": true, "gpt-5.4-mini": true, "gpt-5-2025-08-07": true, "o3": true, "o4-mini": true, "o1": true, "openai/gpt-5.1": true,
		"gpt-5-chat-latest": false, "gpt-4.1": false, "gpt-4o-mini": false, "llama3.1": false, "omni-moderation": false, "deepseek-chat": false,
	} {
		if got := openAIReasoning(model); got != reasoning {
			t.Errorf("%s: reasoning %v, want %v", model, got, reasoning)
		}
		req, err := ParseMessagesRequest([]byte(`{"model":"`+model+`","max_tokens":300,"temperature":0.2,"top_p":0.9,"messages":[{"role":"user","content":"x"}]}`), testDefaults)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(openAIBody(req, false))
		want := `"max_tokens":300,"temperature":0.2,"top_p":0.9`
		if reasoning {
			want = `"max_completion_tokens":300`
		}
		if !strings.Contains(string(b), want) || reasoning && strings.Contains(string(b), "temperature") {
			t.Errorf("%s: %s, want %s", model, b, want)
		}
	}
}

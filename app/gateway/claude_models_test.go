package gateway

import "testing"

// The models that refuse thinking "enabled" are told apart by name, as
// each provider writes it.
func TestAdaptiveOnlyModels(t *testing.T) {
	for model, want := range map[string]bool{
		"claude-opus-4-7": true, "claude-opus-4-8": true, "claude-opus-5": true, "claude-fable-5": true,
		"claude-mythos-preview": true, "anthropic.claude-opus-4-7": true, "claude-opus-4-7@20260401": true, "Claude-Opus-4.7": true,
		"claude-opus-4-6": false, "claude-sonnet-4-6": false, "us.anthropic.claude-opus-4-6-v1:0": false,
		"claude-sonnet-4-5": false, "claude-haiku-4-5-20251001": false, "claude-sonnet-4-20250514": false,
		"claude-opus-4-1-20250805": false, "claude-3-7-sonnet-20250219": false, "claude-3-5-haiku-latest": false,
		"gpt-4.1": false, "deepseek-reasoner": false, "MiniMax-M2": false,
	} {
		if got := adaptiveOnly(model); got != want {
			t.Errorf("%s: adaptive only %v, want %v", model, got, want)
		}
	}
}

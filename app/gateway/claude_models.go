package gateway

import (
	"strconv"
	"strings"
)

// adaptiveOnly: the Claude model takes thinking only as {"type":"adaptive"}
// (with output_config.effort), and refuses "enabled" with budget_tokens
// with a 400: Claude Opus 4.7 and every model after it. Opus and Sonnet
// 4.6 take both; earlier models take "enabled" only. The same models
// refuse temperature, top_p and top_k. A Claude name
// without a version ("claude-mythos-preview") is of the newer naming.
// Names are read as the providers write them: Anthropic's
// ("claude-opus-4-7", "claude-3-7-sonnet-20250219"), Bedrock's
// ("us.anthropic.claude-opus-4-6-v1:0") and Vertex's ("claude-opus-4-7@…").
// Any other name (an Anthropic-compatible API's own model) is not.
func adaptiveOnly(model string) bool {
	major, minor, isClaude := claudeVersion(model)
	return isClaude && (major == 0 || major > 4 || major == 4 && minor >= 7)
}

// claudeVersion reads a Claude model's version from its name: the first
// number of one or two digits, and the next as the minor version (a date
// is no version); 0, 0 when the name has none. isClaude is false for a
// name without "claude".
func claudeVersion(model string) (major, minor int, isClaude bool) {
	name := strings.ToLower(model)
	at := strings.Index(name, "claude")
	if at < 0 {
		return 0, 0, false
	}
	parts := strings.FieldsFunc(name[at:], func(r rune) bool { return strings.ContainsRune("-._@:/", r) })
	for i, p := range parts {
		n, ok := smallNumber(p)
		if !ok {
			continue
		}
		if i+1 < len(parts) {
			minor, _ = smallNumber(parts[i+1])
		}
		return n, minor, true
	}
	return 0, 0, true
}

// smallNumber reads a part of one or two digits.
func smallNumber(s string) (int, bool) {
	if len(s) == 0 || len(s) > 2 {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

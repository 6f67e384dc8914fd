package gateway

import "strings"

// openAIReasoning: an OpenAI reasoning model, the o-series and the GPT-5
// family but its "-chat" models. They count reasoning in
// max_completion_tokens and refuse max_tokens, and refuse a temperature
// or top_p other than the default, each with a 400. A router's prefix
// ("openai/gpt-5") is read past.
func openAIReasoning(model string) bool {
	name := strings.ToLower(model)
	name = name[strings.LastIndexByte(name, '/')+1:]
	if strings.Contains(name, "-chat") {
		return false
	}
	return strings.HasPrefix(name, "gpt-5") || len(name) > 1 && name[0] == 'o' && name[1] >= '1' && name[1] <= '9'
}

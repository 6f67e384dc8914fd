package gateway

import "testing"

// Requests as client libraries other than the official SDKs send them by
// default, captured from the libraries themselves. The Vercel AI SDK and
// LangChain ask for a model's whole output limit (64,000 for a Claude Sonnet
// 4.5), more than the cap: they are served, max_tokens lowered to the cap.
func TestClientLibraryRequests(t *testing.T) {
	tests := []struct {
		library string
		parse   func([]byte, Defaults) (*Request, error)
		body    string
		want    int // max_tokens as forwarded
	}{
		{"@ai-sdk/anthropic 3.0.140, claude-sonnet-4-5", ParseMessagesRequest,
			`{"model":"claude-sonnet-4-5","max_tokens":64000,"system":[{"type":"text","text":"sys"}],"messages":[{"role":"user","content":[{"type":"text","text":"Hello"}]}]}`, 4096},
		{"@ai-sdk/anthropic 3.0.140, unknown model", ParseMessagesRequest,
			`{"model":"parapet-demo","max_tokens":4096,"messages":[{"role":"user","content":[{"type":"text","text":"Hello stream"}]}],"stream":true}`, 4096},
		{"@langchain/anthropic 1.5.11, claude-sonnet-4-5", ParseMessagesRequest,
			`{"model":"claude-sonnet-4-5","stream":true,"max_tokens":16384,"messages":[{"role":"user","content":"Hi"}],"system":"sys"}`, 4096},
		{"@langchain/anthropic 1.5.11, claude-3-5-haiku", ParseMessagesRequest,
			`{"model":"claude-3-5-haiku-latest","stream":false,"max_tokens":2048,"temperature":0.2,"messages":[{"role":"user","content":"Hello"}],"system":"sys"}`, 2048},
		{"@ai-sdk/openai 3.0.141, gpt-5", ParseCompletionsRequest,
			`{"model":"gpt-5","messages":[{"role":"developer","content":"sys"},{"role":"user","content":"Hi"},{"role":"assistant","content":"Hey"},{"role":"user","content":"again"}],"stream":true,"stream_options":{"include_usage":true}}`, 1024},
		{"@ai-sdk/openai 3.0.141, gpt-5 with maxOutputTokens", ParseCompletionsRequest,
			`{"model":"gpt-5","max_completion_tokens":128000,"messages":[{"role":"user","content":"Hi"}]}`, 4096},
		{"@langchain/openai 1.5.8", ParseCompletionsRequest,
			`{"model":"gpt-4o-mini","stream":false,"messages":[{"role":"system","content":"sys"},{"role":"user","content":"Hello"}]}`, 1024},
		{"@ai-sdk/anthropic 3.0.140, cacheControl", ParseMessagesRequest,
			`{"model":"claude-3-5-haiku-latest","max_tokens":4096,"system":[{"type":"text","text":"long sys","cache_control":{"type":"ephemeral"}}],"messages":[{"role":"user","content":[{"type":"text","text":"Hi","cache_control":{"type":"ephemeral"}}]}]}`, 4096},
		{"@ai-sdk/openai 3.0.141, text parts and provider options", ParseCompletionsRequest,
			`{"model":"gpt-4o","user":"u1","parallel_tool_calls":false,"messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]}`, 1024},
		{"@langchain/openai 1.5.8, every sampling option and content blocks", ParseCompletionsRequest,
			`{"model":"gpt-4o-mini","temperature":0,"top_p":1,"frequency_penalty":0,"presence_penalty":0,"n":1,"stop":["END"],"stream":false,"max_tokens":100,"messages":[{"role":"system","content":[{"type":"text","text":"sys"}]},{"role":"user","content":[{"type":"text","text":"Hi"}]}]}`, 100},
		{"parapet /chat", ParseChatRequest, `{"messages":[{"role":"user","content":"a"}],"max_tokens":4097}`, 4096},
	}
	for _, tt := range tests {
		t.Run(tt.library, func(t *testing.T) {
			req, err := tt.parse([]byte(tt.body), testDefaults)
			if err != nil {
				t.Fatal(err)
			}
			if req.MaxTokens != tt.want {
				t.Errorf("max_tokens %d, want %d", req.MaxTokens, tt.want)
			}
		})
	}
}

package api_test

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"parapet/app/apptest"
)

// The Vercel AI SDK (@ai-sdk/anthropic 3.0.140) and LangChain
// (@langchain/anthropic 1.5.11) send a Claude model's whole output limit as
// max_tokens by default, over GATEWAY_MAX_TOKENS_CAP: the exact requests
// they sent are served, the upstream asked for the cap.
func TestGatewayClientLibraryMaxTokensAboveCap(t *testing.T) {
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		if body["stream"] == true {
			messagesSSE(w, []string{"Hello", " there"})
			return
		}
		messagesJSON(w, "Hi!", 3, 2)
	})
	env, s := gatewayEnv(t, apptest.Databases(t)[0], up)
	c := env.Client()
	for library, body := range map[string]string{
		"ai-sdk":           `{"model":"claude-sonnet-4-5","max_tokens":64000,"system":[{"type":"text","text":"sys"}],"messages":[{"role":"user","content":[{"type":"text","text":"Hello"}]}]}`,
		"langchain stream": `{"model":"claude-sonnet-4-5","stream":true,"max_tokens":16384,"messages":[{"role":"user","content":"Hi"}],"system":"sys"}`,
	} {
		res := c.PostJSON("/gateway/v1/messages", body, "x-api-key", s.Key, "anthropic-version", "2023-06-01")
		var sent any
		up.mu.Lock()
		if n := len(up.bodies); n > 0 {
			sent, up.bodies = up.bodies[n-1]["max_tokens"], nil
		}
		up.mu.Unlock()
		if res.StatusCode != 200 || strings.Contains(res.Body, `"error"`) || sent != float64(8192) {
			t.Errorf("%s: %d %s, upstream max_tokens %v", library, res.StatusCode, res.Body, sent)
		}
	}
}

// The Vercel AI SDK (ai 6.0.326: generateText with tools and several
// steps, via @ai-sdk/openai 3.0.141 .chat() and @ai-sdk/anthropic
// 3.0.140) and LangChain (bindTools, @langchain/openai 1.5.8 and
// @langchain/anthropic 1.5.11, @langchain/core 1.4.0) each completed a
// tool call and an answer; their exact requests, recorded
// (testdata/client_tool_requests.json), are replayed here to a provider
// of each style: the first is answered with a tool call, the second
// carries the tool's result to the provider in its own form, under the
// id the library sent.
func TestGatewayClientLibraryToolLoops(t *testing.T) {
	raw, err := os.ReadFile("testdata/client_tool_requests.json")
	if err != nil {
		t.Fatal(err)
	}
	var recorded map[string][]map[string]any
	if err := json.Unmarshal(raw, &recorded); err != nil {
		t.Fatal(err)
	}
	for _, style := range []string{"messages", "openai"} {
		t.Run(style, func(t *testing.T) {
			up := agentUpstream(t, style)
			env := apptest.New(t, apptest.Databases(t)[0], agentOptions(up, style)...)
			s := env.Seed(t, "libs@example.com")
			for library, reqs := range recorded {
				path, toolStop := "/gateway/v1/chat/completions", `"finish_reason":"tool_calls"`
				if strings.HasSuffix(library, "anthropic") {
					path, toolStop = "/gateway/v1/messages", `"stop_reason":"tool_use"`
				}
				first, _ := json.Marshal(reqs[0])
				if res := env.Client().PostJSON(path, string(first), bearer(s.Key)...); res.StatusCode != 200 || !strings.Contains(res.Body, toolStop) {
					t.Errorf("%s, first step: %d %s", library, res.StatusCode, res.Body)
				}
				second, _ := json.Marshal(reqs[1])
				res := env.Client().PostJSON(path, string(second), bearer(s.Key)...)
				id := map[bool]string{true: "toolu_01A", false: "call_01A"}[strings.HasSuffix(library, "anthropic")]
				if res.StatusCode != 200 || resultID(up.lastBody()) != id {
					t.Errorf("%s, with the result: %d %s; the provider got %v", library, res.StatusCode, res.Body, up.lastBody()["messages"])
				}
			}
		})
	}
}

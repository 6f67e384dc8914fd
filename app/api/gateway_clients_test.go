package api_test

import (
	"net/http"
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

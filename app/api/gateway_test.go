package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"parapet/app/apptest"
	"parapet/app/meter"
	"parapet/app/openapi"
	"parapet/models"
)

// upstream is a fake LLM provider at the edge of the world: it speaks the
// Messages API (JSON and SSE) or OpenAI's Chat Completions, and records
// what it received.
type upstream struct {
	*httptest.Server
	mu      sync.Mutex
	headers http.Header
	bodies  []map[string]any
	handle  func(w http.ResponseWriter, r *http.Request, body map[string]any)
}

func newUpstream(t *testing.T, handle func(w http.ResponseWriter, r *http.Request, body map[string]any)) *upstream {
	u := &upstream{handle: handle}
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		u.mu.Lock()
		u.headers, u.bodies = r.Header.Clone(), append(u.bodies, body)
		u.mu.Unlock()
		u.handle(w, r, body)
	}))
	t.Cleanup(u.Close)
	return u
}

func messagesJSON(w http.ResponseWriter, text string, in, out int) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"id":"msg_up1","type":"message","role":"assistant","model":"claude-test","content":[{"type":"text","text":%q}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":%d,"output_tokens":%d}}`, text, in, out)
}

// waitNotEntitled waits until the gateway refuses key's organization, as
// it does within meter.AllowanceTTL of an operator's revocation: it asks
// GET /gateway/v1/models, which checks the entitlement and is no call.
func waitNotEntitled(t *testing.T, c *apptest.Client, key string) {
	t.Helper()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for deadline := time.Now().Add(3 * meter.AllowanceTTL); c.Get("/gateway/v1/models", "X-Api-Key", key).StatusCode != 403; <-tick.C {
		if time.Now().After(deadline) {
			t.Fatal("the gateway still admits an organization whose entitlement was revoked")
		}
	}
}

// waitEvents waits until at least n gateway.call records are written (a
// stream's record follows the stream's end, which follows the client's).
func waitEvents(t *testing.T, env *apptest.Env, n int) []models.AuditEvent {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		evs := gatewayEvents(t, env)
		if len(evs) >= n || time.Now().After(deadline) {
			return evs
		}
		<-tick.C
	}
}

func messagesSSE(w http.ResponseWriter, words []string) {
	w.Header().Set("Content-Type", "text/event-stream")
	f := w.(http.Flusher)
	send := func(ev, data string) {
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev, data)
		f.Flush()
	}
	send("message_start", `{"type":"message_start","message":{"id":"msg_up2","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":7,"output_tokens":1}}}`)
	send("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
	for _, wd := range words {
		send("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":%q}}`, wd))
	}
	send("content_block_stop", `{"type":"content_block_stop","index":0}`)
	send("message_delta", fmt.Sprintf(`{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":%d}}`, len(words)))
	send("message_stop", `{"type":"message_stop"}`)
}

func gatewayEnv(t *testing.T, d apptest.Database, up *upstream, extra ...apptest.Option) (*apptest.Env, apptest.Seeded) {
	opts := []apptest.Option{apptest.WithEnv("GATEWAY_DEMO_WORD_DELAY", "0s")}
	if up != nil {
		opts = append(opts, apptest.WithEnv("GATEWAY_UPSTREAM_URL", up.URL), apptest.WithEnv("GATEWAY_UPSTREAM_KEY", "sk-upstream-secret"),
			apptest.WithEnv("GATEWAY_MODEL", "claude-test"))
	}
	env := apptest.New(t, d, append(opts, extra...)...)
	return env, env.Seed(t, "gw@example.com")
}

func chat(c *apptest.Client, key, body string) *apptest.Response {
	return c.PostJSON("/gateway/v1/chat", body, "Authorization", "Bearer "+key)
}

func gatewayEvents(t *testing.T, env *apptest.Env) []models.AuditEvent {
	t.Helper()
	env.App.FlushAudit()
	var evs []models.AuditEvent
	if err := env.DB.Where("action = ?", models.ActionGatewayCall).Order("created_at").Find(&evs).Error; err != nil {
		t.Fatal(err)
	}
	return evs
}

func TestGatewayMessagesUpstream(t *testing.T) {
	for _, d := range apptest.Databases(t) {
		t.Run(d.Name, func(t *testing.T) {
			up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
				if body["stream"] == true {
					messagesSSE(w, []string{"Hello", " there"})
					return
				}
				messagesJSON(w, "Hi! I am the fake.", 12, 5)
			})
			env, s := gatewayEnv(t, d, up)
			c := env.Client()
			res := chat(c, s.Key, `{"messages":[{"role":"user","content":"Say hi"}],"system":"be brief","max_tokens":50}`)
			if res.StatusCode != 200 {
				t.Fatalf("status %d: %s", res.StatusCode, res.Body)
			}
			var msg map[string]any
			res.JSON(t, &msg)
			content := msg["content"].([]any)[0].(map[string]any)
			usage := msg["usage"].(map[string]any)
			if msg["type"] != "message" || msg["role"] != "assistant" || content["text"] != "Hi! I am the fake." || usage["input_tokens"] != 12.0 || usage["output_tokens"] != 5.0 || msg["stop_reason"] != "end_turn" {
				t.Errorf("response %s", res.Body)
			}
			up.mu.Lock()
			h, body := up.headers, up.bodies[0]
			up.mu.Unlock()
			if h.Get("X-Api-Key") != "sk-upstream-secret" || h.Get("Anthropic-Version") == "" || body["system"] != "be brief" || body["model"] != "claude-test" {
				t.Errorf("upstream got headers %v body %v", h, body)
			}
			for _, name := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-Request-Id"} {
				if res.Header.Get(name) == "" {
					t.Errorf("missing %s", name)
				}
			}
			// The answer is sent with its length (and pushed out before
			// the call's record is written), so a client reads it whole.
			if cl := res.Header.Get("Content-Length"); cl != strconv.Itoa(len(res.Body)) {
				t.Errorf("Content-Length %q for a body of %d bytes", cl, len(res.Body))
			}

			// Streaming: the Messages events, in order.
			res = chat(c, s.Key, `{"messages":[{"role":"user","content":"Stream"}],"stream":true}`)
			if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
				t.Fatalf("stream content type %q: %s", ct, res.Body)
			}
			var names []string
			for _, line := range strings.Split(res.Body, "\n") {
				if n, ok := strings.CutPrefix(line, "event: "); ok && n != "ping" {
					names = append(names, n)
				}
			}
			// " there" ends in "re", which is part of the upstream key: it
			// is held back in case the next delta completes a run of the
			// key, and sent in one more delta before content_block_stop.
			want := "message_start content_block_start content_block_delta content_block_delta content_block_delta content_block_stop message_delta message_stop"
			if strings.Join(names, " ") != want {
				t.Errorf("events %v, want %s", names, want)
			}

			// One audit record per call, with tokens, latencies and no content.
			evs := gatewayEvents(t, env)
			if len(evs) != 2 {
				t.Fatalf("%d audit records for 2 calls", len(evs))
			}
			e := evs[0]
			if e.OrgID == nil || *e.OrgID != s.OrgID || e.ActorKeyID == nil || *e.ActorKeyID != s.KeyID || *e.Status != 200 ||
				*e.InputTokens != 12 || *e.OutputTokens != 5 || *e.Model != "claude-test" || *e.Stream || e.UpstreamMs == nil || e.TotalMs == nil || e.Detail != nil {
				t.Errorf("audit record %+v", e)
			}
			if !*evs[1].Stream || *evs[1].OutputTokens != 2 || *evs[1].InputTokens != 7 {
				t.Errorf("stream audit record %+v", evs[1])
			}
			if strings.Contains(env.Logs.String(), "sk-upstream-secret") || strings.Contains(env.Logs.String(), "Say hi") {
				t.Error("the logs hold the upstream key or the prompt")
			}
		})
	}
}

func TestGatewayOpenAIUpstream(t *testing.T) {
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		if r.URL.Path != "/v1/chat/completions" {
			http.Error(w, "wrong path", 404)
			return
		}
		if body["stream"] == true {
			w.Header().Set("Content-Type", "text/event-stream")
			for _, chunk := range []string{
				`{"id":"c1","object":"chat.completion.chunk","model":"gpt-test","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`,
				`{"id":"c1","object":"chat.completion.chunk","model":"gpt-test","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}`,
				`{"id":"c1","object":"chat.completion.chunk","model":"gpt-test","choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":"stop"}]}`,
				`{"id":"c1","object":"chat.completion.chunk","model":"gpt-test","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":2,"total_tokens":11}}`,
			} {
				fmt.Fprintf(w, "data: %s\n\n", chunk)
			}
			fmt.Fprint(w, "data: [DONE]\n\n")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"c2","object":"chat.completion","model":"gpt-test","choices":[{"index":0,"message":{"role":"assistant","content":"Hello from OpenAI style"},"finish_reason":"length"}],"usage":{"prompt_tokens":4,"completion_tokens":6,"total_tokens":10}}`)
	})
	env, s := gatewayEnv(t, apptest.Databases(t)[0], up, apptest.WithEnv("GATEWAY_UPSTREAM_STYLE", "openai"))
	c := env.Client()
	res := chat(c, s.Key, `{"messages":[{"role":"user","content":"hi"}],"system":"sys"}`)
	var msg struct {
		Content    []struct{ Text string }
		StopReason string `json:"stop_reason"`
		Usage      struct {
			InputTokens  int `json:"input_tokens"`
			OutputTokens int `json:"output_tokens"`
		}
	}
	res.JSON(t, &msg)
	if res.StatusCode != 200 || msg.Content[0].Text != "Hello from OpenAI style" || msg.StopReason != "max_tokens" || msg.Usage.InputTokens != 4 || msg.Usage.OutputTokens != 6 {
		t.Errorf("openai translation: %d %s", res.StatusCode, res.Body)
	}
	up.mu.Lock()
	first := up.bodies[0]
	auth := up.headers.Get("Authorization")
	up.mu.Unlock()
	msgs := first["messages"].([]any)
	if auth != "Bearer sk-upstream-secret" || msgs[0].(map[string]any)["role"] != "system" {
		t.Errorf("openai request: auth %q messages %v", auth, msgs)
	}
	// top_k has no counterpart in Chat Completions: refused by name, not
	// dropped (top_k 1 asks for the likeliest token every time).
	res = c.PostJSON("/gateway/v1/messages", `{"model":"m","max_tokens":5,"top_k":1,"messages":[{"role":"user","content":"hi"}]}`, "x-api-key", s.Key)
	if res.StatusCode != 400 || !strings.Contains(res.Body, "top_k is not supported") {
		t.Errorf("top_k for an openai-style upstream: %d %s", res.StatusCode, res.Body)
	}
	res = chat(c, s.Key, `{"messages":[{"role":"user","content":"hi"}],"stream":true}`)
	if !strings.Contains(res.Body, `"text":"Hel"`) || !strings.Contains(res.Body, "event: message_stop") || !strings.Contains(res.Body, `"output_tokens":2`) {
		t.Errorf("openai stream translation: %s", res.Body)
	}
}

func TestGatewayErrors(t *testing.T) {
	var mode string
	var mu sync.Mutex
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		mu.Lock()
		m := mode
		mu.Unlock()
		switch m {
		case "400":
			w.WriteHeader(400)
			fmt.Fprint(w, `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens too large for sk-upstream-secret"}}`)
		case "429":
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(429)
			fmt.Fprint(w, `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`)
		case "garbage":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"id": not json`)
		case "hang":
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		default:
			messagesJSON(w, "ok", 1, 1)
		}
	})
	env, s := gatewayEnv(t, apptest.Databases(t)[0], up, apptest.WithEnv("GATEWAY_TIMEOUT", "300ms"))
	c := env.Client()
	cases := []struct {
		mode, body       string
		status           int
		code, retryAfter string
	}{
		{"", `{"messages":[]}`, 400, "invalid_request", ""},
		{"", `{"messages":[{"role":"user","content":"x"}],"temprature":1}`, 400, "invalid_request", ""},
		{"400", `{"messages":[{"role":"user","content":"x"}]}`, 502, "upstream_error", ""},
		{"429", `{"messages":[{"role":"user","content":"x"}]}`, 503, "upstream_overloaded", "7"},
		{"garbage", `{"messages":[{"role":"user","content":"x"}]}`, 502, "upstream_error", ""},
		{"hang", `{"messages":[{"role":"user","content":"x"}]}`, 504, "upstream_timeout", ""},
	}
	for _, tc := range cases {
		mu.Lock()
		mode = tc.mode
		mu.Unlock()
		res := chat(c, s.Key, tc.body)
		var e apiError
		res.JSON(t, &e)
		if res.StatusCode != tc.status || e.Error.Code != tc.code || res.Header.Get("Retry-After") != tc.retryAfter {
			t.Errorf("mode %q body %s: %d %s retry-after %q", tc.mode, tc.body, res.StatusCode, res.Body, res.Header.Get("Retry-After"))
		}
		if strings.Contains(res.Body, "sk-upstream-secret") {
			t.Errorf("mode %q echoes the upstream key: %s", tc.mode, res.Body)
		}
		if res.Header.Get("X-RateLimit-Remaining") == "" {
			t.Errorf("mode %q: no rate-limit headers on an error", tc.mode)
		}
	}
	if res := c.PostJSON("/gateway/v1/chat", `{"messages":[{"role":"user","content":"`+strings.Repeat("a", 1<<20)+`"}]}`, "Authorization", "Bearer "+s.Key); res.StatusCode != 413 {
		t.Errorf("1 MiB body: %d", res.StatusCode)
	}
	if res := c.Do("POST", "/gateway/v1/chat", `{}`, "Authorization", "Bearer "+s.Key, "Content-Type", "text/plain"); res.StatusCode != 415 {
		t.Errorf("text/plain: %d", res.StatusCode)
	}
	// An upstream that cannot be reached.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := "http://" + ln.Addr().String()
	ln.Close()
	env2 := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("GATEWAY_UPSTREAM_URL", dead), apptest.WithEnv("GATEWAY_MODEL", "m"))
	s2 := env2.Seed(t, "dead@example.com")
	var e apiError
	res := chat(env2.Client(), s2.Key, `{"messages":[{"role":"user","content":"x"}]}`)
	res.JSON(t, &e)
	if res.StatusCode != 502 || e.Error.Code != "upstream_unavailable" {
		t.Errorf("unreachable upstream: %d %s", res.StatusCode, res.Body)
	}
	// Every call, failed or not, has exactly one audit record.
	if n := len(gatewayEvents(t, env)); n != len(cases)+2 {
		t.Errorf("%d audit records for %d calls", n, len(cases)+2)
	}
}

// An overloaded upstream is 529 overloaded_error on the Messages endpoint,
// as the Anthropic API answers (its SDKs raise OverloadedError), 503 on our
// /chat; each call's record says the status its client got.
func TestGatewayOverloadedRecordsTheStatusAnswered(t *testing.T) {
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(529)
		fmt.Fprint(w, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
	})
	env, s := gatewayEnv(t, apptest.Databases(t)[0], up)
	c := env.Client()
	res := c.PostJSON("/gateway/v1/messages", `{"model":"claude-test","max_tokens":8,"messages":[{"role":"user","content":"x"}]}`, "x-api-key", s.Key)
	if res.StatusCode != 529 || !strings.Contains(res.Body, `"overloaded_error"`) {
		t.Fatalf("messages: %d %s", res.StatusCode, res.Body)
	}
	if res := chat(c, s.Key, `{"messages":[{"role":"user","content":"x"}]}`); res.StatusCode != 503 {
		t.Fatalf("chat: %d %s", res.StatusCode, res.Body)
	}
	evs := gatewayEvents(t, env)
	if len(evs) != 2 || *evs[0].Status != 529 || *evs[1].Status != 503 || *evs[0].ErrorCode != "upstream_overloaded" {
		t.Fatalf("records: %+v", evs)
	}
}

func TestGatewayAuthLimitsAndEntitlement(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "ent@example.com")
		c := env.Client()
		body := `{"messages":[{"role":"user","content":"hello"}]}`
		for _, h := range [][]string{nil, {"Authorization", "Bearer ppk_nope"}} {
			res := c.PostJSON("/gateway/v1/chat", body, h...)
			if res.StatusCode != 401 || res.Header.Get("X-RateLimit-Limit") == "" {
				t.Errorf("no/bad key: %d", res.StatusCode)
			}
		}
		if res := chat(c, s.Key, body); res.StatusCode != 200 {
			t.Fatalf("entitled call: %d %s", res.StatusCode, res.Body)
		}
		ctx := context.Background()
		if _, err := models.RevokeEntitlement(ctx, env.DB.DB, s.OrgID, models.GatewayProductID); err != nil {
			t.Fatal(err)
		}
		// As for an operator elsewhere: the gateway sees it within
		// meter.AllowanceTTL.
		waitNotEntitled(t, c, s.Key)
		var e apiError
		res := chat(c, s.Key, body)
		res.JSON(t, &e)
		if res.StatusCode != 403 || e.Error.Code != "not_entitled" {
			t.Errorf("revoked entitlement: %d %s", res.StatusCode, res.Body)
		}
		// Quota: spent quota is refused before calling upstream.
		env.App.FlushAudit() // usage is counted behind the response
		used, err := models.AllowanceOf(ctx, env.DB.DB, s.OrgID, models.GatewayProductID, models.Period(time.Now()))
		if err != nil {
			t.Fatal(err)
		}
		// Room for one call's worst case ("hello": 5 bytes + 2×8 of
		// framing, +5 max_tokens: 26) and not two (a call uses 11).
		if err := models.SetEntitlement(ctx, env.DB.DB, s.OrgID, models.GatewayProductID, used.UsedTokens+30); err != nil {
			t.Fatal(err)
		}
		small := `{"messages":[{"role":"user","content":"hello"}],"max_tokens":5}`
		if res := chat(c, s.Key, small); res.StatusCode != 200 { // a refusal is never cached
			t.Fatalf("re-granted: %d %s", res.StatusCode, res.Body)
		}
		res = chat(c, s.Key, small)
		res.JSON(t, &e)
		if res.StatusCode != 429 || e.Error.Code != "quota_exceeded" {
			t.Errorf("over quota: %d %s", res.StatusCode, res.Body)
		}
		// One record per call (the anonymous refusals are sampled: the
		// first few per minute are recorded too).
		evs := gatewayEvents(t, env)
		if len(evs) != 6 {
			t.Errorf("%d audit records for 6 calls", len(evs))
		}
		if evs[0].OrgID != nil || *evs[0].Status != 401 || *evs[3].ErrorCode != "not_entitled" || *evs[5].ErrorCode != "quota_exceeded" {
			t.Errorf("audit outcomes: %+v / %+v / %+v", evs[0], evs[3], evs[5])
		}
	}, apptest.WithEnv("GATEWAY_DEMO_WORD_DELAY", "0s"))
}

// What no provider style can run is refused by name, before the upstream
// is called, in each endpoint's error shape: tools on our plain /chat, an
// Anthropic server tool on the Messages endpoints, a custom tool on Chat
// Completions.
func TestGatewayRefusesToolsOnEveryEndpoint(t *testing.T) {
	env, s := gatewayEnv(t, apptest.Databases(t)[0], nil)
	c := env.Client()
	const msgs = `"messages":[{"role":"user","content":"x"}]`
	for path, want := range map[string][2]string{
		"/gateway/v1/chat": {`{"max_tokens":10,"tools":[{"name":"x"}],` + msgs + `}`,
			`{"error":{"code":"invalid_request","message":"\"tools\" is not supported: /gateway/v1/chat is plain chat`},
		"/gateway/v1/messages": {`{"model":"parapet-demo","max_tokens":10,"tools":[{"type":"web_search_20250305","name":"web_search"}],` + msgs + `}`,
			`{"type":"error","error":{"type":"invalid_request_error","message":"tools[0].type \"web_search_20250305\" is not supported`},
		"/gateway/v1/messages/count_tokens": {`{"model":"parapet-demo","tools":[{"type":"web_search_20250305","name":"web_search"}],` + msgs + `}`,
			`{"type":"error","error":{"type":"invalid_request_error","message":"tools[0].type \"web_search_20250305\" is not supported`},
		"/gateway/v1/chat/completions": {`{"tools":[{"type":"custom","custom":{"name":"x"}}],` + msgs + `}`,
			`{"error":{"message":"tools[0].type \"custom\" is not supported`},
	} {
		res := c.PostJSON(path, want[0], bearer(s.Key)...)
		if res.StatusCode != 400 || !strings.HasPrefix(res.Body, want[1]) {
			t.Errorf("%s: %d %s", path, res.StatusCode, res.Body)
		}
	}
}

// quota_exceeded tells the official SDKs not to retry (they would, three
// times in a second and a half, each call audited), in every dialect.
func TestGatewayQuotaExceededIsNotRetried(t *testing.T) {
	env, s := gatewayEnv(t, apptest.Databases(t)[0], nil)
	if err := models.SetEntitlement(context.Background(), env.DB.DB, s.OrgID, models.GatewayProductID, 50); err != nil {
		t.Fatal(err)
	}
	c := env.Client()
	for _, path := range []string{"/gateway/v1/chat", "/gateway/v1/messages", "/gateway/v1/chat/completions"} {
		res := c.PostJSON(path, `{"model":"parapet-demo","max_tokens":100,"messages":[{"role":"user","content":"x"}]}`, bearer(s.Key)...)
		if res.StatusCode != 429 || !strings.Contains(res.Body, "quota_exceeded") || res.Header.Get("X-Should-Retry") != "false" {
			t.Errorf("%s: %d %s %v", path, res.StatusCode, res.Body, res.Header)
		}
	}
}

func TestGatewayRateLimit(t *testing.T) {
	env, s := gatewayEnv(t, apptest.Databases(t)[0], nil, apptest.WithEnv("GATEWAY_RATE_LIMIT_PER_MINUTE", "3"))
	c := env.Client()
	for i := 0; i < 3; i++ {
		if res := chat(c, s.Key, `{"messages":[{"role":"user","content":"x"}]}`); res.StatusCode != 200 || res.Header.Get("X-RateLimit-Limit") != "3" {
			t.Fatalf("call %d: %d limit %s", i, res.StatusCode, res.Header.Get("X-RateLimit-Limit"))
		}
	}
	var e apiError
	res := chat(c, s.Key, `{"messages":[{"role":"user","content":"x"}]}`)
	res.JSON(t, &e)
	if res.StatusCode != 429 || e.Error.Code != "rate_limited" || res.Header.Get("Retry-After") == "" || res.Header.Get("X-Should-Retry") != "" {
		t.Errorf("4th call: %d %s %v", res.StatusCode, res.Body, res.Header)
	}
	// The public API's budget is separate.
	if res := c.Get("/v1/products", "Authorization", "Bearer "+s.Key); res.StatusCode != 200 || res.Header.Get("X-RateLimit-Limit") != "60" {
		t.Errorf("public API after the gateway budget is spent: %d", res.StatusCode)
	}
}

// A client that goes away mid-stream from an endless upstream: the upstream
// is read on for GATEWAY_DRAIN_TIMEOUT, then cancelled, and the call is
// audited with its output estimated from what the client was sent.
func TestGatewayClientDisconnectMidStream(t *testing.T) {
	upstreamDone := make(chan struct{})
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		defer close(upstreamDone)
		w.Header().Set("Content-Type", "text/event-stream")
		f := w.(http.Flusher)
		fmt.Fprint(w, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-test\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":3,\"output_tokens\":0}}}\n\n")
		fmt.Fprint(w, "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n")
		for i := 0; ; i++ {
			fmt.Fprintf(w, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"w%d \"}}\n\n", i)
			f.Flush()
			select {
			case <-r.Context().Done():
				return // the gateway cancelled the upstream call
			case <-time.After(20 * time.Millisecond):
			}
			if i > 500 {
				t.Error("the upstream call was never cancelled")
				return
			}
		}
	})
	env, s := gatewayEnv(t, apptest.Databases(t)[0], up, apptest.WithEnv("GATEWAY_DRAIN_TIMEOUT", "300ms"))
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", env.URL("/gateway/v1/chat"), strings.NewReader(`{"messages":[{"role":"user","content":"x"}],"stream":true}`))
	req.Header.Set("Authorization", "Bearer "+s.Key)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(res.Body)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(line, "content_block_delta") {
			break // first token arrived: now leave
		}
	}
	cancel()
	res.Body.Close()
	select {
	case <-upstreamDone:
	case <-time.After(5 * time.Second):
		t.Fatal("the upstream call went on after the client left")
	}
	evs := waitEvents(t, env, 1)
	if len(evs) != 1 || evs[0].ErrorCode == nil || *evs[0].ErrorCode != "client_closed_request" || *evs[0].Status != 499 || *evs[0].InputTokens != 3 ||
		*evs[0].OutputTokens < 1 || evs[0].UsageFlag == nil || *evs[0].UsageFlag != "estimated" {
		t.Errorf("audit after a disconnect: %+v", evs)
	}
}

// The Anthropic SDKs' request-id is our X-Request-Id, on an answer and on
// a refusal before the handler (a bad key) alike.
func TestGatewayMessagesRequestID(t *testing.T) {
	env, s := gatewayEnv(t, apptest.Databases(t)[0], nil)
	c := env.Client()
	body := `{"model":"parapet-demo","max_tokens":16,"messages":[{"role":"user","content":"Hi"}]}`
	for _, key := range []string{s.Key, "pk_nope"} {
		r := c.PostJSON("/gateway/v1/messages", body, "X-Api-Key", key)
		if id := r.Header.Get("Request-Id"); id == "" || id != r.Header.Get("X-Request-Id") {
			t.Errorf("%d: request-id %q, X-Request-Id %q", r.StatusCode, id, r.Header.Get("X-Request-Id"))
		}
	}
}

func TestGatewayMessagesEndpointSpeaksAnthropic(t *testing.T) {
	env, s := gatewayEnv(t, apptest.Databases(t)[0], nil, apptest.WithEnv("GATEWAY_LOG_CONTENT", "true"))
	c := env.Client()
	res := c.PostJSON("/gateway/v1/messages", `{"model":"parapet-demo","max_tokens":64,"messages":[{"role":"user","content":[{"type":"text","text":"Hi from an SDK"}]}]}`,
		"X-Api-Key", s.Key, "Anthropic-Version", "2023-06-01")
	var msg map[string]any
	res.JSON(t, &msg)
	if res.StatusCode != 200 || msg["type"] != "message" || res.Header.Get("Request-Id") == "" {
		t.Fatalf("messages endpoint: %d %s", res.StatusCode, res.Body)
	}
	for _, tc := range []struct {
		headers []string
		body    string
		status  int
		typ     string
	}{
		{[]string{"X-Api-Key", "ppk_bad"}, `{}`, 401, "authentication_error"},
		{[]string{"X-Api-Key", s.Key}, `{"model":"m","messages":[{"role":"user","content":"x"}]}`, 400, "invalid_request_error"},
	} {
		res := c.PostJSON("/gateway/v1/messages", tc.body, tc.headers...)
		var e struct {
			Type  string `json:"type"`
			Error struct{ Type, Message string }
		}
		res.JSON(t, &e)
		if res.StatusCode != tc.status || e.Type != "error" || e.Error.Type != tc.typ || e.Error.Message == "" {
			t.Errorf("anthropic error: %d %s", res.StatusCode, res.Body)
		}
	}
	// With GATEWAY_LOG_CONTENT=true the prompt and reply are kept, an
	// agent's tool calls and results with them.
	res = c.PostJSON("/gateway/v1/messages", `{"model":"parapet-demo","max_tokens":64,"messages":[{"role":"user","content":"weather?"},`+
		`{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Oslo"}}]},`+
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"light rain, 7 C"}]}]}`, "X-Api-Key", s.Key)
	if res.StatusCode != 200 {
		t.Fatalf("tool turns: %d %s", res.StatusCode, res.Body)
	}
	evs := gatewayEvents(t, env)
	if len(evs) != 4 || evs[0].Detail == nil || !strings.Contains(*evs[0].Detail, "Hi from an SDK") || !strings.Contains(*evs[0].Detail, "demo upstream") {
		t.Errorf("content logging: %+v", evs)
	}
	var kept struct {
		Messages []struct {
			ToolCalls []struct {
				ID, Name string
				Input    map[string]string
			} `json:"tool_calls"`
			ToolResults []struct{ ID, Content string } `json:"tool_results"`
		}
	}
	if err := json.Unmarshal([]byte(*evs[3].Detail), &kept); err != nil || len(kept.Messages) != 3 ||
		len(kept.Messages[1].ToolCalls) != 1 || kept.Messages[1].ToolCalls[0].Input["city"] != "Oslo" ||
		len(kept.Messages[2].ToolResults) != 1 || kept.Messages[2].ToolResults[0].Content != "light rain, 7 C" {
		t.Errorf("tool turns kept: %v %s", err, *evs[3].Detail)
	}
}

// The gateway's documented shapes match what it returns.
func TestGatewayOpenAPI(t *testing.T) {
	doc, err := openapi.Parse()
	if err != nil {
		t.Fatal(err)
	}
	sc := schemaCheck{schemas: doc.Components.Schemas}
	env, s := gatewayEnv(t, apptest.Databases(t)[0], nil)
	c := env.Client()
	check := func(name string, res *apptest.Response, schema string) {
		t.Helper()
		var body any
		if err := json.Unmarshal([]byte(res.Body), &body); err != nil {
			t.Fatalf("%s: %s", name, res.Body)
		}
		for _, e := range sc.validate(name, json.RawMessage(`{"$ref":"#/components/schemas/`+schema+`"}`), body) {
			t.Error(e)
		}
	}
	check("chat 200", chat(c, s.Key, `{"messages":[{"role":"user","content":"hi"}]}`), "Message")
	check("chat 400", chat(c, s.Key, `{"messages":[]}`), "Error")
	check("messages 200", c.PostJSON("/gateway/v1/messages", `{"model":"m","max_tokens":9,"messages":[{"role":"user","content":"hi"}]}`, "X-Api-Key", s.Key), "Message")
	check("messages 401", c.PostJSON("/gateway/v1/messages", `{}`, "X-Api-Key", "nope"), "AnthropicError")
	check("chat/completions 200", c.PostJSON("/gateway/v1/chat/completions", `{"messages":[{"role":"user","content":"hi"}]}`, bearer(s.Key)...), "ChatCompletion")
	check("chat/completions 401", c.PostJSON("/gateway/v1/chat/completions", `{}`, bearer("nope")...), "OpenAIError")
	check("chat/completions 400", c.PostJSON("/gateway/v1/chat/completions", `{"messages":[]}`, bearer(s.Key)...), "OpenAIError")
	check("count_tokens 200", c.PostJSON("/gateway/v1/messages/count_tokens", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`, "X-Api-Key", s.Key), "CountTokens")
	check("count_tokens 400", c.PostJSON("/gateway/v1/messages/count_tokens", `{"model":"m"}`, "X-Api-Key", s.Key), "AnthropicError")
	check("models 200", c.Get("/gateway/v1/models", "X-Api-Key", s.Key), "ModelList")
	check("models 401", c.Get("/gateway/v1/models"), "AnthropicError")
	check("model 200", c.Get("/gateway/v1/models/parapet-demo", "X-Api-Key", s.Key), "Model")
	check("model 404", c.Get("/gateway/v1/models/other", "X-Api-Key", s.Key), "AnthropicError")
	for _, p := range []string{"POST /gateway/v1/chat", "POST /gateway/v1/messages", "POST /gateway/v1/chat/completions",
		"POST /gateway/v1/messages/count_tokens", "GET /gateway/v1/models", "GET /gateway/v1/models/{model_id}"} {
		method, path, _ := strings.Cut(p, " ")
		if _, ok := doc.Paths[path][strings.ToLower(method)]; !ok {
			t.Errorf("%s is not documented", p)
		}
	}
}

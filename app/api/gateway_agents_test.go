package api_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"os"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"parapet/app/apptest"
	"parapet/app/gateway"
	"parapet/models"
)

// claudeCodeStream is a streamed answer as a messages-style provider gives
// Claude Code: thinking (two deltas, then its signature), text, a tool
// call whose input comes in fragments, and a ping between.
var claudeCodeStream = [][2]string{
	{"message_start", `{"type":"message_start","message":{"id":"msg_cc1","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":12,"cache_creation_input_tokens":310,"cache_read_input_tokens":4200,"output_tokens":1}}}`},
	{"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}`},
	{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"The tests pass. "}}`},
	{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"I should check vet too."}}`},
	{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCkYIBRgCKkB+/sig=="}}`},
	{"content_block_stop", `{"type":"content_block_stop","index":0}`},
	{"ping", `{"type":"ping"}`},
	{"content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}`},
	{"content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"The tests pass; running vet."}}`},
	{"content_block_stop", `{"type":"content_block_stop","index":1}`},
	{"content_block_start", `{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_01VetRun","name":"Bash","input":{}}}`},
	{"content_block_delta", `{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"command\": \"go vet"}}`},
	{"content_block_delta", `{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":" ./app/gateway/\"}"}}`},
	{"content_block_stop", `{"type":"content_block_stop","index":2}`},
	{"message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":87}}`},
	{"message_stop", `{"type":"message_stop"}`},
}

// A recorded Claude Code request (system blocks with cache_control, 22
// tools, thinking, a tool_use turn with its signed thinking, a
// tool_result, metadata.user_id, anthropic-beta) reaches a messages-style
// provider intact, and its streamed answer with thinking, its signature
// and a tool call reaches the client event for event; the usage's cache
// buckets are recorded apart.
func TestGatewayClaudeCodeRequestForwardedIntact(t *testing.T) {
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) { sse(w, claudeCodeStream...) })
	// A key none of whose runs the answer holds: the scrubber then holds
	// back no delta's end, and every delta passes as it came.
	env, s := gatewayEnv(t, apptest.Databases(t)[0], up, apptest.WithEnv("GATEWAY_MAX_TOKENS_CAP", "32000"),
		apptest.WithEnv("GATEWAY_UPSTREAM_KEY", "QQQQ-ZZZZ-XXXX-9999"))
	sent, err := os.ReadFile("testdata/claude_code_request.json")
	if err != nil {
		t.Fatal(err)
	}
	betas := "claude-code-20250219,interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14"
	res := env.Client().PostJSON("/gateway/v1/messages", string(sent), "X-Api-Key", s.Key, "Anthropic-Version", "2023-06-01", "Anthropic-Beta", betas)
	if res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, res.Body)
	}
	var want, got any
	_ = json.Unmarshal(sent, &want)
	gotBytes, _ := json.Marshal(up.lastBody())
	_ = json.Unmarshal(gotBytes, &got)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the provider got\n%s\nwant\n%s", gotBytes, compact(string(sent)))
	}
	if h := up.headers.Get("Anthropic-Beta"); h != betas {
		t.Errorf("anthropic-beta: %q", h)
	}
	evs := strings.Split(strings.TrimSpace(res.Body), "\n\n")
	if len(evs) != len(claudeCodeStream) {
		t.Fatalf("%d events, want %d:\n%s", len(evs), len(claudeCodeStream), res.Body)
	}
	for i, ev := range evs {
		name, data, _ := strings.Cut(strings.TrimPrefix(ev, "event: "), "\ndata: ")
		var gotEv, wantEv map[string]any
		_ = json.Unmarshal([]byte(data), &gotEv)
		_ = json.Unmarshal([]byte(claudeCodeStream[i][1]), &wantEv)
		if name == "message_delta" {
			// Its usage is cumulative here: the input buckets come along.
			u := gotEv["usage"].(map[string]any)
			if u["output_tokens"] != 87.0 || u["cache_read_input_tokens"] != 4200.0 {
				t.Errorf("message_delta usage %v", u)
			}
			delete(gotEv, "usage")
			delete(wantEv, "usage")
		}
		if name != claudeCodeStream[i][0] || !reflect.DeepEqual(gotEv, wantEv) {
			t.Errorf("event %d: %s %s\nwant %s %s", i, name, data, claudeCodeStream[i][0], claudeCodeStream[i][1])
		}
	}
	e := waitEvents(t, env, 1)[0]
	if *e.InputTokens != 12 || *e.CacheWriteTokens != 310 || *e.CacheReadTokens != 4200 || *e.OutputTokens != 87 {
		t.Errorf("recorded %d in, %d cache write, %d cache read, %d out", *e.InputTokens, *e.CacheWriteTokens, *e.CacheReadTokens, *e.OutputTokens)
	}
}

// pngBase64 is a w×h PNG, base64.
func pngBase64(t *testing.T, w, h int) string {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// A base64 PNG reaches each provider style in its own form: an image
// block's base64 source for a messages-style provider, a data URL in an
// image_url part for an openai-style one, whichever dialect the client
// spoke.
func TestGatewayImageReachesEachStyle(t *testing.T) {
	img := pngBase64(t, 64, 48)
	anthropicBody := `{"model":"model-test","max_tokens":50,"messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + img + `"}},{"type":"text","text":"What is this?"}]}]}`
	openAIBody := `{"model":"model-test","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,` + img + `"}},{"type":"text","text":"What is this?"}]}]}`
	wantParts := map[string]string{
		"messages": `[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + img + `"}},{"type":"text","text":"What is this?"}]`,
		"openai":   `[{"type":"image_url","image_url":{"url":"data:image/png;base64,` + img + `"}},{"type":"text","text":"What is this?"}]`,
	}
	for _, style := range []string{"messages", "openai"} {
		t.Run(style, func(t *testing.T) {
			up := agentUpstream(t, style)
			env := apptest.New(t, apptest.Databases(t)[0], agentOptions(up, style)...)
			s := env.Seed(t, "img@example.com")
			for path, body := range map[string]string{"/gateway/v1/messages": anthropicBody, "/gateway/v1/chat/completions": openAIBody} {
				if res := env.Client().PostJSON(path, body, bearer(s.Key)...); res.StatusCode != 200 {
					t.Fatalf("%s: %d %s", path, res.StatusCode, res.Body)
				}
				msgs := up.lastBody()["messages"].([]any)
				got := msgs[len(msgs)-1].(map[string]any)["content"]
				var want any
				_ = json.Unmarshal([]byte(wantParts[style]), &want)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s: the provider got %v", path, got)
				}
			}
		})
	}
}

// json_schema output is valid JSON from both provider styles: OpenAI's
// response_format as it is, and on a messages-style provider a forced
// tool whose input comes back as the answer's text, streamed or not.
func TestGatewayJSONSchemaFromBothStyles(t *testing.T) {
	format := `"response_format":{"type":"json_schema","json_schema":{"name":"weather","strict":true,"schema":{"type":"object","properties":{"city":{"type":"string"},"sunny":{"type":"boolean"}},"required":["city","sunny"],"additionalProperties":false}}}`
	for _, style := range []string{"messages", "openai"} {
		t.Run(style, func(t *testing.T) {
			up := agentUpstream(t, style)
			env := apptest.New(t, apptest.Databases(t)[0], agentOptions(up, style)...)
			s := env.Seed(t, "json@example.com")
			for _, stream := range []bool{false, true} {
				body := fmt.Sprintf(`{"model":"model-test","stream":%t,%s,"messages":[{"role":"user","content":"Weather in Paris?"}]}`, stream, format)
				res := env.Client().PostJSON("/gateway/v1/chat/completions", body, bearer(s.Key)...)
				text := completionText(t, res.Body, stream)
				var v struct {
					City  string
					Sunny bool
				}
				if res.StatusCode != 200 || json.Unmarshal([]byte(text), &v) != nil || v.City != "Paris" || !v.Sunny {
					t.Errorf("stream %t: %d, the answer %q is not the schema's JSON", stream, res.StatusCode, text)
				}
			}
			sentFormat := up.lastBody()["response_format"] != nil
			forced, _ := up.lastBody()["tool_choice"].(map[string]any)
			if style == "openai" && !sentFormat || style == "messages" && (sentFormat || forced["name"] != "json_answer") {
				t.Errorf("the provider got %v", up.lastBody())
			}
		})
	}
}

// Structured output asked in the Messages API's words, output_config.format,
// beside the caller's tools and adaptive thinking: a messages-style provider
// gets it as it is (no forced tool), an openai-style one as response_format;
// the answer's text is the JSON, streamed or not.
func TestGatewayOutputConfigFormatFromBothStyles(t *testing.T) {
	const schema = `{"type":"object","properties":{"city":{"type":"string"},"sunny":{"type":"boolean"}},"required":["city","sunny"],"additionalProperties":false}`
	for _, style := range []string{"messages", "openai"} {
		t.Run(style, func(t *testing.T) {
			up := agentUpstream(t, style)
			env := apptest.New(t, apptest.Databases(t)[0], agentOptions(up, style)...)
			s := env.Seed(t, "format@example.com")
			for _, stream := range []bool{false, true} {
				body := fmt.Sprintf(`{"model":"model-test","max_tokens":2000,"stream":%t,"thinking":{"type":"adaptive"},`+
					`"tools":[{"name":"get_weather","input_schema":{"type":"object"}}],"output_config":{"format":{"type":"json_schema","schema":%s}},`+
					`"messages":[{"role":"user","content":"Weather in Paris?"}]}`, stream, schema)
				res := env.Client().PostJSON("/gateway/v1/messages", body, bearer(s.Key)...)
				if text := messagesText(t, res.Body, stream); res.StatusCode != 200 || text != `{"city":"Paris","sunny":true}` {
					t.Errorf("stream %t: %d, the answer %q is not the schema's JSON", stream, res.StatusCode, text)
				}
				got := up.lastBody()
				var want map[string]any
				_ = json.Unmarshal([]byte(`{"type":"json_schema","schema":`+schema+`}`), &want)
				rf, _ := got["response_format"].(map[string]any)
				switch {
				case style == "messages" && (!reflect.DeepEqual(outputFormat(got), want) || got["tool_choice"] != nil):
					t.Errorf("the messages-style provider got output_config %v, tool_choice %v", got["output_config"], got["tool_choice"])
				case style == "openai" && rf["type"] != "json_schema":
					t.Errorf("the openai-style provider got response_format %v", got["response_format"])
				}
			}
		})
	}
}

// messagesText joins a Messages answer's text blocks, or a stream's text
// deltas.
func messagesText(t *testing.T, body string, stream bool) string {
	var text strings.Builder
	if !stream {
		var m struct{ Content []struct{ Type, Text string } }
		if json.Unmarshal([]byte(body), &m) != nil {
			t.Fatalf("not a message: %s", body)
		}
		for _, b := range m.Content {
			text.WriteString(b.Text)
		}
		return text.String()
	}
	for _, line := range strings.Split(body, "\n") {
		var ev struct{ Delta struct{ Type, Text string } }
		if data, ok := strings.CutPrefix(line, "data: "); ok && json.Unmarshal([]byte(data), &ev) == nil && ev.Delta.Type == "text_delta" {
			text.WriteString(ev.Delta.Text)
		}
	}
	return text.String()
}

// completionText joins a chat.completion's content, or a stream's
// content deltas.
func completionText(t *testing.T, body string, stream bool) string {
	if !stream {
		var c struct {
			Choices []struct{ Message struct{ Content string } }
		}
		if json.Unmarshal([]byte(body), &c) != nil || len(c.Choices) == 0 {
			t.Fatalf("not a completion: %s", body)
		}
		return c.Choices[0].Message.Content
	}
	var text strings.Builder
	for _, line := range strings.Split(body, "\n") {
		var c struct {
			Choices []struct{ Delta struct{ Content string } }
		}
		if data, ok := strings.CutPrefix(line, "data: "); ok && json.Unmarshal([]byte(data), &c) == nil && len(c.Choices) > 0 {
			text.WriteString(c.Choices[0].Delta.Content)
		}
	}
	return text.String()
}

// Cached-token usage from either provider style lands in separate
// buckets, nothing counted twice: Anthropic reports its cache reads and
// writes beside input_tokens, OpenAI its cached tokens inside
// prompt_tokens. The record, the quota and both dialects' usage agree.
func TestGatewayCachedUsageBuckets(t *testing.T) {
	for _, tt := range []struct {
		style                        string
		in, write, read, out, reason int64
	}{
		{"messages", 50, 10, 30, 20, 0},
		{"openai", 60, 0, 30, 20, 8}, // prompt_tokens 90, of which 30 cached
	} {
		t.Run(tt.style, func(t *testing.T) {
			up := agentUpstream(t, tt.style)
			env := apptest.New(t, apptest.Databases(t)[0], agentOptions(up, tt.style)...)
			s := env.Seed(t, "cache@example.com")
			// A prompt of 300 bytes: the 90 tokens reported fit its bound.
			prompt := strings.Repeat("Cache me. ", 30)
			res := env.Client().PostJSON("/gateway/v1/chat/completions", `{"model":"model-test","messages":[{"role":"user","content":"`+prompt+`"}]}`, bearer(s.Key)...)
			var c struct{ Usage gateway.CompletionUsage }
			_ = json.Unmarshal([]byte(res.Body), &c)
			u := c.Usage
			if u.PromptTokens != int(tt.in+tt.write+tt.read) || u.PromptTokensDetails.CachedTokens != int(tt.read) ||
				u.CompletionTokens != int(tt.out) || u.CompletionTokensDetails.ReasoningTokens != int(tt.reason) || u.TotalTokens != 110 {
				t.Errorf("chat.completion usage %+v", u)
			}
			res = env.Client().PostJSON("/gateway/v1/messages", `{"model":"model-test","max_tokens":50,"messages":[{"role":"user","content":"`+prompt+`"}]}`, bearer(s.Key)...)
			var m struct{ Usage map[string]int64 }
			_ = json.Unmarshal([]byte(res.Body), &m)
			if m.Usage["input_tokens"] != tt.in || m.Usage["cache_creation_input_tokens"] != tt.write || m.Usage["cache_read_input_tokens"] != tt.read {
				t.Errorf("message usage %v", m.Usage)
			}
			for _, e := range waitEvents(t, env, 2) {
				if *e.InputTokens != tt.in || *e.CacheWriteTokens != tt.write || *e.CacheReadTokens != tt.read || *e.OutputTokens != tt.out || *e.ReasoningTokens != tt.reason {
					t.Errorf("recorded %d/%d/%d/%d/%d", *e.InputTokens, *e.CacheWriteTokens, *e.CacheReadTokens, *e.OutputTokens, *e.ReasoningTokens)
				}
			}
			a, err := models.AllowanceOf(context.Background(), env.DB.DB, s.OrgID, models.GatewayProductID, models.Period(models.Now()))
			if err != nil || a.UsedTokens != 2*110 {
				t.Errorf("the quota counted %d for two calls of 110 (%v)", a.UsedTokens, err)
			}
		})
	}
}

// 40 parallel calls with tools, a tool result and an 800×600 PNG on a
// 20,000-token quota, from a provider that claims 100,000 input tokens:
// each call is billed at most its reservation (its input bound, with the
// image bounded by its own header's size, and max_tokens), and the
// month's usage stays within the quota.
func TestGatewayToolsAndImagesCannotOverspend(t *testing.T) {
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"m","type":"message","role":"assistant","model":"model-test","content":[{"type":"tool_use","id":"toolu_2","name":"get_weather","input":{"city":"Paris"}}],"stop_reason":"tool_use","usage":{"input_tokens":100000,"cache_read_input_tokens":5000,"output_tokens":50}}`)
	})
	const quota, calls = 20000, 40
	body := `{"model":"model-test","max_tokens":100,
		"tools":[{"name":"get_weather","input_schema":{"type":"object","properties":{"city":{"type":"string"}}}},{"name":"get_time","input_schema":{"type":"object"}}],
		"messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + pngBase64(t, 800, 600) + `"}},{"type":"text","text":"Weather here?"}]},
		{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Paris"}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"sunny"}]}]}`
	req, err := gateway.ParseMessagesRequest([]byte(body), gateway.Defaults{MaxTokensCap: 8192})
	if err != nil {
		t.Fatal(err)
	}
	reservation := int64(gateway.InputTokensBound(req) + req.MaxTokens)
	if reservation > 4000 {
		t.Fatalf("a reservation of %d: the image is not bounded by its size", reservation)
	}
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "parallel@example.com")
		if err := models.SetEntitlement(context.Background(), env.DB.DB, s.OrgID, models.GatewayProductID, quota); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var ok atomic.Int32
		for range calls {
			wg.Go(func() {
				res := env.Client().PostJSON("/gateway/v1/messages", body, bearer(s.Key)...)
				switch res.StatusCode {
				case 200:
					ok.Add(1)
				case 429:
				default:
					t.Errorf("%d %s", res.StatusCode, res.Body)
				}
			})
		}
		wg.Wait()
		for _, e := range waitEvents(t, env, calls) {
			if e.InputTokens != nil && *e.InputTokens+*e.CacheReadTokens+*e.OutputTokens > reservation {
				t.Errorf("a call billed %d+%d+%d, more than its reservation of %d", *e.InputTokens, *e.CacheReadTokens, *e.OutputTokens, reservation)
			}
		}
		a, err := models.AllowanceOf(context.Background(), env.DB.DB, s.OrgID, models.GatewayProductID, models.Period(models.Now()))
		if err != nil {
			t.Fatal(err)
		}
		if ok.Load() == 0 || a.UsedTokens > quota {
			t.Errorf("%d calls passed; used %d tokens of a %d-token quota", ok.Load(), a.UsedTokens, quota)
		}
	}, append(agentOptions(up, "messages"), apptest.WithEnv("GATEWAY_RATE_LIMIT_PER_MINUTE", "1000"), apptest.WithEnv("GATEWAY_MONTHLY_TOKENS", "20000"))...)
}

// A body above 1 MiB is served when it carries an image (up to 32 MiB),
// and refused with 413 when it does not.
func TestGatewayMediaBodyLimit(t *testing.T) {
	up := agentUpstream(t, "messages")
	env := apptest.New(t, apptest.Databases(t)[0], agentOptions(up, "messages")...)
	s := env.Seed(t, "big@example.com")
	noisy := image.NewGray(image.Rect(0, 0, 1200, 1000))
	rnd := uint32(1)
	for i := range noisy.Pix {
		rnd = rnd*1664525 + 1013904223 // a noise PNG cannot compress
		noisy.Pix[i] = byte(rnd >> 24)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, noisy); err != nil {
		t.Fatal(err)
	}
	img := base64.StdEncoding.EncodeToString(b.Bytes())
	if len(img) <= gateway.MaxBodyBytes {
		t.Fatalf("the image is only %d bytes of base64", len(img))
	}
	withImage := `{"model":"model-test","max_tokens":20,"messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + img + `"}}]}]}`
	if res := env.Client().PostJSON("/gateway/v1/messages", withImage, bearer(s.Key)...); res.StatusCode != 200 {
		t.Errorf("with an image of %d bytes: %d %.300s", len(img), res.StatusCode, res.Body)
	}
	textOnly := `{"model":"model-test","max_tokens":20,"messages":[{"role":"user","content":"` + strings.Repeat("a", len(img)) + `"}]}`
	if res := env.Client().PostJSON("/gateway/v1/messages", textOnly, bearer(s.Key)...); res.StatusCode != 413 || !strings.Contains(res.Body, "32 MiB with images or documents") {
		t.Errorf("text only: %d %.300s", res.StatusCode, res.Body)
	}
	// A large body that names no image, document or file is refused
	// unread (its invalid max_tokens goes unmentioned); one that may hold
	// media is read first, and what is wrong with it said too.
	invalid := strings.Replace(textOnly, `"max_tokens":20`, `"max_tokens":-1`, 1)
	if res := env.Client().PostJSON("/gateway/v1/messages", invalid, bearer(s.Key)...); res.StatusCode != 413 || strings.Contains(res.Body, "max_tokens") {
		t.Errorf("text only, invalid, unread: %d %.300s", res.StatusCode, res.Body)
	}
	invalid = strings.Replace(invalid, `"content":"a`, `"content":"an image: a`, 1)
	if res := env.Client().PostJSON("/gateway/v1/messages", invalid, bearer(s.Key)...); res.StatusCode != 413 || !strings.Contains(res.Body, "besides") || !strings.Contains(res.Body, "max_tokens") {
		t.Errorf("text naming an image, invalid, read: %d %.300s", res.StatusCode, res.Body)
	}
}

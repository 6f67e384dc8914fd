package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"parapet/app/apptest"
)

// runSDK runs testdata/script with Node against a real server, with the
// official SDK named pkg installed in PARAPET_SDK_DIR (.ci/run installs
// both); without them the test skips, except in CI. It decodes the
// script's last line of output into got.
func runSDK(t *testing.T, script, pkg, baseURLPath string, got any, opts ...apptest.Option) {
	dir := os.Getenv("PARAPET_SDK_DIR")
	node, err := exec.LookPath("node")
	if err == nil && dir != "" {
		_, err = os.Stat(filepath.Join(dir, "node_modules", pkg))
	}
	if dir == "" || err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI must provide node and PARAPET_SDK_DIR with %s installed", pkg)
		}
		t.Skipf("set PARAPET_SDK_DIR to a folder where `npm install %s` ran (and put node on PATH) to run the official SDK against the gateway", pkg)
	}
	// 8,000 tokens a month: room for the scripts' calls, not for one of
	// max_tokens 8,192.
	env := apptest.New(t, apptest.Databases(t)[0], append([]apptest.Option{apptest.WithEnv("GATEWAY_DEMO_WORD_DELAY", "1ms"),
		apptest.WithEnv("GATEWAY_MONTHLY_TOKENS", "8000")}, opts...)...)
	s := env.Seed(t, "sdk@example.com")
	src, err := os.ReadFile(filepath.Join("testdata", script))
	if err != nil {
		t.Fatal(err)
	}
	// Node resolves the SDK from the script's folder upwards: run a copy
	// inside the install folder.
	copyPath := filepath.Join(dir, "parapet_"+script)
	if err := os.WriteFile(copyPath, src, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, copyPath, env.URL(baseURLPath), s.Key).CombinedOutput()
	if err != nil {
		t.Fatalf("the SDK failed: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), got); err != nil {
		t.Fatalf("SDK output: %s", out)
	}
}

// The official Anthropic SDK, unmodified, works against the gateway's
// Messages-compatible endpoints: a call, a stream, countTokens,
// models.list and models.retrieve, one call only over quota, and the
// right exception for a bad key.
func TestOfficialAnthropicSDK(t *testing.T) {
	var got struct {
		Text         string
		Usage        struct{ InputTokens, OutputTokens int } `json:"usage"`
		StopReason   string                                  `json:"stop_reason"`
		StreamText   string                                  `json:"stream_text"`
		StreamDeltas int                                     `json:"stream_deltas"`
		CountTokens  int                                     `json:"count_tokens"`
		Models       []string                                `json:"models"`
		Model        string                                  `json:"model"`
		UnknownModel string                                  `json:"unknown_model"`
		Quota        string                                  `json:"quota"`
		BadKey       string                                  `json:"bad_key"`
	}
	runSDK(t, "anthropic_sdk.mjs", "@anthropic-ai/sdk", "/gateway", &got)
	if got.Model != "parapet-demo model parapet-demo" || got.UnknownModel != "NotFoundError 404" {
		t.Errorf("models.retrieve: %q, an unknown model: %q", got.Model, got.UnknownModel)
	}
	if got.Quota != "RateLimitError 429 after 1 call(s)" {
		t.Errorf("over quota: %s, want RateLimitError 429 after 1 call (no retry)", got.Quota)
	}
	if !strings.Contains(got.Text, "demo upstream") || got.StopReason == "" {
		t.Errorf("messages.create: %+v", got)
	}
	if !strings.Contains(got.StreamText, "Stream to the SDK") || got.StreamDeltas < 5 {
		t.Errorf("messages.stream: %d deltas, text %q", got.StreamDeltas, got.StreamText)
	}
	if got.CountTokens < 5 {
		t.Errorf("messages.countTokens: %d", got.CountTokens)
	}
	if strings.Join(got.Models, ",") != "parapet-demo,parapet-demo-embedding" {
		t.Errorf("models.list: %v", got.Models)
	}
	if got.BadKey != "AuthenticationError 401" {
		t.Errorf("a bad key raised %q, want AuthenticationError 401", got.BadKey)
	}
}

// The official openai SDK, unmodified, with baseURL = /gateway/v1: a
// completion, a stream with usage, models.list and models.retrieve, one
// call only over quota, and AuthenticationError for a bad key.
func TestOfficialOpenAISDK(t *testing.T) {
	var got struct {
		Object       string
		Text         string
		FinishReason string `json:"finish_reason"`
		Usage        struct {
			PromptTokens     int `json:"prompt_tokens"`
			CompletionTokens int `json:"completion_tokens"`
			TotalTokens      int `json:"total_tokens"`
		}
		StreamText  string `json:"stream_text"`
		StreamUsage struct {
			CompletionTokens int `json:"completion_tokens"`
		} `json:"stream_usage"`
		Models       []string
		Model        string `json:"model"`
		UnknownModel string `json:"unknown_model"`
		Quota        string `json:"quota"`
		BadKey       string `json:"bad_key"`
	}
	runSDK(t, "openai_sdk.mjs", "openai", "/gateway/v1", &got)
	if got.Model != "parapet-demo model parapet" || got.UnknownModel != "NotFoundError 404" {
		t.Errorf("models.retrieve: %q, an unknown model: %q", got.Model, got.UnknownModel)
	}
	if got.Quota != "RateLimitError 429 after 1 call(s)" {
		t.Errorf("over quota: %s, want RateLimitError 429 after 1 call (no retry)", got.Quota)
	}
	if got.Object != "chat.completion" || !strings.Contains(got.Text, "demo upstream") || got.FinishReason != "stop" ||
		got.Usage.CompletionTokens == 0 || got.Usage.TotalTokens != got.Usage.PromptTokens+got.Usage.CompletionTokens {
		t.Errorf("chat.completions.create: %+v", got)
	}
	if !strings.Contains(got.StreamText, "Stream to the openai SDK") || got.StreamUsage.CompletionTokens == 0 {
		t.Errorf("stream: %q, usage %+v", got.StreamText, got.StreamUsage)
	}
	if strings.Join(got.Models, ",") != "parapet-demo,parapet-demo-embedding" {
		t.Errorf("models.list: %v", got.Models)
	}
	if got.BadKey != "AuthenticationError 401" {
		t.Errorf("a bad key raised %q, want AuthenticationError 401", got.BadKey)
	}
}

// sdkUpstream is a Messages upstream for the SDK scripts: it answers
// every model but "refuse-me", which it refuses with a 400 as the real
// API refuses a request it cannot serve; streams have 40 deltas.
func sdkUpstream(t *testing.T) []apptest.Option {
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		switch {
		case body["model"] == "refuse-me":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long"}}`))
		case body["stream"] == true:
			messagesSSE(w, strings.Split(strings.Repeat("word ", 40), " ")[:40])
		case body["output_config"] != nil && body["output_config"].(map[string]any)["format"] != nil:
			messagesJSON(w, `{"city":"Paris","sunny":true}`, 12, 5) // the schema's JSON, as the provider answers
		case body["thinking"] != nil:
			// Says what thinking and effort reached the provider.
			th, _ := body["thinking"].(map[string]any)
			oc, _ := body["output_config"].(map[string]any)
			messagesJSON(w, fmt.Sprintf("thinking %v (%v), effort %v", th["type"], th["display"], oc["effort"]), 12, 5)
		default:
			messagesJSON(w, "Hi from the fake", 12, 5)
		}
	})
	return []apptest.Option{apptest.WithEnv("GATEWAY_UPSTREAM_URL", up.URL), apptest.WithEnv("GATEWAY_UPSTREAM_KEY", "sk-upstream-secret"),
		apptest.WithEnv("GATEWAY_MODEL", "claude-test")}
}

// The openai SDK as users write code today: the newer options are served,
// what this beta lacks is refused as a BadRequestError that names it, an
// aborted stream ends on the client's side, and an upstream's refusal is
// not retried (X-Should-Retry: false), though the SDK retries any 5xx.
func TestOpenAISDKAsUsersWriteIt(t *testing.T) {
	var got struct {
		Accepted        string            `json:"accepted"`
		RequestID       bool              `json:"request_id"`
		Refused         map[string]string `json:"refused"`
		Aborted         string            `json:"aborted"`
		UpstreamRefusal string            `json:"upstream_refusal"`
	}
	runSDK(t, "openai_sdk_usage.mjs", "openai", "/gateway/v1", &got, sdkUpstream(t)...)
	if got.Accepted != "Hi from the fake" || !got.RequestID {
		t.Errorf("the newer options: %q, x-request-id read: %v", got.Accepted, got.RequestID)
	}
	for name, want := range map[string]string{
		"n":         "BadRequestError | 400 | invalid_request | n must be 1",
		"tools":     `BadRequestError | 400 | invalid_request | tools[0].type "custom" is not supported`,
		"tool_turn": `BadRequestError | 400 | invalid_request | messages[1].role "function" is not supported`,
		"image":     `BadRequestError | 400 | invalid_request | messages[0].content[1].image_url.url must be a data URL`,
		"json":      `BadRequestError | 400 | invalid_request | response_format.json_schema.schema is required`,
	} {
		if !strings.HasPrefix(got.Refused[name], want) {
			t.Errorf("%s: %q, want %q…", name, got.Refused[name], want)
		}
	}
	if got.Aborted != "ended after 3" {
		t.Errorf("aborted stream: %q", got.Aborted)
	}
	if got.UpstreamRefusal != "InternalServerError 502 after 1 call(s)" {
		t.Errorf("upstream refusal: %q, want one call", got.UpstreamRefusal)
	}
}

// The Anthropic SDK as users write code today: cached system blocks,
// top-level cache_control, thinking disabled or adaptive (with its effort,
// passed on), structured output read by messages.parse, the stream helpers and
// models.list's paging are served; a too small thinking budget, a server
// tool and an image that is not one are refused by name; an upstream's refusal is not retried.
func TestAnthropicSDKAsUsersWriteIt(t *testing.T) {
	var got struct {
		Accepted string `json:"accepted"`
		Adaptive string `json:"adaptive"`
		Parsed   struct {
			City  string
			Sunny bool
		} `json:"parsed"`
		StreamSame      bool              `json:"stream_same"`
		Pages           map[string]string `json:"pages"`
		Refused         map[string]string `json:"refused"`
		Aborted         string            `json:"aborted"`
		UpstreamRefusal string            `json:"upstream_refusal"`
	}
	runSDK(t, "anthropic_sdk_usage.mjs", "@anthropic-ai/sdk", "/gateway", &got, sdkUpstream(t)...)
	if got.Accepted != "Hi from the fake" || !got.StreamSame {
		t.Errorf("accepted: %q, stream helpers agree: %v", got.Accepted, got.StreamSame)
	}
	if got.Adaptive != "thinking adaptive (summarized), effort low" {
		t.Errorf("adaptive thinking reached the provider as %q", got.Adaptive)
	}
	if got.Parsed.City != "Paris" || !got.Parsed.Sunny {
		t.Errorf("messages.parse: parsed_output %+v", got.Parsed)
	}
	for name, want := range map[string]string{
		"first":  "claude-test false claude-test",
		"after":  " false ",
		"before": " false ",
		"limit0": "BadRequestError 400",
	} {
		if got.Pages[name] != want {
			t.Errorf("models.list %s: %q, want %q", name, got.Pages[name], want)
		}
	}
	for name, want := range map[string]string{
		"thinking": `BadRequestError | 400 | invalid_request_error | thinking.budget_tokens must be an integer of at least 1024`,
		"tool_use": `BadRequestError | 400 | invalid_request_error | tools[0].type "web_search_20250305" is not supported`,
		"image":    `BadRequestError | 400 | invalid_request_error | messages[0].content[0].source.data is not an image of type image/png`,
	} {
		if !strings.HasPrefix(got.Refused[name], want) {
			t.Errorf("%s: %q, want %q…", name, got.Refused[name], want)
		}
	}
	if got.Aborted != "APIUserAbortError" {
		t.Errorf("aborted stream: %q", got.Aborted)
	}
	if got.UpstreamRefusal != "InternalServerError 502 after 1 call(s)" {
		t.Errorf("upstream refusal: %q, want one call", got.UpstreamRefusal)
	}
}

// The Vercel AI SDK, unmodified, through both of its providers the
// gateway speaks (openai's Chat Completions model, anthropic): a text, a
// streamed two-step tool loop that the SDK runs itself, and an object
// from a schema. Its anthropic provider asks for fine-grained tool
// streaming on every streamed tool (eager_input_streaming).
func TestVercelAISDK(t *testing.T) {
	type run struct {
		Text        string
		StreamParts string `json:"stream_parts"`
		StreamText  string `json:"stream_text"`
		Object      struct {
			Name string
			Age  *float64
		}
	}
	var got struct{ OpenAI, Anthropic run }
	runSDK(t, "ai_sdk.mjs", "ai", "/gateway/v1", &got)
	for name, r := range map[string]run{"openai": got.OpenAI, "anthropic": got.Anthropic} {
		if !strings.Contains(r.Text, "demo upstream") {
			t.Errorf("%s generateText: %q", name, r.Text)
		}
		if r.StreamParts != "tool-call,tool-result,finish-step,finish-step,finish" || !strings.Contains(r.StreamText, "returned") {
			t.Errorf("%s streamText with a tool: parts %s, text %q", name, r.StreamParts, r.StreamText)
		}
		if r.Object.Name == "" || r.Object.Age == nil {
			t.Errorf("%s generateObject: %+v", name, r.Object)
		}
	}
}

package api_test

import (
	"encoding/json"
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
func runSDK(t *testing.T, script, pkg, baseURLPath string, got any) {
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
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("GATEWAY_DEMO_WORD_DELAY", "1ms"), apptest.WithEnv("GATEWAY_MONTHLY_TOKENS", "8000"))
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
	if strings.Join(got.Models, ",") != "parapet-demo" {
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
	if strings.Join(got.Models, ",") != "parapet-demo" {
		t.Errorf("models.list: %v", got.Models)
	}
	if got.BadKey != "AuthenticationError 401" {
		t.Errorf("a bad key raised %q, want AuthenticationError 401", got.BadKey)
	}
}

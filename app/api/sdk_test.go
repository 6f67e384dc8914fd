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

// The official Anthropic SDK, unmodified, works against the gateway's
// Messages-compatible endpoint: a call, a stream, and the right exception
// for a bad key. PARAPET_SDK_DIR names a folder where
// `npm install @anthropic-ai/sdk` was run (.ci/run does it); without it the
// test skips, except in CI.
func TestOfficialAnthropicSDK(t *testing.T) {
	dir := os.Getenv("PARAPET_SDK_DIR")
	node, err := exec.LookPath("node")
	if dir == "" || err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI must provide node and PARAPET_SDK_DIR with @anthropic-ai/sdk installed")
		}
		t.Skip("set PARAPET_SDK_DIR to a folder with @anthropic-ai/sdk installed to run the official SDK against the gateway")
	}
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("GATEWAY_DEMO_WORD_DELAY", "1ms"))
	s := env.Seed(t, "sdk@example.com")
	script, _ := filepath.Abs("testdata/anthropic_sdk.mjs")
	// Node resolves the SDK from the script's folder upwards: run a copy
	// inside the install folder.
	copyPath := filepath.Join(dir, "parapet_sdk_check.mjs")
	src, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copyPath, src, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, copyPath, env.URL("/gateway"), s.Key).CombinedOutput()
	if err != nil {
		t.Fatalf("the SDK failed: %v\n%s", err, out)
	}
	var got struct {
		Text         string
		Usage        struct{ InputTokens, OutputTokens int } `json:"usage"`
		StopReason   string                                  `json:"stop_reason"`
		StreamText   string                                  `json:"stream_text"`
		StreamDeltas int                                     `json:"stream_deltas"`
		BadKey       string                                  `json:"bad_key"`
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &got); err != nil {
		t.Fatalf("SDK output: %s", out)
	}
	if !strings.Contains(got.Text, "demo upstream") || got.StopReason == "" {
		t.Errorf("messages.create: %+v", got)
	}
	if !strings.Contains(got.StreamText, "Stream to the SDK") || got.StreamDeltas < 5 {
		t.Errorf("messages.stream: %d deltas, text %q", got.StreamDeltas, got.StreamText)
	}
	if got.BadKey != "AuthenticationError 401" {
		t.Errorf("a bad key raised %q, want AuthenticationError 401", got.BadKey)
	}
}

package web_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"parapet/app/apptest"
	"parapet/models"
)

// TestPlaygroundStopCodeAndImage: in a real browser, a turn with an
// attached image and thinking on reaches the provider as a base64 image
// block with the settings chosen, its thinking shown folded; View code
// shows that call with a key placeholder; and Stop cuts a streaming reply,
// which the audit log records as cut with the tokens it delivered. The
// fake provider is the only fake; a long reply waits for its client to
// leave rather than for a timer.
func TestPlaygroundStopCodeAndImage(t *testing.T) {
	var mu sync.Mutex
	var bodies []string
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		send := func(ev string) {
			typ := strings.SplitN(strings.TrimPrefix(ev, `{"type":"`), `"`, 2)[0]
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ, ev)
			w.(http.Flusher).Flush()
		}
		send(`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"usage":{"input_tokens":40,"output_tokens":1}}}`)
		if strings.Contains(string(b), "long story") {
			// Three words, then nothing until the gateway gives up on us.
			send(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
			for _, word := range []string{"Once ", "upon ", "a time"} {
				send(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"` + word + `"}}`)
			}
			select {
			case <-r.Context().Done():
			case <-time.After(20 * time.Second):
			}
			return
		}
		for _, ev := range []string{
			`{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"A small square. <b>Red</b>."}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"c2ln"}}`,
			`{"type":"content_block_stop","index":0}`,
			`{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}`,
			`{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"A red square."}}`,
			`{"type":"content_block_stop","index":1}`,
			`{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":12}}`,
			`{"type":"message_stop"}`,
		} {
			send(ev)
		}
	}))
	defer fake.Close()
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("GATEWAY_UPSTREAM_URL", fake.URL),
		apptest.WithEnv("GATEWAY_UPSTREAM_KEY", "sk-fake-upstream-key"), apptest.WithEnv("GATEWAY_MODEL", "m"),
		apptest.WithEnv("GATEWAY_DRAIN_TIMEOUT", "100ms"))
	s := env.Seed(t, "pilot.tools@example.com")

	img := image.NewNRGBA(image.Rect(0, 0, 8, 8))
	var pngBytes bytes.Buffer
	if err := png.Encode(&pngBytes, img); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "square.png")
	if err := os.WriteFile(file, pngBytes.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}

	b := apptest.NewBrowser(t)
	b.Run(
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(env.URL("/gateway/app")),
		chromedp.WaitVisible(`[data-testid=signin-form]`, chromedp.ByQuery),
		apptest.SubmitSignIn(s.Email, apptest.TestPassword),
		chromedp.WaitVisible(`[data-testid=playground-form]`, chromedp.ByQuery),
		chromedp.SetValue(`#pg-max-tokens`, "2048", chromedp.ByQuery),
		chromedp.SetValue(`#pg-temperature`, "0.3", chromedp.ByQuery),
		chromedp.Click(`#pg-thinking`, chromedp.ByQuery),
		chromedp.SetUploadFiles(`#pg-image`, []string{file}, chromedp.ByQuery),
		chromedp.SendKeys(`#pg-message`, "What is in this picture?", chromedp.ByQuery),
	)

	// View code: the call about to be sent, with a placeholder for the key.
	b.Run(
		chromedp.Click(`[data-testid=view-code]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=code-dialog]`, chromedp.ByQuery),
	)
	b.Screenshot("playground-code")
	curl, py, js := b.Text(`[data-testid=code-curl]`), b.Text(`[data-testid=code-Python]`), b.Text(`[data-testid=code-JavaScript]`)
	for lang, code := range map[string]string{"curl": curl, "Python": py, "JavaScript": js} {
		for _, want := range []string{"PARAPET_API_KEY", `"m"`, "2048", "0.3", "What is in this picture?", `"image"`, "BASE64_OF_square.png", env.URL("/gateway")} {
			if !strings.Contains(code, want) {
				t.Errorf("%s code has no %q:\n%s", lang, want, code)
			}
		}
		if strings.Contains(code, "sk-fake-upstream-key") {
			t.Errorf("%s code holds the upstream key", lang)
		}
	}
	if !strings.Contains(curl, `x-api-key: $PARAPET_API_KEY`) || !strings.Contains(py, "temperature=0.3") || !strings.Contains(js, "process.env.PARAPET_API_KEY") {
		t.Errorf("code samples:\n%s\n%s\n%s", curl, py, js)
	}
	b.Run(chromedp.Click(`[data-testid=code-close]`, chromedp.ByQuery), chromedp.WaitNotVisible(`[data-testid=code-dialog]`, chromedp.ByQuery))

	// Send: the image goes as a base64 block, the thinking comes back folded.
	b.Run(
		chromedp.Click(`[data-testid=send]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=usage]`, chromedp.ByQuery),
	)
	mu.Lock()
	first := bodies[0]
	mu.Unlock()
	for _, want := range []string{`"data":"` + base64.StdEncoding.EncodeToString(pngBytes.Bytes()) + `"`, `"media_type":"image/png"`, `"thinking"`, `"temperature":0.3`, `"max_tokens":2048`} {
		if !strings.Contains(first, want) {
			t.Errorf("the provider's request has no %s: %.400s", want, first)
		}
	}
	if got := b.Text(`[data-testid=chat-attachment]`); got != "Image: square.png" {
		t.Errorf("attachment %q", got)
	}
	var thinking struct {
		Open bool   `json:"open"`
		Text string `json:"text"`
	}
	b.Run(chromedp.Evaluate(`(() => { const d = document.querySelector('[data-testid=chat-thinking]');
		return {open: d.open, text: d.querySelector('.chat-thinking-text').textContent}; })()`, &thinking))
	if thinking.Open || thinking.Text != "A small square. <b>Red</b>." || b.Count(`[data-testid=chat-thinking] b`) != 0 {
		t.Errorf("thinking (folded, as text): %+v", thinking)
	}
	if got := b.Text(`[data-testid=chat-assistant] > .chat-text`); got != "A red square." {
		t.Errorf("reply %q", got)
	}
	if b.Count(`[data-testid=chat-assistant] [data-testid=copy-message]`) != 1 || b.Count(`[data-testid=chat-user] [data-testid=copy-message]`) != 1 {
		t.Error("no copy button on each message")
	}
	// The thread takes the window's height, less the site's header.
	var fill bool
	b.Run(chromedp.Evaluate(`document.querySelector('.playground-chat').getBoundingClientRect().height >= window.innerHeight * 0.8`, &fill))
	if !fill {
		t.Error("the conversation does not take the window's height")
	}
	b.Screenshot("playground-thinking")

	// Stop: the fetch is aborted while the reply streams; what came stays.
	b.Run(
		chromedp.SendKeys(`#pg-message`, "Tell me a long story.", chromedp.ByQuery),
		chromedp.Click(`[data-testid=send]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=stop]`, chromedp.ByQuery),
		// (The gateway may hold a delta's last bytes while they could
		// begin its upstream key: the page has "Once upon a tim" or more.)
		chromedp.Poll(`((document.querySelector('[data-testid=chat-assistant]:last-child .chat-text') || {}).textContent || '').startsWith('Once upon a')`, nil),
		chromedp.Click(`[data-testid=stop]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=chat-stopped]`, chromedp.ByQuery),
		chromedp.WaitNotVisible(`[data-testid=stop]`, chromedp.ByQuery),
	)
	if b.Count(`[data-testid=chat-error]`) != 0 {
		t.Errorf("Stop showed an error: %q", b.Text(`[data-testid=chat-error]`))
	}
	var events []models.AuditEvent
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for deadline := time.Now().Add(5 * time.Second); len(events) < 2 && time.Now().Before(deadline); <-tick.C {
		events = gatewayCalls(t, env, s.OrgID)
	}
	var cut *models.AuditEvent
	for i := range events {
		if e := events[i]; e.ErrorCode != nil && *e.ErrorCode == "client_closed_request" {
			cut = &events[i]
		}
	}
	if len(events) != 2 || cut == nil || *cut.Status != 499 || cut.OutputTokens == nil || *cut.OutputTokens < 3 {
		t.Fatalf("records after a stopped reply: %d, cut %+v", len(events), cut)
	}

	// On a phone: no sideways scroll, the thread still fills the window.
	b.Run(chromedp.EmulateViewport(390, 844))
	var overflow bool
	b.Run(chromedp.Evaluate(`document.documentElement.scrollWidth > window.innerWidth`, &overflow),
		chromedp.Evaluate(`document.querySelector('.playground-chat').getBoundingClientRect().height >= window.innerHeight * 0.8`, &fill))
	if overflow || !fill {
		t.Errorf("on a phone: overflow %v, fills the window %v", overflow, fill)
	}
	b.Screenshot("playground-stopped-phone")
	b.ExpectNoProblems()
}

package web_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"parapet/app/apptest"
)

// TestPlaygroundEmptyReplyIsNotReplayed: a model may answer with no text
// (or only blank lines). The conversation goes on: the blank reply is not
// sent back as an assistant turn, which every endpoint (and the Messages
// API) refuses as empty, so every later message would fail until Clear.
func TestPlaygroundEmptyReplyIsNotReplayed(t *testing.T) {
	var mu sync.Mutex
	var bodies []string
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		first := len(bodies) == 1
		mu.Unlock()
		text := "Noted."
		if first {
			text = "\n\n"
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range []string{
			`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"usage":{"input_tokens":5,"output_tokens":1}}}`,
			`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":` + fmt.Sprintf("%q", text) + `}}`,
			`{"type":"content_block_stop","index":0}`,
			`{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":2}}`,
			`{"type":"message_stop"}`,
		} {
			typ := strings.SplitN(strings.TrimPrefix(ev, `{"type":"`), `"`, 2)[0]
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ, ev)
		}
	}))
	defer fake.Close()
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("GATEWAY_UPSTREAM_URL", fake.URL),
		apptest.WithEnv("GATEWAY_UPSTREAM_KEY", "sk-fake-upstream-key"), apptest.WithEnv("GATEWAY_MODEL", "m"))
	s := env.Seed(t, "pilot.blank@example.com")
	b := apptest.NewBrowser(t)
	b.Run(
		chromedp.Navigate(env.URL("/gateway/app")),
		chromedp.WaitVisible(`[data-testid=signin-form]`, chromedp.ByQuery),
		apptest.SubmitSignIn(s.Email, apptest.TestPassword),
		chromedp.WaitVisible(`[data-testid=playground-form]`, chromedp.ByQuery),
		chromedp.SendKeys(`#pg-message`, "Say nothing.", chromedp.ByQuery),
		pressEnter(),
		chromedp.WaitVisible(`[data-testid=usage]`, chromedp.ByQuery),
		chromedp.SendKeys(`#pg-message`, "Now say something.", chromedp.ByQuery),
		pressEnter(),
		// The second reply, or the error instead.
		chromedp.WaitVisible(`[data-testid=chat-assistant]:last-child [data-testid=usage], [data-testid=chat-error]`, chromedp.ByQuery),
	)
	if n := b.Count(`[data-testid=chat-error]`); n != 0 {
		t.Errorf("the message after a blank reply failed: %q", b.Text(`[data-testid=chat-error]`))
	}
	if got := b.Text(`[data-testid=chat-assistant]:last-child .chat-text`); got != "Noted." {
		t.Errorf("second reply %q", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(bodies) != 2 || strings.Contains(bodies[1], `"role":"assistant"`) {
		t.Errorf("upstream requests %q", bodies)
	}
	b.ExpectNoProblems()
}

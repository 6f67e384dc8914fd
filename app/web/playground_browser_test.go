package web_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"parapet/app/apptest"
	"parapet/app/gateway"
	"parapet/models"
)

// demoReply is the demo upstream's whole answer to a playground request.
func demoReply(t *testing.T, body string) string {
	t.Helper()
	req, err := gateway.ParseChatRequest([]byte(body), gateway.Defaults{Model: gateway.DemoModel, MaxTokens: 1024, MaxTokensCap: 8192})
	if err != nil {
		t.Fatal(err)
	}
	msg, err := (&gateway.Demo{}).Complete(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return msg.Text()
}

// The playground in a real browser: sign in, send a message, watch the
// reply stream in word by word, see its usage, continue the conversation
// with Enter, clear it, and see the error when the organization loses the
// gateway; on a desktop and on a phone, without a CSP violation.
func TestPlaygroundInBrowser(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("GATEWAY_DEMO_WORD_DELAY", "20ms"))
	s := env.Seed(t, "pilot.browser@example.com")
	b := apptest.NewBrowser(t)
	const question = "Is the night watch awake?"
	b.Run(
		chromedp.Navigate(env.URL("/gateway/app")),
		chromedp.WaitVisible(`[data-testid=signin-form]`, chromedp.ByQuery),
		apptest.SubmitSignIn(s.Email, apptest.TestPassword),
		chromedp.WaitVisible(`[data-testid=playground-form]`, chromedp.ByQuery),
	)
	if b.Count(`[data-testid=demo-banner]`) != 1 {
		t.Error("no demo banner")
	}
	b.Run(
		chromedp.SendKeys(`#pg-message`, question, chromedp.ByQuery),
		chromedp.Click(`[data-testid=send]`, chromedp.ByQuery),
	)

	// The reply grows while it streams, and Send is disabled meanwhile.
	type sample struct {
		Len      int  `json:"len"`
		Done     bool `json:"done"`
		Disabled bool `json:"disabled"`
	}
	const probe = `(() => {
		const out = document.querySelector('[data-testid=chat-assistant] .chat-text');
		return {len: out ? out.textContent.length : 0,
			done: !!document.querySelector('[data-testid=usage]'),
			disabled: document.querySelector('[data-testid=send]').disabled};
	})()`
	var growing []int
	sawDisabled := false
	// Sample the answer as it streams in, until it is done.
	tick := time.NewTicker(60 * time.Millisecond)
	defer tick.Stop()
	for deadline := time.Now().Add(20 * time.Second); ; <-tick.C {
		var s sample
		b.Run(chromedp.Evaluate(probe, &s))
		if s.Done {
			break
		}
		sawDisabled = sawDisabled || s.Disabled
		if s.Len > 0 && (len(growing) == 0 || s.Len > growing[len(growing)-1]) {
			growing = append(growing, s.Len)
			if len(growing) == 3 {
				b.Screenshot("playground-streaming")
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the reply did not finish; lengths seen %v", growing)
		}
	}
	if len(growing) < 2 {
		t.Errorf("the reply did not grow while streaming: lengths seen %v", growing)
	}
	if !sawDisabled {
		t.Error("Send was not disabled while the reply streamed")
	}
	want := demoReply(t, `{"messages":[{"role":"user","content":"`+question+`"}]}`)
	if got := b.Text(`[data-testid=chat-assistant] .chat-text`); got != want {
		t.Errorf("the reply reads\n%q\nwant the demo's full answer\n%q", got, want)
	}
	if got := b.Text(`[data-testid=chat-user] .chat-text`); got != question {
		t.Errorf("user bubble %q", got)
	}
	usage := b.Text(`[data-testid=usage]`)
	if !strings.Contains(usage, "parapet-demo") || !strings.Contains(usage, "5 input tokens") || !strings.Contains(usage, "output tokens") {
		t.Errorf("usage line %q", usage)
	}
	var disabled bool
	b.Run(chromedp.Evaluate(`document.querySelector('[data-testid=send]').disabled`, &disabled))
	if disabled {
		t.Error("Send stays disabled after the reply")
	}
	// The quota beside the chat counted the reply.
	if left := b.Text(`[data-testid=tokens-left]`); left == "1,000,000" || !strings.HasPrefix(left, "999,") {
		t.Errorf("tokens left %q after a reply", left)
	}
	b.Screenshot("playground")

	// Shift+Enter is a new line; Enter sends the conversation so far.
	b.Run(
		chromedp.SendKeys(`#pg-message`, "And the walls?", chromedp.ByQuery),
		chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(input.ModifierShift)),
		chromedp.SendKeys(`#pg-message`, "Both of them.", chromedp.ByQuery),
	)
	var typed string
	b.Run(chromedp.Value(`#pg-message`, &typed, chromedp.ByQuery))
	if typed != "And the walls?\nBoth of them." || b.Count(`[data-testid=chat-user]`) != 1 {
		t.Errorf("Shift+Enter: message box %q, %d user bubbles", typed, b.Count(`[data-testid=chat-user]`))
	}
	b.Run(
		pressEnter(),
		chromedp.WaitVisible(`[data-testid=chat-assistant]:last-child [data-testid=usage]`, chromedp.ByQuery),
	)
	var second string
	b.Run(chromedp.Text(`[data-testid=chat-assistant]:last-child .chat-text`, &second, chromedp.ByQuery))
	if !strings.Contains(second, "It has 3 messages") || !strings.Contains(second, `"And the walls? Both of them."`) {
		t.Errorf("the second reply did not see the whole conversation: %q", second)
	}
	b.Run(chromedp.Value(`#pg-message`, &typed, chromedp.ByQuery))
	if typed != "" {
		t.Errorf("the message box keeps %q after sending", typed)
	}

	// Clear starts over: the next message is the first again.
	b.Run(chromedp.Click(`[data-testid=clear]`, chromedp.ByQuery))
	if n := b.Count(`[data-testid=chat-thread] .chat-msg`); n != 0 {
		t.Errorf("%d messages left after Clear", n)
	}
	b.ExpectNoProblems()

	// The organization loses the gateway: the error is shown in the thread
	// and the failed turn is not part of the conversation.
	if _, err := models.RevokeEntitlement(context.Background(), env.DB.DB, s.OrgID, models.GatewayProductID); err != nil {
		t.Fatal(err)
	}
	waitNotEntitled(t, env.Client(), s.Key)
	b.Run(
		chromedp.SendKeys(`#pg-message`, "Anyone?", chromedp.ByQuery),
		chromedp.Click(`[data-testid=send]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=chat-error]`, chromedp.ByQuery),
	)
	if got := b.Text(`[data-testid=chat-error]`); !strings.Contains(got, "not entitled") {
		t.Errorf("error bubble %q", got)
	}
	if b.Count(`[data-testid=chat-error].flash.flash-error`) != 1 || b.Count(`[data-testid=chat-assistant]`) != 0 || b.Count(`[data-testid=chat-user].chat-failed`) != 1 {
		t.Error("the failed turn is not shown as failed")
	}
	b.Run(chromedp.Value(`#pg-message`, &typed, chromedp.ByQuery))
	if typed != "Anyone?" {
		t.Errorf("the failed message is not back in the message box: %q", typed)
	}
	b.Screenshot("playground-error")
	// Granted again, the failed turn was left out: the next request holds
	// only the new message.
	if err := models.SetEntitlement(context.Background(), env.DB.DB, s.OrgID, models.GatewayProductID, 1_000_000); err != nil {
		t.Fatal(err)
	}
	// (A refusal is never cached: the grant counts at once.)
	b.Run(
		chromedp.Click(`[data-testid=send]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=usage]`, chromedp.ByQuery),
	)
	if got := b.Text(`[data-testid=chat-assistant] .chat-text`); !strings.Contains(got, "It has 1 message;") {
		t.Errorf("the failed turn was sent again: %q", got)
	}
	// One word is one token, and reads so.
	if got := b.Text(`[data-testid=chat-assistant] [data-testid=usage]`); !slices.Contains(strings.Split(got, " · "), "1 input token") {
		t.Errorf("usage line %q, want \"1 input token\"", got)
	}

	// On a phone: the settings go below the chat.
	b.Run(
		chromedp.EmulateViewport(390, 844),
		chromedp.Navigate(env.URL("/gateway/app")),
		chromedp.WaitVisible(`#pg-message`, chromedp.ByQuery),
		chromedp.SendKeys(`#pg-message`, "Report from the east wall, please.", chromedp.ByQuery),
		chromedp.Click(`[data-testid=send]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=usage]`, chromedp.ByQuery),
	)
	var stacked bool
	b.Run(chromedp.Evaluate(`document.querySelector('.playground-settings').getBoundingClientRect().top >= document.querySelector('.playground-chat').getBoundingClientRect().bottom`, &stacked))
	if !stacked {
		t.Error("on a phone the settings are not below the chat")
	}
	var overflow bool
	b.Run(chromedp.Evaluate(`document.documentElement.scrollWidth > window.innerWidth`, &overflow))
	if overflow {
		t.Error("the playground is wider than a phone")
	}
	b.Screenshot("playground-phone")

	// The console's usage page counts these calls.
	b.Run(
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(env.URL("/console/usage")),
		chromedp.WaitVisible(`[data-testid=usage-table]`, chromedp.ByQuery),
	)
	if got := b.Text(`[data-testid=usage-row] [data-testid=usage-requests]`); got != "5" {
		t.Errorf("usage page: %q requests today, want 5 (4 answered, 1 refused)", got)
	}
	b.Screenshot("usage")
	b.Run(
		chromedp.EmulateViewport(390, 844),
		chromedp.Navigate(env.URL("/console/usage")),
		chromedp.WaitVisible(`[data-testid=usage-table]`, chromedp.ByQuery),
	)
	b.Run(chromedp.Evaluate(`document.documentElement.scrollWidth > window.innerWidth`, &overflow))
	if overflow {
		t.Error("the usage page is wider than a phone")
	}
	b.Screenshot("usage-phone")
	// Chromium logs every 4xx a page fetches as a network error; the one
	// refused call above is expected, anything else is a problem.
	for _, p := range b.Problems() {
		if !strings.HasPrefix(p, "network: Failed to load resource: the server responded with a status of 403") || !strings.Contains(p, "/gateway/app/chat") {
			t.Errorf("the browser reported a problem: %s", p)
		}
	}
}

// pressEnter presses Enter in the focused element as a keyboard does: one
// keydown that carries the text, so a page that cancels the keydown gets
// no new line (chromedp's SendKeys sends the text in a separate char event,
// which a page cannot cancel).
func pressEnter() chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		down := input.DispatchKeyEvent(input.KeyDown).WithKey("Enter").WithCode("Enter").
			WithWindowsVirtualKeyCode(13).WithNativeVirtualKeyCode(13).WithText("\r").WithUnmodifiedText("\r")
		if err := down.Do(ctx); err != nil {
			return err
		}
		return input.DispatchKeyEvent(input.KeyUp).WithKey("Enter").WithCode("Enter").
			WithWindowsVirtualKeyCode(13).WithNativeVirtualKeyCode(13).Do(ctx)
	})
}

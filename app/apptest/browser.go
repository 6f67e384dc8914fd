package apptest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Browser is a headless Chromium tab that records every console error,
// uncaught exception and CSP violation the pages it visits produce.
type Browser struct {
	t   testing.TB
	Ctx context.Context

	mu       sync.Mutex
	problems []string
}

// chromiumPath finds Debian's Chromium (or another Chrome) on this machine.
func chromiumPath() string {
	if p := os.Getenv("CHROMIUM_PATH"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// NewBrowser starts headless Chromium for one test. Without a Chromium the
// test is skipped with a clear message, except under CI=true, where a
// missing browser is a failure.
func NewBrowser(t testing.TB) *Browser {
	t.Helper()
	path := chromiumPath()
	if path == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("no Chromium found: browser tests are required in CI (apt-get install -y chromium)")
		}
		t.Skip("no Chromium found (apt-get install -y chromium, or set CHROMIUM_PATH): skipping the browser test")
	}
	// Chromium may still be writing its profile as it exits, which makes
	// t.TempDir's strict cleanup fail now and then: remove it ourselves,
	// last, ignoring what is still in use.
	profile, err := os.MkdirTemp("", "parapet-chromium-*")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(profile) })
	// Flags for a root sandbox with no network beyond loopback: no sandbox,
	// and none of Chromium's background calls home.
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(profile),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1280, 900),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() {
		cancelTimeout()
		cancelCtx()
		cancelAlloc()
	})
	b := &Browser{t: t, Ctx: ctx}
	chromedp.ListenTarget(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.APITypeError {
				var parts []string
				for _, a := range ev.Args {
					parts = append(parts, strings.Trim(string(a.Value), `"`)+a.Description)
				}
				b.record("console error: " + strings.Join(parts, " "))
			}
		case *runtime.EventExceptionThrown:
			msg := ev.ExceptionDetails.Text
			if ev.ExceptionDetails.Exception != nil {
				msg += " " + ev.ExceptionDetails.Exception.Description
			}
			b.record("uncaught exception: " + msg)
		case *page.EventJavascriptDialogOpening:
			// Confirmations (revoking a key) are accepted, as a user would.
			go func() { _ = chromedp.Run(ctx, page.HandleJavaScriptDialog(true)) }()
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.LevelError {
				b.record(fmt.Sprintf("%s: %s (%s)", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
			}
		}
	})
	if err := chromedp.Run(ctx, cdplog.Enable(), runtime.Enable()); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return b
}

func (b *Browser) record(p string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.problems = append(b.problems, p)
}

// Problems returns the console errors, exceptions and CSP violations seen
// so far.
func (b *Browser) Problems() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.problems...)
}

// Settled waits until htmx has no request in flight and has finished
// swapping and settling. htmx scrolls a swapped target into view ("show:")
// as it settles, a few milliseconds after the new content appears: a click
// aimed before that scroll lands where the button was, not where it is.
func Settled() chromedp.Action {
	return chromedp.Poll(`document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling') === null`, nil,
		chromedp.WithPollingTimeout(5*time.Second))
}

// Run performs chromedp actions and fails the test on error.
func (b *Browser) Run(actions ...chromedp.Action) {
	b.t.Helper()
	if err := chromedp.Run(b.Ctx, actions...); err != nil {
		b.t.Fatalf("browser: %v\nproblems so far: %v", err, b.Problems())
	}
}

// ExpectNoProblems fails the test if a page logged an error or violated
// the CSP.
func (b *Browser) ExpectNoProblems() {
	b.t.Helper()
	if p := b.Problems(); len(p) > 0 {
		b.t.Errorf("the browser reported problems:\n%s", strings.Join(p, "\n"))
	}
}

// Screenshot saves a full-page PNG named name into $PARAPET_SCREENSHOTS
// (when set), so a person can look at what the test saw.
func (b *Browser) Screenshot(name string) {
	b.t.Helper()
	dir := os.Getenv("PARAPET_SCREENSHOTS")
	if dir == "" {
		return
	}
	var png []byte
	b.Run(chromedp.FullScreenshot(&png, 100)) // quality 100 means PNG
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// Text returns the text of the first node matching sel.
func (b *Browser) Text(sel string) string {
	b.t.Helper()
	var s string
	b.Run(chromedp.Text(sel, &s, chromedp.ByQuery))
	return s
}

// Attr returns an attribute of the first node matching sel, read from the
// live page. chromedp.AttributeValue reads chromedp's mirror of the DOM,
// which is updated by events and may not yet hold what a click just
// changed; a test that checked it right after a click failed now and then.
func (b *Browser) Attr(sel, name string) string {
	b.t.Helper()
	var s string
	b.Run(chromedp.WaitReady(sel, chromedp.ByQuery),
		chromedp.Evaluate(fmt.Sprintf(`document.querySelector(%q).getAttribute(%q) ?? ""`, sel, name), &s))
	return s
}

// Count returns how many nodes match sel now.
func (b *Browser) Count(sel string) int {
	b.t.Helper()
	var nodes []*cdp.Node
	b.Run(chromedp.Nodes(sel, &nodes, chromedp.ByQueryAll, chromedp.AtLeast(0)))
	return len(nodes)
}

// Location returns the current URL.
func (b *Browser) Location() string {
	b.t.Helper()
	var u string
	b.Run(chromedp.Location(&u))
	return u
}

// SubmitSignIn fills the sign-in form on the page with email and password
// and sends it.
func SubmitSignIn(email, password string) chromedp.Tasks {
	return chromedp.Tasks{
		chromedp.SendKeys(`#email`, email, chromedp.ByQuery),
		chromedp.SendKeys(`#password`, password, chromedp.ByQuery),
		chromedp.Click(`[data-testid=signin-form] button[type=submit]`, chromedp.ByQuery),
	}
}

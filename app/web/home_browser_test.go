package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"parapet/app/apptest"
)

// The landing page renders in a real browser, without a CSP violation or a
// script error, and its links lead to the console and the three tools.
func TestLandingPageInBrowser(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	b := apptest.NewBrowser(t)
	b.Run(chromedp.Navigate(env.URL("/")), chromedp.WaitVisible(`[data-testid=card-logs]`, chromedp.ByQuery))
	if got := b.Text("h1"); !strings.Contains(got, "Guard rails") {
		t.Errorf("heading %q", got)
	}
	// htmx loaded and configured (the CSP would have blocked an inline one).
	var htmxVersion string
	b.Run(chromedp.Evaluate(`window.htmx ? htmx.version : ""`, &htmxVersion))
	if !strings.HasPrefix(htmxVersion, "2.") {
		t.Errorf("htmx version %q, want 2.x loaded", htmxVersion)
	}
	// Each tool shows its screenshot, loaded, described, and no wider than
	// its card, on a desktop and a phone, in both themes.
	for _, view := range []struct {
		width int64
		theme string
	}{{1280, "light"}, {390, "light"}, {390, "dark"}, {1280, "dark"}} {
		b.Run(chromedp.EmulateViewport(view.width, 900))
		if (b.Attr(`html`, "data-theme") == "dark") != (view.theme == "dark") {
			b.Run(chromedp.Click(`[data-testid=theme-switch]`, chromedp.ByQuery))
		}
		var shots []struct {
			Alt    string  `json:"alt"`
			Loaded bool    `json:"loaded"`
			Width  float64 `json:"width"`
			Card   float64 `json:"card"`
		}
		b.Run(
			chromedp.Evaluate(`document.querySelectorAll('.tool-shot').forEach(i => i.loading = 'eager')`, nil),
			chromedp.Poll(`Array.from(document.querySelectorAll('.tool-shot')).every(i => i.complete)`, nil, chromedp.WithPollingTimeout(5*time.Second)),
			chromedp.Evaluate(`Array.from(document.querySelectorAll('.tool-shot')).map(i => ({alt: i.alt, loaded: i.naturalWidth > 0,
				width: i.getBoundingClientRect().width, card: i.closest('article').clientWidth}))`, &shots),
		)
		if len(shots) != 3 {
			t.Fatalf("%d tool screenshots, want 3", len(shots))
		}
		for _, s := range shots {
			if !s.Loaded || len(s.Alt) < 40 || s.Width == 0 || s.Width > s.Card {
				t.Errorf("at %d px, %s: a screenshot %+v", view.width, view.theme, s)
			}
		}
		b.Screenshot("landing-" + itoa(view.width) + "-" + view.theme)
	}

	for _, link := range []struct{ sel, path string }{
		{`[data-testid=card-console] footer a`, "/console"},
		{`[data-testid=card-logs] footer a`, "/logs/app"},
		{`[data-testid=card-scan] footer a`, "/scan/app"},
		{`[data-testid=card-gateway] footer a`, "/gateway/app"},
	} {
		b.Run(chromedp.Navigate(env.URL("/")))
		href := b.Attr(link.sel, "href")
		if href != link.path {
			t.Errorf("%s links to %q, want %q", link.sel, href, link.path)
		}
		res := env.Client().Get(href)
		if res.StatusCode >= 400 {
			t.Errorf("link %s answers %d", href, res.StatusCode)
		}
	}
	b.ExpectNoProblems()
}

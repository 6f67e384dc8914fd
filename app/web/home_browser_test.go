package web_test

import (
	"strings"
	"testing"

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
	b.Screenshot("landing")
	b.Run(chromedp.EmulateViewport(390, 844))
	b.Screenshot("landing-phone")
	b.Run(chromedp.EmulateViewport(1280, 900))

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

package web_test

import (
	"testing"

	"github.com/chromedp/chromedp"

	"parapet/app/apptest"
)

// No documentation page scrolls sideways, on a desktop or on a phone: long
// inline code in prose (a JSON shape, a metric's name) once widened a
// phone's page by up to 700px. A wide table scrolls in its own box, which
// the renderer makes focusable for the keyboard.
func TestNoDocsPageScrollsSideways(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	b := apptest.NewBrowser(t)
	var pages []string
	b.Run(chromedp.Navigate(env.URL("/docs")), chromedp.WaitVisible(`[data-testid=docs-content]`, chromedp.ByQuery),
		chromedp.Evaluate(`[...document.querySelectorAll('.docs-nav a')].map(a => a.getAttribute('href'))`, &pages))
	if len(pages) < 10 {
		t.Fatalf("the docs navigation lists %d pages", len(pages))
	}
	for _, width := range []int64{1280, 390} {
		b.Run(chromedp.EmulateViewport(width, 900))
		for _, p := range pages {
			var over int
			b.Run(chromedp.Navigate(env.URL(p)), chromedp.WaitVisible(`main h1`, chromedp.ByQuery),
				chromedp.Evaluate(`document.documentElement.scrollWidth - window.innerWidth`, &over))
			if over > 0 {
				t.Errorf("%s @%d: the page scrolls sideways by %dpx", p, width, over)
			}
		}
	}
	b.ExpectNoProblems()
}

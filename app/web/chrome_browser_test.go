package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"parapet/app/apptest"
)

// The page's shell and the documentation behave as a user expects: the
// skip link leads to the content, the phone's header folds its links into
// a menu, the theme switch remembers the choice across pages, and a docs
// page's client tabs and copy buttons work.
func TestShellAndDocsBehaviour(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	b := apptest.NewBrowser(t)
	poll := func(expr string) chromedp.Action {
		return chromedp.Poll(expr, nil, chromedp.WithPollingTimeout(3*time.Second))
	}
	b.Run(chromedp.EmulateViewport(390, 844), chromedp.Navigate(env.URL("/")), chromedp.WaitVisible(`[data-testid=menu-toggle]`, chromedp.ByQuery))

	// The skip link is the first stop of the keyboard and moves focus to main.
	b.Run(chromedp.KeyEvent("\t"), poll(`document.activeElement.dataset.testid === 'skip-link'`),
		chromedp.KeyEvent("\r"), poll(`document.activeElement.id === 'main'`))

	// On a phone the links wait in the menu, and the content starts within
	// the first screen.
	var linksShown bool
	var mainTop float64
	b.Run(chromedp.Evaluate(`document.querySelector('#site-links').getClientRects().length > 0`, &linksShown),
		chromedp.Evaluate(`document.querySelector('main').getBoundingClientRect().top`, &mainTop))
	if linksShown || mainTop > 200 {
		t.Errorf("phone header: links shown %v before the menu opens; content starts at %.0fpx", linksShown, mainTop)
	}
	b.Run(chromedp.Click(`[data-testid=menu-toggle]`, chromedp.ByQuery), chromedp.WaitVisible(`#site-links a[href="/console"]`, chromedp.ByQuery))
	if got := b.Attr(`[data-testid=menu-toggle]`, "aria-expanded"); got != "true" {
		t.Errorf("menu button aria-expanded %q once open", got)
	}

	// The theme switch: dark, remembered on the next page, then light again.
	b.Run(chromedp.Click(`[data-testid=theme-switch]`, chromedp.ByQuery), poll(`document.documentElement.dataset.theme === 'dark'`))
	b.Run(chromedp.Navigate(env.URL("/docs")), chromedp.WaitVisible(`[data-testid=docs-content]`, chromedp.ByQuery))
	var theme, pressed string
	b.Run(chromedp.Evaluate(`document.documentElement.dataset.theme || ''`, &theme))
	pressed = b.Attr(`[data-testid=theme-switch]`, "aria-pressed")
	if theme != "dark" || pressed != "true" {
		t.Errorf("after choosing dark and opening another page: theme %q, switch pressed %q", theme, pressed)
	}
	b.Run(chromedp.Click(`[data-testid=theme-switch]`, chromedp.ByQuery), poll(`document.documentElement.dataset.theme === 'light'`))

	// Docs: choosing Python shows Python in every group of the page.
	b.Run(chromedp.EmulateViewport(1280, 900), chromedp.Navigate(env.URL("/docs/getting-started")),
		chromedp.WaitVisible(`[data-tabs] [role=tab][data-tab=Python]`, chromedp.ByQuery),
		chromedp.Click(`[data-tabs] [role=tab][data-tab=Python]`, chromedp.ByQuery),
		poll(`[...document.querySelectorAll('[data-tabs]')].every(g => {
			const tab = g.querySelector('[role=tab][aria-selected=true]');
			return tab.dataset.tab === 'Python' && !document.getElementById(tab.getAttribute('aria-controls')).hidden;
		})`))
	var shown string
	b.Run(chromedp.Text(`[data-tabs] [role=tabpanel]:not([hidden]) pre`, &shown, chromedp.ByQuery))
	if !strings.Contains(shown, "import os, requests") {
		t.Errorf("the Python tab shows %q", shown)
	}
	// The copy button of a code block copies it.
	b.Run(chromedp.Click(`[data-tabs] [role=tabpanel]:not([hidden]) [data-copy-code]`, chromedp.ByQuery),
		poll(`document.querySelector('[data-tabs] [role=tabpanel]:not([hidden]) [data-copy-code]').textContent !== 'Copy'`))
	b.ExpectNoProblems()
}

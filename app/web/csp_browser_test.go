package web_test

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"parapet/app/apptest"
	"parapet/models"
)

// No page of the product breaks its strict Content-Security-Policy: in a
// real browser, a visitor's pages, then a staff user who signs up (with
// the password toggle and meter), creates an organization and a key, runs
// each tool, chats in the playground and opens every console page. Any CSP
// violation, console error or uncaught exception fails the test.
func TestEveryPageKeepsTheCSP(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("GATEWAY_DEMO_WORD_DELAY", "0s"))
	b := apptest.NewBrowser(t)
	// Report every violation as a console error (which Browser records),
	// whether or not Chromium also logs it.
	b.Run(chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(`document.addEventListener("securitypolicyviolation",
			e => console.error("CSP violation: " + e.violatedDirective + " " + e.blockedURI + " " + (e.sample || "")));`).Do(ctx)
		return err
	}))
	visit := func(path, ready string) {
		t.Helper()
		b.Run(chromedp.Navigate(env.URL(path)), chromedp.WaitVisible(ready, chromedp.ByQuery), apptest.Settled())
	}
	visit("/", "main")
	visit("/docs", "main")
	visit("/console/signin", "[data-testid=signin-form]")

	visit("/console/signup", "[data-testid=signup-form]")
	b.Run(
		chromedp.SendKeys(`#email`, "csp@example.com", chromedp.ByQuery),
		chromedp.SendKeys(`#password`, "a long enough passphrase", chromedp.ByQuery),
		// The toggle is shown by its script (hidden without JavaScript).
		chromedp.WaitVisible(`[data-password-toggle=password]`, chromedp.ByQuery),
		chromedp.Click(`[data-password-toggle=password]`, chromedp.ByQuery),
	)
	if shown := b.Attr(`#password`, "type"); shown != "text" {
		t.Errorf("the show-password toggle left the field as %q", shown)
	}
	var strength string
	b.Run(chromedp.Text(`#password-strength-text`, &strength, chromedp.ByQuery))
	if strength == "" || strength == "Too weak" {
		t.Errorf("strength meter says %q for a long passphrase", strength)
	}
	b.Run(
		chromedp.Click(`[data-testid=signup-form] button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=no-org]`, chromedp.ByQuery),
		chromedp.SendKeys(`#org-name`, "CSP Org", chromedp.ByQuery),
		chromedp.Click(`[data-testid=create-org-form] button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=current-org]`, chromedp.ByQuery),
	)
	if err := env.DB.WithContext(context.Background()).Model(&models.User{}).Where("email = ?", "csp@example.com").
		Updates(map[string]any{"is_staff": true, "totp_enabled_at": models.Now()}).Error; err != nil { // staff pages take a second factor
		t.Fatal(err)
	}
	visit("/console/keys", "#key-name")
	b.Run(
		chromedp.SendKeys(`#key-name`, "csp-key", chromedp.ByQuery),
		chromedp.Click(`[data-testid=create-key-form] button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=new-key-value]`, chromedp.ByQuery),
		apptest.Settled(),
		chromedp.Click(`[data-testid=copy-key]`, chromedp.ByQuery),
		chromedp.Poll(`document.querySelector('[data-testid=copy-key]').textContent === 'Copied'`, nil, chromedp.WithPollingTimeout(3*time.Second)),
	)
	visit("/logs/app", "[data-testid=logs-form]")
	b.Run(
		chromedp.Click(`[data-testid=use-sample]`, chromedp.ByQuery),
		chromedp.Click(`[data-testid=logs-submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=match-row]`, chromedp.ByQuery),
		apptest.Settled(),
	)
	visit("/scan/app", "[data-testid=scan-form]")
	b.Run(
		chromedp.Click(`[data-testid=use-sample]`, chromedp.ByQuery),
		chromedp.Click(`[data-testid=scan-submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=finding-row]`, chromedp.ByQuery),
		apptest.Settled(),
	)
	visit("/gateway/app", "[data-testid=playground-form]")
	b.Run(
		chromedp.SendKeys(`#pg-message`, "Hello there", chromedp.ByQuery),
		chromedp.Click(`[data-testid=send]`, chromedp.ByQuery),
		chromedp.Poll(`!!document.querySelector('[data-testid=usage]')`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		apptest.Settled(),
	)
	for _, p := range []struct{ path, ready string }{
		{"/console", "main"}, {"/console/orgs", "main"}, {"/console/audit", "[data-testid=audit-table]"},
		{"/console/usage", "main"}, {"/console/products", "[data-testid=create-product]"}, {"/logs/app/compare", "[data-testid=compare-form]"},
		{"/console/account/2fa", "main"}, {"/console/account", "[data-testid=sessions]"},
	} {
		visit(p.path, p.ready)
	}
	b.Run(chromedp.SendKeys(`#new-password`, "short", chromedp.ByQuery))
	b.Screenshot("account-1280")
	b.Run(chromedp.EmulateViewport(390, 900), apptest.Settled())
	b.Screenshot("account-390")
	b.ExpectNoProblems()
}

package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"parapet/app/apptest"
)

// The path a new user takes, in a real browser: sign up, create an
// organization, create a key, copy it, see its hint in the list, revoke it.
func TestConsoleJourneyInBrowser(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	b := apptest.NewBrowser(t)
	b.Run(
		chromedp.Navigate(env.URL("/")),
		chromedp.Click(`[data-testid=cta-signup]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=signup-form]`, chromedp.ByQuery),
	)
	b.Screenshot("console-signup")
	b.Run(
		chromedp.SendKeys(`#email`, "new.user@example.com", chromedp.ByQuery),
		chromedp.SendKeys(`#password`, "a long enough passphrase", chromedp.ByQuery),
		chromedp.Click(`[data-testid=signup-form] button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=no-org]`, chromedp.ByQuery),
		chromedp.SendKeys(`#org-name`, "Night Watch", chromedp.ByQuery),
		chromedp.Click(`[data-testid=create-org-form] button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=current-org]`, chromedp.ByQuery),
	)
	if got := b.Text(`[data-testid=current-org]`); got != "Night Watch" {
		t.Fatalf("current org %q", got)
	}
	b.Screenshot("console-overview")
	b.Run(
		chromedp.Navigate(env.URL("/console/keys")),
		chromedp.WaitVisible(`#key-name`, chromedp.ByQuery),
		chromedp.SendKeys(`#key-name`, "deploy-bot", chromedp.ByQuery),
		chromedp.Click(`[data-testid=create-key-form] button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=new-key-value]`, chromedp.ByQuery),
		apptest.Settled(),
	)
	var key string
	b.Run(chromedp.Value(`[data-testid=new-key-value]`, &key, chromedp.ByQuery))
	if !strings.HasPrefix(key, "ppk_") || len(key) != 40 {
		t.Fatalf("shown key %q", key)
	}
	// htmx swapped the panel: no full page load happened.
	if !strings.HasSuffix(b.Location(), "/console/keys") {
		t.Errorf("location %s", b.Location())
	}
	b.Run(chromedp.Click(`[data-testid=copy-key]`, chromedp.ByQuery))
	b.Run(chromedp.Poll(`document.querySelector('[data-testid=copy-key]').textContent === 'Copied'`, nil, chromedp.WithPollingTimeout(3*time.Second)))
	hint := b.Text(`[data-testid=key-hint]`)
	if hint != key[:7]+"…"+key[36:] {
		t.Errorf("hint %q does not match key %q", hint, key)
	}
	b.Screenshot("console-key-created")
	// The key works against the API.
	if res := env.Client().Get("/v1/products", "Authorization", "Bearer "+key); res.StatusCode != 200 {
		t.Errorf("the new key gets %d from the API", res.StatusCode)
	}
	b.Run(
		apptest.Revoke(),
		chromedp.WaitVisible(`[data-testid=revoked]`, chromedp.ByQuery),
	)
	if b.Count(`[data-testid=new-key-value]`) != 0 {
		t.Error("the key is still shown after the list was refreshed")
	}
	if res := env.Client().Get("/v1/products", "Authorization", "Bearer "+key); res.StatusCode != 401 {
		t.Errorf("the revoked key gets %d from the API", res.StatusCode)
	}
	b.Screenshot("console-key-revoked")
	b.Run(chromedp.Navigate(env.URL("/console/audit")), chromedp.WaitVisible(`[data-testid=audit-table]`, chromedp.ByQuery))
	b.Screenshot("console-audit")
	b.Run(chromedp.Navigate(env.URL("/console/account")), chromedp.WaitVisible(`[data-testid=password-form]`, chromedp.ByQuery))
	if got := b.Text(`[data-testid=account-email]`); got != "new.user@example.com" {
		t.Errorf("account page shows %q", got)
	}
	b.Screenshot("console-account")
	b.Run(chromedp.EmulateViewport(390, 844), chromedp.Navigate(env.URL("/console/keys")), chromedp.WaitVisible(`[data-testid=keys-table]`, chromedp.ByQuery))
	b.Screenshot("console-keys-phone")
	b.ExpectNoProblems()
}

// A key name that is taken comes back, through htmx, as the form with its
// error: the 422 is swapped in, not dropped.
func TestKeyFormErrorShowsWithHTMX(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "htmx.error@example.com")
	b := apptest.NewBrowser(t)
	b.Run(
		chromedp.Navigate(env.URL("/console/signin")),
		apptest.SubmitSignIn(s.Email, apptest.TestPassword),
		chromedp.WaitVisible(`[data-testid=current-org]`, chromedp.ByQuery),
		chromedp.Navigate(env.URL("/console/keys")),
		apptest.OpenNewKeyForm(),
	)
	var taken string
	b.Run(chromedp.Text(`[data-testid=key-row] td .clipped-text`, &taken, chromedp.ByQuery))
	b.Run(
		chromedp.SendKeys(`#key-name`, taken, chromedp.ByQuery),
		chromedp.Click(`[data-testid=create-key-form] button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=form-error]`, chromedp.ByQuery),
	)
	if got := b.Text(`[data-testid=form-error]`); !strings.Contains(got, "already exists") {
		t.Errorf("form error %q", got)
	}
}

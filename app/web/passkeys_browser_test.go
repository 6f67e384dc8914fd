package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"

	"parapet/app/apptest"
	"parapet/models"
)

// A passkey's whole life in Chromium with its virtual authenticator (a
// platform authenticator that holds discoverable credentials and verifies
// the user): a member of an organization that requires two-factor sign-in
// is sent to set it up, adds a passkey on the account page instead, and is
// let in; signs out and back in with the password, the passkey as second
// factor; signs out and in again with the passkey alone.
func TestPasskeyInBrowser(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "pat@example.com")
	if err := models.SetRequire2FA(context.Background(), env.DB.DB, s.OrgID, true); err != nil {
		t.Fatal(err)
	}
	// WebAuthn needs a secure context with a domain: localhost, not 127.0.0.1.
	url := func(p string) string { return strings.Replace(env.URL(p), "127.0.0.1", "localhost", 1) }
	b := apptest.NewBrowser(t)
	b.Run(
		webauthn.Enable(),
		chromedp.ActionFunc(func(ctx context.Context) error {
			_, err := webauthn.AddVirtualAuthenticator(&webauthn.VirtualAuthenticatorOptions{
				Protocol: webauthn.AuthenticatorProtocolCtap2, Transport: webauthn.AuthenticatorTransportInternal,
				HasResidentKey: true, HasUserVerification: true, IsUserVerified: true, AutomaticPresenceSimulation: true,
			}).Do(ctx)
			return err
		}),
		chromedp.Navigate(url("/console/signin")),
		chromedp.WaitVisible(`[data-testid=signin-form]`, chromedp.ByQuery),
		apptest.SubmitSignIn(s.Email, apptest.TestPassword),
		chromedp.WaitVisible(`[data-testid=totp-required]`, chromedp.ByQuery),
	)

	// Add a passkey on the account page.
	b.Run(
		chromedp.Navigate(url("/console/account")),
		chromedp.WaitVisible(`[data-testid=passkeys-none]`, chromedp.ByQuery),
		chromedp.SendKeys(`#passkey-name`, "Laptop <b>", chromedp.ByQuery),
		chromedp.SendKeys(`#passkey-proof`, apptest.TestPassword, chromedp.ByQuery),
		chromedp.Click(`[data-testid=passkey-register]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=passkey-row]`, chromedp.ByQuery),
	)
	b.Screenshot("passkey-added")
	if got := b.Text(`[data-testid=passkey-name]`); got != "Laptop <b>" {
		t.Errorf("the new passkey is listed as %q", got)
	}
	if got := b.Text(`[data-testid=passkey-last-used]`); got != "never" {
		t.Errorf("a new passkey's last use: %q", got)
	}
	// The organization's requirement is met now.
	b.Run(chromedp.Navigate(url("/console")), chromedp.WaitVisible(`[data-testid=active-keys]`, chromedp.ByQuery))

	// Password, then the passkey as second factor.
	b.Run(
		chromedp.Click(`[data-testid=signout]`, chromedp.ByQuery),
		chromedp.WaitNotPresent(`[data-testid=signout]`, chromedp.ByQuery),
		chromedp.Navigate(url("/console/signin")),
		chromedp.WaitVisible(`[data-testid=signin-form]`, chromedp.ByQuery),
		apptest.SubmitSignIn(s.Email, apptest.TestPassword),
		// The sign-in page has a passkey button too: wait for the second
		// step's page, not for a button the page being left also shows.
		chromedp.WaitVisible(`[data-testid=second-step] [data-testid=passkey-signin]`, chromedp.ByQuery),
	)
	if b.Count(`[data-testid=second-step-form]`) != 0 {
		t.Error("an account without TOTP is asked for a code")
	}
	b.Screenshot("passkey-second-step")
	b.Run(
		chromedp.Click(`[data-testid=passkey-signin]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=active-keys]`, chromedp.ByQuery),
	)

	// The passkey alone, from the sign-in page.
	b.Run(
		chromedp.Click(`[data-testid=signout]`, chromedp.ByQuery),
		chromedp.WaitNotPresent(`[data-testid=signout]`, chromedp.ByQuery),
		chromedp.Navigate(url("/console/signin")),
		chromedp.WaitVisible(`[data-testid=passkey-signin]`, chromedp.ByQuery),
	)
	b.Screenshot("passkey-signin")
	b.Run(
		chromedp.Click(`[data-testid=passkey-signin]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=active-keys]`, chromedp.ByQuery),
		chromedp.Navigate(url("/console/account")),
		chromedp.WaitVisible(`[data-testid=passkey-row]`, chromedp.ByQuery),
	)
	if got := b.Text(`[data-testid=passkey-last-used]`); !strings.Contains(got, time.Now().UTC().Format("2006-01-02")) {
		t.Errorf("last use after signing in: %q", got)
	}
	b.ExpectNoProblems()
}

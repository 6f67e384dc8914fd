package web_test

import (
	"net/url"
	"regexp"
	"strings"
	"testing"

	"parapet/app/apptest"
	"parapet/models"
)

var verifyLinkRE = regexp.MustCompile(`/verify/[0-9A-Za-z]{32}`)

// A new account is signed in at once and mailed a verification link (read
// from the development mailer). Until it is confirmed the account creates
// organizations but is mailed no notice; the account's email page sends a
// new link (shown there, as SMTP_URL is unset), throttled; a link works
// once and expires.
func TestEmailVerification(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		c := env.Client()
		c.SignUp("fresh@example.com")
		first := verifyLinkRE.FindString(env.Logs.String())
		if first == "" {
			t.Fatal("no verification link mailed at sign-up")
		}
		c.CreateOrg("Unverified Inc") // the tools and organizations work at once
		if n := c.Get("/console/account/verify").Doc(t).Find("[data-testid=email-unverified]").Length(); n != 1 {
			t.Error("the email page does not say the address is unconfirmed")
		}
		// No notice goes to an address not proven.
		before := len(env.Logs.String())
		res := c.Submit("/console/account", "/console/account/password", url.Values{"current_password": {apptest.TestPassword},
			"new_password": {"another long passphrase"}, "confirm_password": {"another long passphrase"}})
		if res.StatusCode != 303 {
			t.Fatalf("password change: %d", res.StatusCode)
		}
		if strings.Contains(env.Logs.String()[before:], "to=fresh@example.com") {
			t.Error("an unconfirmed address was mailed a notice")
		}
		// A new link, shown on the page in development.
		res = c.Submit("/console/account/verify", "/console/account/verify", nil)
		shown, _ := res.Doc(t).Find("[data-testid=dev-mail-link] a").Attr("href")
		second := verifyLinkRE.FindString(shown)
		if res.StatusCode != 200 || second == "" || second == first {
			t.Fatalf("a new link: %d, shown %q", res.StatusCode, shown)
		}
		// Expired links do not work; a valid one works once.
		env.DB.Model(&models.AccountToken{}).Where("token_hash = ?", models.HashToken(strings.TrimPrefix(first, "/verify/"))).
			Update("expires_at", models.Now().Add(-1))
		if res := c.Get(first); res.StatusCode != 410 {
			t.Errorf("an expired link: %d, want 410", res.StatusCode)
		}
		visitor := env.Client() // the link proves the mailbox, whoever opens it
		if res := visitor.Get(second); res.StatusCode != 200 || res.Doc(t).Find("[data-testid=confirm-email-form]").Length() != 1 {
			t.Fatalf("the link's page: %d", res.StatusCode)
		}
		if res := visitor.Submit(second, second, nil); res.StatusCode != 200 || res.Doc(t).Find("[data-testid=verify-done]").Length() != 1 {
			t.Fatalf("confirming: %d", res.StatusCode)
		}
		if res := visitor.Submit("/console/signin", second, nil); res.StatusCode != 410 {
			t.Errorf("the link again: %d, want 410", res.StatusCode)
		}
		if n := c.Get("/console/account/verify").Doc(t).Find("[data-testid=email-verified]").Length(); n != 1 {
			t.Error("the email page does not say the address is confirmed")
		}
		var n int64
		env.DB.Model(&models.AuditEvent{}).Where("action = ?", models.ActionEmailVerify).Count(&n)
		if n != 1 {
			t.Errorf("%d email.verify events, want 1", n)
		}
		if res := visitor.Get("/verify/" + strings.Repeat("z", 32)); res.StatusCode != 404 {
			t.Errorf("a made-up link: %d, want 404", res.StatusCode)
		}
	})
}

// New links are throttled per account: the sixth in an hour is refused.
func TestVerificationLinksAreThrottled(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := env.Client()
	c.SignUp("many-links@example.com")
	tok := c.CSRF("/console/account/verify")
	for i := range 6 {
		res := c.PostForm("/console/account/verify", url.Values{"_csrf": {tok}})
		if want := map[bool]int{true: 429, false: 200}[i == 5]; res.StatusCode != want {
			t.Errorf("link %d: %d, want %d", i+1, res.StatusCode, want)
		}
	}
}

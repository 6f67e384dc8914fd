package web_test

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"parapet/app/apptest"
	"parapet/models"
)

var resetLink = regexp.MustCompile(`/console/password/reset/[0-9A-Za-z]{32}`)

// askReset asks for a reset link for email as a visitor and returns the
// answer and the path of the link the development mailer logged ("" when
// none was mailed).
func askReset(t *testing.T, env *apptest.Env, email string) (*apptest.Response, string) {
	t.Helper()
	before := len(env.Logs.String())
	res := env.Client().Submit("/console/password/forgot", "/console/password/forgot", url.Values{"email": {email}})
	return res, resetLink.FindString(env.Logs.String()[before:])
}

// The whole reset: "Forgot password?" on the sign-in page, a link mailed
// (read from the development mailer; the page shows it too, as SMTP_URL
// is unset), a new password under the usual rules, every session of the
// account ended, a notice mailed, the link spent, and sign-in with the new
// password.
func TestPasswordReset(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		old := env.Client()
		old.SignUp("forgetful@example.com")
		if n := env.Client().Get("/console/signin").Doc(t).Find("[data-testid=forgot-password]").Length(); n != 1 {
			t.Fatal("no “Forgot password?” on the sign-in page")
		}
		res, link := askReset(t, env, "Forgetful@Example.com")
		if res.StatusCode != 200 || link == "" {
			t.Fatalf("asking for a link: %d, link mailed %q", res.StatusCode, link)
		}
		if shown, _ := res.Doc(t).Find("[data-testid=dev-mail-link] a").Attr("href"); !strings.HasSuffix(shown, link) {
			t.Errorf("the page shows %q, the mail has %q", shown, link)
		}
		var stored models.AccountToken
		env.DB.Where("purpose = ?", models.PurposeReset).Take(&stored)
		if token := strings.TrimPrefix(link, "/console/password/reset/"); stored.TokenHash != models.HashToken(token) || strings.Contains(stored.TokenHash, token) {
			t.Error("the token is not stored hashed")
		}
		v := env.Client()
		if page := v.Get(link); page.StatusCode != 200 || page.Doc(t).Find("[data-testid=reset-form]").Length() != 1 {
			t.Fatalf("the link's page: %d", page.StatusCode)
		}
		for pw, want := range map[string]int{"password1234": 422, "a new passphrase here": 422} {
			again := pw
			if pw == "a new passphrase here" {
				again = "something else entirely"
			}
			if res := v.Submit(link, link, url.Values{"new_password": {pw}, "confirm_password": {again}}); res.StatusCode != want {
				t.Errorf("new password %q: %d, want %d", pw, res.StatusCode, want)
			}
		}
		before := len(env.Logs.String())
		res = v.Submit(link, link, url.Values{"new_password": {"a new passphrase here"}, "confirm_password": {"a new passphrase here"}})
		if res.StatusCode != 303 || res.Header.Get("Location") != "/console/signin?reset=1" {
			t.Fatalf("reset: %d to %q", res.StatusCode, res.Header.Get("Location"))
		}
		if got := old.Get("/console"); got.StatusCode != 303 {
			t.Errorf("a session from before the reset: %d, want it ended", got.StatusCode)
		}
		apptest.WaitFor(t, 5*time.Second, "the notice mailed", func() bool {
			return strings.Contains(env.Logs.String()[before:], "Your Parapet password was reset")
		})
		if res := v.Get(link); res.StatusCode != 410 {
			t.Errorf("the link again: %d, want 410", res.StatusCode)
		}
		if res := env.Client().SignIn("forgetful@example.com", apptest.TestPassword); res.StatusCode != 401 {
			t.Errorf("the old password: %d, want 401", res.StatusCode)
		}
		if res := env.Client().SignIn("forgetful@example.com", "a new passphrase here"); res.StatusCode != 303 {
			t.Errorf("the new password: %d, want 303", res.StatusCode)
		}
		var n int64
		env.DB.Model(&models.AuditEvent{}).Where("action = ? AND target = ?", models.ActionPasswordReset, "forgetful@example.com").Count(&n)
		if n != 1 {
			t.Errorf("%d password.reset events, want 1", n)
		}
		if res := v.Get("/console/password/reset/" + strings.Repeat("x", 32)); res.StatusCode != 404 {
			t.Errorf("a made-up link: %d, want 404", res.StatusCode)
		}
	})
}

// A link works once: of two requests with it at once (both past the
// page's check, then hashing their password), one sets the password and
// the other is told it was used: the token is spent by one conditional
// UPDATE. Three rounds, each with a new link. A link past its hour does
// not work.
func TestResetLinkWorksOnceAndExpires(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		env.Client().SignUp("race@example.com")
		v := env.Client()
		for round := range 3 {
			_, link := askReset(t, env, "race@example.com")
			tok := v.CSRF(link)
			statuses := make([]int, 2)
			var wg sync.WaitGroup
			for i := range statuses {
				wg.Go(func() {
					pw := "parallel passphrase " + string(rune('a'+i))
					statuses[i] = v.PostForm(link, url.Values{"_csrf": {tok}, "new_password": {pw}, "confirm_password": {pw}}).StatusCode
				})
			}
			wg.Wait()
			if !(statuses[0] == 303 && statuses[1] == 410 || statuses[0] == 410 && statuses[1] == 303) {
				t.Errorf("round %d, two uses of one link at once: %v, want one 303 and one 410", round+1, statuses)
			}
		}

		_, link := askReset(t, env, "race@example.com")
		env.DB.Model(&models.AccountToken{}).Where("used_at IS NULL").Update("expires_at", models.Now().Add(-1))
		if res := v.Get(link); res.StatusCode != 410 {
			t.Errorf("an expired link: %d, want 410", res.StatusCode)
		}
	})
}

// An account with two-factor sign-in (and a confirmed address: see
// TestResetOfAnUnprovenAccountForgetsItsPasskeys) still needs its second
// factor after a reset: the reset signs nothing in, and the new password
// leads to the code form.
func TestResetKeepsTheSecondFactor(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := env.Client()
	c.SignUp("twofa@example.com")
	enrolTOTP(t, c)
	var u models.User
	env.DB.Where("email = ?", "twofa@example.com").Take(&u)
	if err := models.SetEmailVerified(context.Background(), env.DB.DB, u.ID); err != nil {
		t.Fatal(err)
	}
	_, link := askReset(t, env, "twofa@example.com")
	v := env.Client()
	if res := v.Submit(link, link, url.Values{"new_password": {"another passphrase"}, "confirm_password": {"another passphrase"}}); res.StatusCode != 303 {
		t.Fatalf("reset: %d", res.StatusCode)
	}
	if res := v.Get("/console"); res.StatusCode != 303 {
		t.Errorf("the reset signed the browser in: %d", res.StatusCode)
	}
	res := v.SignIn("twofa@example.com", "another passphrase")
	if res.StatusCode != 303 || res.Header.Get("Location") != "/console/signin/2fa" {
		t.Errorf("sign-in after the reset: %d to %q, want the code form", res.StatusCode, res.Header.Get("Location"))
	}
}

// Asking for a link answers the same for an address without an account
// as for one with (the lookup and the mail come after the answer), and
// is throttled per address alike: the sixth request for one address in
// an hour is refused, whether an account uses it or not.
func TestResetRequestRevealsNoAccount(t *testing.T) {
	// With SMTP_URL set the page shows no link; the mail server is
	// unreachable, which the answer does not show either.
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("SMTP_URL", "smtp://127.0.0.1:9?from=noreply@example.com"))
	env.Client().SignUp("known@example.com")
	page := func(email string) (int, string) {
		res, _ := askReset(t, env, email)
		text := res.Doc(t).Find("main").Text()
		return res.StatusCode, strings.Join(strings.Fields(strings.ReplaceAll(text, email, "EMAIL")), " ")
	}
	ks, known := page("known@example.com")
	us, unknown := page("nobody@example.com")
	if ks != 200 || us != 200 || known != unknown || !strings.Contains(known, "If an account uses EMAIL") {
		t.Errorf("known: %d %q\nunknown: %d %q", ks, known, us, unknown)
	}
	for _, email := range []string{"known@example.com", "nobody@example.com"} {
		for range 4 {
			page(email)
		}
		if st, _ := page(email); st != 429 {
			t.Errorf("the sixth link for %s: %d, want 429", email, st)
		}
	}
}

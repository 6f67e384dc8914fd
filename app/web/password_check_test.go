package web_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"parapet/app/apptest"
)

// The meter's verdict is the form's: the check answers with the rule a
// password breaks, or ok, as the sign-up form would.
func TestPasswordCheckIsTheFormsVerdict(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := env.Client()
	tok := c.CSRF("/console/signup")
	for _, tc := range []struct{ pw, email, want string }{
		{"password1234", "a@example.com", `"problem":"common"`},
		{"Pass Word 1234", "a@example.com", `"problem":"common"`}, // case and spaces ignored, as the form does
		{"short", "a@example.com", `"problem":"length"`},
		{"my name is tester, ok", "tester@example.com", `"problem":"email"`},
		{"correct horse battery", "a@example.com", `{"ok":true}`},
	} {
		res := c.PostForm("/console/password/check", url.Values{"_csrf": {tok}, "password": {tc.pw}, "email": {tc.email}})
		if res.StatusCode != 200 || !strings.Contains(res.Body, tc.want) {
			t.Errorf("%q for %s: %d %s, want %s", tc.pw, tc.email, res.StatusCode, res.Body, tc.want)
		}
		status := c.Submit("/console/signup", "/console/signup", url.Values{"email": {tc.email}, "password": {tc.pw}}).StatusCode
		if accepted := status == 303; accepted != strings.Contains(tc.want, "ok") {
			t.Errorf("%q: the form answered %d, the check %s", tc.pw, status, tc.want)
		}
		if status == 303 {
			c = env.Client()
			tok = c.CSRF("/console/signup")
		}
	}
	if res := env.Client().PostForm("/console/password/check", url.Values{"password": {"x"}}); res.StatusCode != 403 {
		t.Errorf("a check without a CSRF token: %d, want 403", res.StatusCode)
	}
}

// In the browser the meter never rates "Fair" a password the server
// refuses: password1234 is "Too weak" as one of the most common.
func TestStrengthMeterAgreesWithTheServer(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	b := apptest.NewBrowser(t)
	meter := `document.getElementById('password-strength-text').textContent`
	wait := func(want string) string {
		var got string
		_ = chromedp.Run(b.Ctx, chromedp.Poll(meter+` === `+jsString(want), nil, chromedp.WithPollingTimeout(5*time.Second)))
		_ = chromedp.Run(b.Ctx, chromedp.Evaluate(meter, &got))
		return got
	}
	b.Run(
		chromedp.Navigate(env.URL("/console/signup")),
		chromedp.WaitVisible(`[data-testid=signup-form]`, chromedp.ByQuery),
		chromedp.SendKeys(`#email`, "tester@example.com", chromedp.ByQuery),
		chromedp.SendKeys(`#password`, "password1234", chromedp.ByQuery),
	)
	if got := wait("Too weak: one of the most common passwords"); got != "Too weak: one of the most common passwords" {
		t.Errorf("password1234 is rated %q", got)
	}
	b.Run(chromedp.Evaluate(`document.getElementById('password').value = ''`, nil), chromedp.SendKeys(`#password`, "the tester's phrase", chromedp.ByQuery))
	if got := wait("Too weak: it contains your email's name"); got != "Too weak: it contains your email's name" {
		t.Errorf("a password with the email's name is rated %q", got)
	}
	b.Run(chromedp.Evaluate(`document.getElementById('password').value = ''`, nil), chromedp.SendKeys(`#password`, "Quiet Harbour 42 lanterns", chromedp.ByQuery))
	if got := wait("Strong"); got != "Strong" {
		t.Errorf("a good passphrase is rated %q", got)
	}
	b.Screenshot("password-meter")
	b.ExpectNoProblems()
}

func jsString(s string) string { return "'" + strings.ReplaceAll(s, "'", `\'`) + "'" }

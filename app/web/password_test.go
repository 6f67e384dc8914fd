package web_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"parapet/app/apptest"
	"parapet/models"
)

func TestChangePassword(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		const email, newPassword = "pw@example.com", "a brand new passphrase"
		c := env.Client()
		c.SignUp(email)
		c.CreateOrg("PW Org")
		other := env.Client() // the same account, signed in elsewhere
		if res := other.SignIn(email, apptest.TestPassword); res.StatusCode != 303 {
			t.Fatalf("second sign in: %d", res.StatusCode)
		}
		if res := c.Get("/console/account"); res.StatusCode != 200 || res.Doc(t).Find("[data-testid=account-email]").Text() != email {
			t.Fatalf("account page: %d", res.StatusCode)
		}

		change := func(current, next, again string) *apptest.Response {
			return c.Submit("/console/account", "/console/account/password",
				url.Values{"current_password": {current}, "new_password": {next}, "confirm_password": {again}})
		}
		for _, tc := range []struct {
			name, current, next, again, want string
			status                           int
		}{
			{"wrong current password", "not my password", newPassword, newPassword, "current password is not right", 401},
			{"too short", apptest.TestPassword, "short", "short", "at least 12 characters", 422},
			{"confirmation differs", apptest.TestPassword, newPassword, newPassword + "!", "differ", 422},
			{"same as before", apptest.TestPassword, apptest.TestPassword, apptest.TestPassword, "is the current one", 422},
		} {
			res := change(tc.current, tc.next, tc.again)
			if res.StatusCode != tc.status || !strings.Contains(res.Doc(t).Find("[data-testid=form-error]").Text(), tc.want) {
				t.Errorf("%s: status %d, want %d with %q", tc.name, res.StatusCode, tc.status, tc.want)
			}
		}
		if res := env.Client().SignIn(email, apptest.TestPassword); res.StatusCode != 303 {
			t.Fatalf("a refused change changed the password: sign in %d", res.StatusCode)
		}

		res := change(apptest.TestPassword, newPassword, newPassword)
		if res.StatusCode != 303 || res.Header.Get("Location") != "/console/account?changed=1" {
			t.Fatalf("change: %d to %q", res.StatusCode, res.Header.Get("Location"))
		}
		// This browser stays signed in, on a new session, in its organization.
		if res := c.Get("/console/account?changed=1"); res.StatusCode != 200 || !strings.Contains(res.Body, "Your password is changed") ||
			res.Doc(t).Find("[data-testid=current-org]").Text() != "PW Org" {
			t.Errorf("after the change: %d", res.StatusCode)
		}
		// The other session is over; the old password no longer signs in, the new one does.
		if res := other.Get("/console/keys"); res.StatusCode != 303 || !strings.HasPrefix(res.Header.Get("Location"), "/console/signin") {
			t.Errorf("the other session still works: %d", res.StatusCode)
		}
		if res := env.Client().SignIn(email, apptest.TestPassword); res.StatusCode != 401 {
			t.Errorf("old password: %d", res.StatusCode)
		}
		if res := env.Client().SignIn(email, newPassword); res.StatusCode != 303 {
			t.Errorf("new password: %d", res.StatusCode)
		}
		var changes, failures int64
		env.DB.Model(&models.AuditEvent{}).Where("action = ? AND target = ?", models.ActionPasswordChange, email).Count(&changes)
		env.DB.Model(&models.AuditEvent{}).Where("action = ? AND target = ?", models.ActionPasswordFailure, email).Count(&failures)
		if changes != 1 || failures != 1 {
			t.Errorf("audit: %d changes, %d failures; want 1 and 1", changes, failures)
		}
	})
}

// Wrong current passwords count against the sign-in throttle of this
// browser (its device allowance): the form is no way around it.
func TestChangePasswordThrottled(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := env.Client()
	c.SignUp("guess@example.com")
	for range 10 {
		c.Submit("/console/account", "/console/account/password",
			url.Values{"current_password": {"guess"}, "new_password": {"whatever123"}, "confirm_password": {"whatever123"}})
	}
	res := c.Submit("/console/account", "/console/account/password",
		url.Values{"current_password": {apptest.TestPassword}, "new_password": {"whatever123"}, "confirm_password": {"whatever123"}})
	if res.StatusCode != 429 || res.Header.Get("Retry-After") == "" {
		t.Errorf("after 10 wrong passwords: %d", res.StatusCode)
	}
	if res := c.PostForm("/console/signin", url.Values{"_csrf": {c.CSRF("/console/account")}, "email": {"guess@example.com"},
		"password": {apptest.TestPassword}}); res.StatusCode != 429 {
		t.Errorf("sign in after 10 wrong passwords on the change form: %d", res.StatusCode)
	}
}

// A password change is mailed to the account's address (through the log
// without SMTP_URL) and the page says every other session is signed out.
func TestChangePasswordNotice(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := env.Client()
	c.SignUp("notice@example.com")
	c.VerifyEmail("notice@example.com") // an unconfirmed address is mailed no notices
	res := c.Submit("/console/account", "/console/account/password", url.Values{"current_password": {apptest.TestPassword},
		"new_password": {"a fresh long passphrase"}, "confirm_password": {"a fresh long passphrase"}})
	if res.StatusCode != 303 {
		t.Fatalf("change: %d", res.StatusCode)
	}
	page := c.Get(res.Header.Get("Location"))
	if !strings.Contains(page.Body, "Every other session of this account is signed out") {
		t.Error("no notice on the page after the change")
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(env.Logs.String(), "Your Parapet password was changed") || !strings.Contains(env.Logs.String(), "to=notice@example.com") {
		if time.Now().After(deadline) {
			t.Fatalf("no notice mailed:\n%s", env.Logs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

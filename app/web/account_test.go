package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"parapet/app/apptest"
	"parapet/models"
)

func TestSignUpRules(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		c := env.Client()
		cases := []struct {
			email, password, want string
		}{
			{"", apptest.TestPassword, "Enter your email address."},
			{"not-an-email", apptest.TestPassword, "Enter a valid email address"},
			{"d\u0430ve@example.com", apptest.TestPassword, "mixes alphabets"}, // a Cyrillic а in dave
			{"dave@ex\u0430mple.com", apptest.TestPassword, "mixes alphabets"},
			{"a@b.co", "12345678901", "at least 12 characters"},
			{"a@b.co", strings.Repeat("x", 129), "at most 128 characters"},
			{"a@b.co", "LeaveMeAlone", "most common passwords"},
			{"a@b.co", "1qaz2wsx3edc4rfv", "most common passwords"},
			{"frank.jones@example.com", "i am Frank.Jones!", "email address's name"},
		}
		for _, tc := range cases {
			res := c.Submit("/console/signup", "/console/signup", url.Values{"email": {tc.email}, "password": {tc.password}})
			if res.StatusCode != 422 || !strings.Contains(res.Doc(t).Find("[data-testid=form-error]").Text(), tc.want) {
				t.Errorf("sign up %q/%d chars: status %d, want 422 with %q", tc.email, len(tc.password), res.StatusCode, tc.want)
			}
		}
		c.SignUp("Alice@Example.com")
		var u models.User
		env.DB.Where("email = ?", "alice@example.com").Take(&u)
		if !strings.HasPrefix(u.PasswordHash, "$argon2id$v=19$m=19456,t=2,p=1$") {
			t.Errorf("password stored as %q, want argon2id with OWASP parameters", u.PasswordHash)
		}
		// Emails are unique whatever their case.
		other := env.Client()
		res := other.Submit("/console/signup", "/console/signup", url.Values{"email": {"ALICE@example.COM"}, "password": {apptest.TestPassword}})
		if res.StatusCode != 422 || !strings.Contains(res.Body, "already exists") {
			t.Errorf("duplicate email in other case: status %d", res.StatusCode)
		}
		// A 128-character password is fine, and signs in with any case of email.
		long := strings.Repeat("p", 128)
		res = env.Client().Submit("/console/signup", "/console/signup", url.Values{"email": {"long@example.com"}, "password": {long}})
		if res.StatusCode != 303 {
			t.Errorf("128-character password refused: %d", res.StatusCode)
		}
		if res := env.Client().SignIn("LONG@example.com", long); res.StatusCode != 303 {
			t.Errorf("sign in with upper-case email: %d", res.StatusCode)
		}
	})
}

func TestSignInAndOut(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		env.Client().SignUp("bob@example.com")
		c := env.Client()

		// Wrong password and unknown email read the same.
		for _, creds := range [][2]string{{"bob@example.com", "wrong password!"}, {"nobody@example.com", apptest.TestPassword}} {
			res := c.SignIn(creds[0], creds[1])
			if res.StatusCode != 401 || strings.TrimSpace(res.Doc(t).Find("[data-testid=form-error]").Text()) != "Wrong email or password." {
				t.Errorf("sign in %s: status %d, error %q", creds[0], res.StatusCode, res.Doc(t).Find("[data-testid=form-error]").Text())
			}
			if strings.Contains(res.Body, creds[1]) {
				t.Error("the sign-in page echoes the password")
			}
		}

		// Pages that need a user send a visitor to sign in and back again.
		res := c.Get("/console/keys?x=1")
		if res.StatusCode != 303 || res.Header.Get("Location") != "/console/signin?next=%2Fconsole%2Fkeys%3Fx%3D1" {
			t.Fatalf("protected page: %d to %q", res.StatusCode, res.Header.Get("Location"))
		}
		tok := c.CSRF("/console/signin?next=%2Fconsole%2Fkeys%3Fx%3D1")
		res = c.PostForm("/console/signin", url.Values{"_csrf": {tok}, "email": {"bob@example.com"}, "password": {apptest.TestPassword}, "next": {"/console/keys?x=1"}})
		if res.StatusCode != 303 || res.Header.Get("Location") != "/console/keys?x=1" {
			t.Fatalf("sign in: %d to %q", res.StatusCode, res.Header.Get("Location"))
		}
		cookie := sessionCookie(t, res)
		if !cookie.HttpOnly || cookie.SameSite != http.SameSiteLaxMode || cookie.Secure {
			t.Errorf("session cookie flags: HttpOnly=%v SameSite=%v Secure=%v (plain HTTP)", cookie.HttpOnly, cookie.SameSite, cookie.Secure)
		}
		if got := c.Get("/console").StatusCode; got != 200 {
			t.Fatalf("signed in, /console answers %d", got)
		}

		// Signing in again starts a new session id.
		again := c.Submit("/console", "/console/signin", url.Values{"email": {"bob@example.com"}, "password": {apptest.TestPassword}})
		if again.StatusCode != 303 || sessionCookie(t, again).Value == cookie.Value {
			t.Error("the session id did not change at sign-in")
		}

		// Sign out ends the session on the server: the old cookie is dead.
		old := c.Jar.Cookies(mustURL(env.URL("/")))
		var before int64
		env.DB.Model(&models.Session{}).Count(&before)
		res = c.Submit("/console", "/console/signout", nil)
		if res.StatusCode != 303 {
			t.Fatalf("sign out: %d", res.StatusCode)
		}
		replay := env.Client()
		replay.Jar.SetCookies(mustURL(env.URL("/")), old)
		if got := replay.Get("/console"); got.StatusCode != 303 {
			t.Errorf("the cookie from before sign-out still works: %d", got.StatusCode)
		}
		var n int64
		env.DB.Model(&models.Session{}).Count(&n)
		if n != before-1 {
			t.Errorf("%d sessions in the database after sign-out, want %d", n, before-1)
		}
	})
}

func TestSignInRedirectStaysLocal(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	env.Client().SignUp("eve@example.com")
	for _, next := range []string{"//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)", "/console\r\nSet-Cookie: x=y"} {
		c := env.Client()
		tok := c.CSRF("/console/signin")
		res := c.PostForm("/console/signin", url.Values{"_csrf": {tok}, "email": {"eve@example.com"}, "password": {apptest.TestPassword}, "next": {next}})
		if loc := res.Header.Get("Location"); loc != "/console" {
			t.Errorf("next=%q redirected to %q, want /console", next, loc)
		}
	}
}

func TestSignInThrottle(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		env.Client().SignUp("carol@example.com")
		// A browser that never signed in to carol's account: its attempts
		// count on the account and on the address.
		c := env.Client()
		for i := 0; i < 10; i++ {
			if res := c.SignIn("carol@example.com", "wrong password "+string(rune('a'+i))); res.StatusCode != 401 {
				t.Fatalf("failure %d: status %d", i+1, res.StatusCode)
			}
		}
		res := c.SignIn("carol@example.com", apptest.TestPassword)
		if res.StatusCode != 429 || !strings.Contains(res.Body, "Too many failed sign-in attempts") || res.Header.Get("Retry-After") == "" {
			t.Fatalf("11th attempt with the right password: status %d, want 429 with a clear message", res.StatusCode)
		}
		// Another email from this address is throttled as well (per-address
		// count).
		env.Client().SignUp("dave@example.com")
		if res := env.Client().SignIn("dave@example.com", apptest.TestPassword); res.StatusCode != 429 {
			t.Errorf("another email from the same IP: status %d, want 429", res.StatusCode)
		}
		// The window ends.
		env.DB.Exec("UPDATE throttles SET reset_at = ?", models.Now().Add(-time.Second))
		if res := env.Client().SignIn("carol@example.com", apptest.TestPassword); res.StatusCode != 303 {
			t.Errorf("after the window: status %d, want 303", res.StatusCode)
		}
		var stale int64
		env.DB.Table("throttles").Where("reset_at <= ?", models.Now()).Count(&stale)
		if stale != 0 {
			t.Errorf("%d ended throttle windows left after a sign-in swept them", stale)
		}
		var failures int64
		env.DB.Model(&models.AuditEvent{}).Where("action = ? AND target = ?", models.ActionSignInFailure, "carol@example.com").Count(&failures)
		if failures != 10 {
			t.Errorf("%d sign-in failures audited, want 10", failures)
		}
	})
}

func TestSessionExpiry(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		c := env.Client()
		c.SignUp("idle@example.com")
		ctx := context.Background()
		// Idle for 31 minutes: over the 30-minute idle limit.
		env.DB.WithContext(ctx).Model(&models.Session{}).Where("1 = 1").Update("last_seen_at", models.Now().Add(-31*time.Minute))
		if res := c.Get("/console"); res.StatusCode != 303 {
			t.Errorf("idle session still works: %d", res.StatusCode)
		}
		mustSignIn(t, c, "idle@example.com")
		var dead int64
		env.DB.Model(&models.Session{}).Where("last_seen_at <= ?", models.Now().Add(-30*time.Minute)).Count(&dead)
		if dead != 0 {
			t.Errorf("%d idle-expired sessions left after a sign-in swept them", dead)
		}
		// Active, but past the 12-hour absolute limit.
		env.DB.WithContext(ctx).Model(&models.Session{}).Where("1 = 1").Update("expires_at", models.Now().Add(-time.Minute))
		if res := c.Get("/console"); res.StatusCode != 303 {
			t.Errorf("session past its absolute expiry still works: %d", res.StatusCode)
		}
		// A password change ends every earlier session.
		mustSignIn(t, c, "idle@example.com")
		env.DB.WithContext(ctx).Model(&models.User{}).Where("email = ?", "idle@example.com").Update("password_changed_at", models.Now().Add(time.Second))
		if res := c.Get("/console"); res.StatusCode != 303 {
			t.Errorf("session from before a password change still works: %d", res.StatusCode)
		}
	})
}

func sessionCookie(t *testing.T, res *apptest.Response) *http.Cookie {
	t.Helper()
	for _, ck := range res.Cookies() {
		if ck.Name == "parapet_session" && ck.Value != "" {
			return ck
		}
	}
	t.Fatalf("no session cookie set")
	return nil
}

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

func mustSignIn(t *testing.T, c *apptest.Client, email string) {
	t.Helper()
	if res := c.SignIn(email, apptest.TestPassword); res.StatusCode != 303 {
		t.Fatalf("sign in %s: %d", email, res.StatusCode)
	}
}

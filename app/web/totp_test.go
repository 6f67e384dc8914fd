package web_test

import (
	"context"
	"encoding/base64"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/PuerkitoBio/goquery"

	"parapet/app/apptest"
	"parapet/models"
)

// enrolTOTP turns two-factor sign-in on for the signed-in client and
// returns the secret, the recovery codes shown and the code that confirmed
// it.
func enrolTOTP(t *testing.T, c *apptest.Client) (secret string, recovery []string, code string) {
	t.Helper()
	doc := c.Get("/console/account/2fa").Doc(t)
	secret = strings.TrimSpace(doc.Find("[data-testid=totp-secret]").Text())
	if src, _ := doc.Find("[data-testid=totp-qr]").Attr("src"); !strings.HasPrefix(src, "data:image/png;base64,") || secret == "" {
		t.Fatalf("no QR code or secret on the enrolment page")
	}
	// Reloading shows the same secret; the database holds it sealed.
	if again := strings.TrimSpace(c.Get("/console/account/2fa").Doc(t).Find("[data-testid=totp-secret]").Text()); again != secret {
		t.Errorf("the secret changed on reload: %q, %q", secret, again)
	}
	if res := c.Submit("/console/account/2fa", "/console/account/2fa", url.Values{"current_password": {apptest.TestPassword}, "code": {"000000"}}); res.StatusCode != 422 {
		t.Errorf("a wrong confirmation code: %d", res.StatusCode)
	}
	// A session alone cannot put an authenticator on the account: the
	// password is asked again.
	code, _ = totp.GenerateCode(secret, time.Now())
	if res := c.Submit("/console/account/2fa", "/console/account/2fa", url.Values{"current_password": {"not the password"}, "code": {code}}); res.StatusCode != 401 {
		t.Errorf("enrolling with a wrong password: %d", res.StatusCode)
	}
	res := c.Submit("/console/account/2fa", "/console/account/2fa", url.Values{"current_password": {apptest.TestPassword}, "code": {code}})
	res.Doc(t).Find("[data-testid=recovery-code]").Each(func(_ int, s *goquery.Selection) { recovery = append(recovery, s.Text()) })
	if res.StatusCode != 200 || len(recovery) != 10 {
		t.Fatalf("enable: %d with %d recovery codes", res.StatusCode, len(recovery))
	}
	return secret, recovery, code
}

// signInWithCode signs in with the password, then sends code to the
// second step, and returns that answer.
func signInWithCode(t *testing.T, env *apptest.Env, email, code string) (*apptest.Client, *apptest.Response) {
	t.Helper()
	c := env.Client()
	res := c.SignIn(email, apptest.TestPassword)
	if res.StatusCode != 303 || res.Header.Get("Location") != "/console/signin/2fa" {
		t.Fatalf("password step: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	// The password alone signs nothing in.
	if res := c.Get("/console/keys"); res.StatusCode != 303 || !strings.HasPrefix(res.Header.Get("Location"), "/console/signin") {
		t.Errorf("after the password only, /console/keys: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	return c, c.Submit("/console/signin/2fa", "/console/signin/2fa", url.Values{"code": {code}})
}

func TestTwoFactorSignIn(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		owner := env.Client()
		owner.SignUp("two@example.com")
		owner.CreateOrg("Acme")
		secret, recovery, spent := enrolTOTP(t, owner)
		u, _ := models.UserByEmail(context.Background(), env.DB.DB, "two@example.com")
		if u.TOTPSecret == nil || strings.Contains(*u.TOTPSecret, secret) || u.TOTPEnabledAt == nil {
			t.Errorf("stored: secret %v, enabled %v", u.TOTPSecret, u.TOTPEnabledAt)
		}
		var stored []models.RecoveryCode
		env.DB.Where("user_id = ?", u.ID).Find(&stored)
		for _, rc := range stored {
			for _, code := range recovery {
				if strings.Contains(rc.CodeHash, code) {
					t.Error("a recovery code is stored in clear")
				}
			}
		}
		if len(stored) != 10 {
			t.Errorf("%d recovery codes stored", len(stored))
		}

		if _, res := signInWithCode(t, env, "two@example.com", "123456"); res.StatusCode != 401 {
			t.Errorf("a wrong code: %d", res.StatusCode)
		}
		// The code that confirmed the enrolment is spent; the next one
		// (the app's clock may run a step ahead) signs in, once.
		if _, res := signInWithCode(t, env, "two@example.com", spent); res.StatusCode != 401 {
			t.Errorf("the enrolment's code again: %d", res.StatusCode)
		}
		code, _ := totp.GenerateCode(secret, time.Now().Add(30*time.Second))
		c, res := signInWithCode(t, env, "two@example.com", code)
		if res.StatusCode != 303 || c.Get("/console/keys").StatusCode != 200 {
			t.Errorf("the right code: %d", res.StatusCode)
		}
		if _, res := signInWithCode(t, env, "two@example.com", code); res.StatusCode != 401 {
			t.Errorf("a code used before: %d", res.StatusCode)
		}
		// A recovery code works once, whatever its case.
		c, res = signInWithCode(t, env, "two@example.com", strings.ToUpper(recovery[3]))
		if res.StatusCode != 303 || c.Get("/console/keys").StatusCode != 200 {
			t.Errorf("a recovery code: %d", res.StatusCode)
		}
		if _, res := signInWithCode(t, env, "two@example.com", recovery[3]); res.StatusCode != 401 {
			t.Errorf("a used recovery code: %d", res.StatusCode)
		}
		// The second step has no form without the password step, nor with
		// a second-step cookie not signed by us, or the device cookie's
		// value in its place (refused whether or not it would decode: the
		// cookie's name is signed, TestCookieCodecSignsTheName).
		if res := env.Client().Get("/console/signin/2fa"); res.StatusCode != 303 {
			t.Errorf("the code form without a password: %d", res.StatusCode)
		}
		forged := base64.RawURLEncoding.EncodeToString([]byte(u.ID + "|9999999999|/console"))
		for _, value := range []string{forged + "." + forged, deviceCookieOf(t, c)} {
			if res := env.Client().Get("/console/signin/2fa", "Cookie", "parapet_2fa="+value); res.StatusCode != 303 {
				t.Errorf("the code form with the cookie %q: %d", value, res.StatusCode)
			}
		}
		var n int64
		env.DB.Model(&models.AuditEvent{}).Where("action = ?", models.ActionTOTPFailure).Count(&n)
		if n != 4 {
			t.Errorf("%d totp.failure events, want 4", n)
		}
	})
}

// Wrong codes are throttled like wrong passwords: after the limit even the
// right code is refused for a while, as is the password step.
func TestTwoFactorThrottle(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := env.Client()
	c.SignUp("guess@example.com")
	secret, _, _ := enrolTOTP(t, c)
	waiting, _ := signInWithCode(t, env, "guess@example.com", "222222") // past the password, one wrong code
	var res *apptest.Response
	for i := 0; i < 9; i++ {
		_, res = signInWithCode(t, env, "guess@example.com", "111111")
		if res.StatusCode != 401 {
			t.Fatalf("wrong code %d: %d", i+2, res.StatusCode)
		}
	}
	code, _ := totp.GenerateCode(secret, time.Now())
	res = waiting.Submit("/console/signin/2fa", "/console/signin/2fa", url.Values{"code": {code}})
	if res.StatusCode != 429 || res.Header.Get("Retry-After") == "" {
		t.Errorf("the right code after 10 wrong ones: %d", res.StatusCode)
	}
	if res := env.Client().SignIn("guess@example.com", apptest.TestPassword); res.StatusCode != 429 {
		t.Errorf("the password step after 10 wrong codes: %d", res.StatusCode)
	}
}

func TestOrganizationRequiresTwoFactor(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		tm := newTeam(t, env)
		owner, member := tm.clients["owner"], tm.clients["member"]
		if res := member.Submit("/console/members", "/console/settings/require-2fa", url.Values{"require_2fa": {"on"}}); res.StatusCode != 403 {
			t.Errorf("a member changing the setting: %d", res.StatusCode)
		}
		enrolTOTP(t, owner)
		if res := owner.Submit("/console/settings", "/console/settings/require-2fa", url.Values{"require_2fa": {"on"}}); res.StatusCode != 303 {
			t.Fatalf("the owner requiring 2FA: %d", res.StatusCode)
		}
		// A member without it is sent to set it up, and can.
		res := member.Get("/console/keys")
		if res.StatusCode != 303 || res.Header.Get("Location") != "/console/account/2fa?required=1" {
			t.Fatalf("a member without 2FA: %d to %q", res.StatusCode, res.Header.Get("Location"))
		}
		if member.Get("/console/account/2fa?required=1").Doc(t).Find("[data-testid=totp-required]").Length() != 1 {
			t.Error("the enrolment page does not say why")
		}
		enrolTOTP(t, member)
		if res := member.Get("/console/keys"); res.StatusCode != 200 {
			t.Errorf("after enrolling: %d", res.StatusCode)
		}
		// The owner, who has it, was never stopped.
		if res := owner.Get("/console/keys"); res.StatusCode != 200 {
			t.Errorf("the owner: %d", res.StatusCode)
		}
	})
}

// deviceCookieOf is the value of the device cookie c's sign-in left.
func deviceCookieOf(t *testing.T, c *apptest.Client) string {
	t.Helper()
	for _, ck := range c.Cookies() {
		if ck.Name == "parapet_device" {
			return ck.Value
		}
	}
	t.Fatal("no device cookie after a sign-in")
	return ""
}

// Turning two-factor sign-in off takes a code, and wrong codes count as at
// sign-in: a stolen session cannot guess its way through. Each wrong code
// is audited; the change, either way, is mailed to the account.
func TestTwoFactorOffIsThrottled(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := env.Client()
	c.SignUp("off@example.com")
	c.VerifyEmail("off@example.com") // an unconfirmed address is mailed no notices
	secret, _, _ := enrolTOTP(t, c)  // one wrong password on the way, counted
	wrong := 0
	for ; wrong < 10; wrong++ {
		res := c.Submit("/console/account/2fa", "/console/account/2fa/disable", url.Values{"code": {"111111"}})
		if res.StatusCode == 429 {
			break
		}
		if res.StatusCode != 422 {
			t.Fatalf("wrong code %d: %d", wrong+1, res.StatusCode)
		}
	}
	if wrong != 9 {
		t.Errorf("%d wrong codes answered before the throttle, want 9 (10 attempts less the wrong password)", wrong)
	}
	code, _ := totp.GenerateCode(secret, time.Now().Add(30*time.Second))
	res := c.Submit("/console/account/2fa", "/console/account/2fa/disable", url.Values{"code": {code}})
	if res.StatusCode != 429 || res.Header.Get("Retry-After") == "" {
		t.Errorf("the right code after 10 wrong ones: %d", res.StatusCode)
	}
	u, _ := models.UserByEmail(context.Background(), env.DB.DB, "off@example.com")
	if u.TOTPEnabledAt == nil {
		t.Fatal("two-factor sign-in went off past the throttle")
	}
	var n int64
	env.DB.Model(&models.AuditEvent{}).Where("action = ? AND actor_user_id = ?", models.ActionTOTPFailure, u.ID).Count(&n)
	if n != int64(wrong) {
		t.Errorf("%d totp.failure events for %d wrong codes", n, wrong)
	}
	if !apptest.Eventually(5*time.Second, func() bool {
		return strings.Contains(env.Logs.String(), "Two-factor sign-in was turned on for your Parapet account")
	}) {
		t.Error("no notice of two-factor sign-in turned on")
	}

	// Another account turns it off with its code: told by mail.
	d := env.Client()
	d.SignUp("off2@example.com")
	d.VerifyEmail("off2@example.com")
	secret, _, _ = enrolTOTP(t, d)
	code, _ = totp.GenerateCode(secret, time.Now().Add(30*time.Second))
	if res := d.Submit("/console/account/2fa", "/console/account/2fa/disable", url.Values{"code": {code}}); res.StatusCode != 303 {
		t.Fatalf("the right code: %d", res.StatusCode)
	}
	apptest.WaitFor(t, 5*time.Second, "the notice of two-factor sign-in turned off", func() bool {
		return strings.Contains(env.Logs.String(), "Two-factor sign-in was turned off for your Parapet account")
	})
}

package web_test

import (
	"context"
	"net/url"
	"testing"

	"parapet/app/apptest"
	"parapet/models"
)

// Adding a passkey takes the password again: a session alone (left open,
// or stolen) cannot add one, which would outlive a password change and
// sign its holder in for good.
func TestAddingAPasskeyTakesThePassword(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("PUBLIC_URL", "http://localhost"))
	alice := env.Client()
	alice.SignUp("alice@example.com")
	tok := alice.CSRF("/console/account")
	for proof, code := range map[string]string{"": "wrong_password", "not her password at all": "wrong_password"} {
		wantError(t, alice.PostForm("/console/account/passkeys/begin", url.Values{"name": {"stolen"}, "proof": {proof}}, "X-CSRF-Token", tok), 401, code)
	}
	registerPasskey(t, alice, newSoftKey(t, env), "mine") // with her password
	var n int64
	env.DB.Model(&models.Passkey{}).Count(&n)
	if n != 1 {
		t.Errorf("%d passkeys stored, want 1", n)
	}
}

// An account whose address was never proven may have been opened by
// someone else: when its owner proves the address with a reset link, the
// passkeys and the authenticator app set up meanwhile are forgotten, so
// their holder cannot sign in and the owner is not asked for a factor
// they never had. A proven
// account's passkeys stay.
func TestResetOfAnUnprovenAccountForgetsItsPasskeys(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("PUBLIC_URL", "http://localhost"))
	reset := func(email, password string) {
		t.Helper()
		_, link := askReset(t, env, email)
		if link == "" {
			t.Fatalf("no reset link for %s", email)
		}
		v := env.Client()
		v.Get(link)
		if res := v.Submit(link, link, url.Values{"new_password": {password}, "confirm_password": {password}}); res.StatusCode != 303 {
			t.Fatalf("reset %s: %d", email, res.StatusCode)
		}
	}
	passkeySignIn := func(k *softKey) int {
		v := env.Client()
		tok := v.CSRF("/console/signin")
		ch := beginSignIn(t, v, "/console/signin/passkey/begin", tok)
		return v.PostJSON("/console/signin/passkey/finish", k.get(ch), "X-CSRF-Token", tok).StatusCode
	}

	squatter := env.Client()
	squatter.SignUp("owner@example.com")
	k := newSoftKey(t, env)
	registerPasskey(t, squatter, k, "squatter's")
	enrolTOTP(t, squatter)
	reset("owner@example.com", "a wholly fresh phrase here")
	if res := env.Client().SignIn("owner@example.com", "a wholly fresh phrase here"); res.StatusCode != 303 || res.Header.Get("Location") != "/console" {
		t.Errorf("the owner's sign-in after the reset: %d to %q, want the console (no second factor)", res.StatusCode, res.Header.Get("Location"))
	}
	if code := passkeySignIn(k); code != 401 {
		t.Errorf("the squatter's passkey after the reset: %d, want 401", code)
	}

	proven := env.Client()
	proven.SignUp("proven@example.com")
	var u models.User
	env.DB.Where("email = ?", "proven@example.com").Take(&u)
	if err := models.SetEmailVerified(context.Background(), env.DB.DB, u.ID); err != nil {
		t.Fatal(err)
	}
	k2 := newSoftKey(t, env)
	registerPasskey(t, proven, k2, "mine")
	reset("proven@example.com", "another fine passphrase")
	if code := passkeySignIn(k2); code != 200 {
		t.Errorf("a proven account's passkey after a reset: %d, want 200", code)
	}
}

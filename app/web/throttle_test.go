package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"parapet/app/apptest"
	"parapet/app/web"
	"parapet/models"
)

// throttleEnvs runs fn on each database, counting attempts in the
// database, and once more counting them in Redis when TEST_REDIS_URL is
// set (under the test application's own REDIS_PREFIX).
func throttleEnvs(t *testing.T, fn func(t *testing.T, env *apptest.Env, email string)) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) { fn(t, env, "victim@example.com") })
	if u := os.Getenv("TEST_REDIS_URL"); u != "" {
		t.Run("redis", func(t *testing.T) {
			fn(t, apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("REDIS_URL", u)), "victim@example.com")
		})
	}
}

// 30 parallel wrong passwords on one account: at most 10 are evaluated
// (audited as failures), the rest are refused with 429 before any check.
func TestSignInThrottleHoldsUnderConcurrency(t *testing.T) {
	throttleEnvs(t, func(t *testing.T, env *apptest.Env, email string) {
		env.Seed(t, email)
		c := env.Client()
		tok := c.CSRF("/console/signin")
		statuses := make([]int, 30)
		var wg sync.WaitGroup
		for i := range statuses {
			wg.Go(func() {
				res := c.PostForm("/console/signin", url.Values{"_csrf": {tok}, "email": {email}, "password": {"wrong password " + string(rune('a'+i))}})
				statuses[i] = res.StatusCode
			})
		}
		wg.Wait()
		count := map[int]int{}
		for _, s := range statuses {
			count[s]++
		}
		// 503: the hashing slots were busy (a loaded machine); never checked.
		if count[401] > 10 || count[429] == 0 || count[401]+count[429]+count[503] != 30 {
			t.Errorf("statuses %v: want at most 10 evaluated (401), the rest 429 (or 503 busy)", count)
		}
		var failures int64
		env.DB.Model(&models.AuditEvent{}).Where("action = ? AND target = ?", models.ActionSignInFailure, email).Count(&failures)
		if failures > 10 {
			t.Errorf("%d wrong passwords were checked, want at most 10", failures)
		}
	})
}

// Strangers' failures cannot lock the owner out: a browser that signed in
// before carries a device cookie with its own allowance (OWASP device
// cookies), while a browser without one is refused.
func TestDeviceCookieKeepsOwnerIn(t *testing.T) {
	throttleEnvs(t, func(t *testing.T, env *apptest.Env, email string) {
		env.Seed(t, email)
		owner := env.Client()
		if res := owner.SignIn(email, apptest.TestPassword); res.StatusCode != 303 {
			t.Fatalf("owner's first sign-in: %d", res.StatusCode)
		}
		var device bool
		for _, ck := range owner.Jar.Cookies(mustURL(env.URL("/"))) {
			device = device || ck.Name == "parapet_device"
		}
		if !device {
			t.Fatal("no device cookie after a successful sign-in")
		}
		owner.Submit("/console", "/console/signout", nil)

		stranger := env.Client()
		for i := range 12 {
			res := stranger.SignIn(email, "guess number "+string(rune('a'+i)))
			if res.StatusCode != 401 && res.StatusCode != 429 {
				t.Fatalf("stranger attempt %d: %d", i+1, res.StatusCode)
			}
		}
		if res := stranger.SignIn(email, apptest.TestPassword); res.StatusCode != 429 {
			t.Errorf("a browser without a device cookie after 12 failures: %d, want 429", res.StatusCode)
		}
		if res := owner.SignIn(email, apptest.TestPassword); res.StatusCode != 303 {
			t.Errorf("the owner's browser, with its device cookie: %d, want 303 (signed in)", res.StatusCode)
		}
	})
}

// Sign-ups are throttled per client address: 25 sign-ups from one address
// meet a 429 with Retry-After. An IPv6 client is counted by its /64, so
// sending each from another address of its network changes nothing. With
// TRUST_PROXY the forwarded address is the one counted, so another client
// behind the same proxy may sign up.
func TestSignUpThrottle(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		signUp := func(i int, forwarded string) *apptest.Response {
			c := env.Client()
			tok := c.CSRF("/console/signup")
			return c.PostForm("/console/signup", url.Values{"_csrf": {tok}, "email": {"user" + string(rune('a'+i)) + "@example.com"},
				"password": {apptest.TestPassword}}, "X-Forwarded-For", forwarded)
		}
		refused := -1
		for i := range 25 {
			res := signUp(i, fmt.Sprintf("2001:db8:5:5::%x", i+1))
			if res.StatusCode == 429 {
				if res.Header.Get("Retry-After") == "" || !strings.Contains(res.Body, "Too many accounts") {
					t.Errorf("429 without Retry-After or a clear message")
				}
				refused = i
				break
			}
			if res.StatusCode != 303 {
				t.Fatalf("sign-up %d: %d", i+1, res.StatusCode)
			}
		}
		if refused < 0 {
			t.Fatal("25 sign-ups from one network all succeeded")
		}
		if res := signUp(25, "2001:db8:5:6::1"); res.StatusCode != 303 {
			t.Errorf("another forwarded network behind the trusted proxy: %d, want 303", res.StatusCode)
		}
	}, apptest.WithEnv("TRUST_PROXY", "true"))
}

// Every organization is granted the gateway's free monthly quota, so an
// account creates at most web.OrgCreateLimit of them per 30 days, counted
// atomically: 40 parallel creations make exactly that many (one account
// made 40 in a second, 40 quotas).
func TestOrgCreationIsBoundedPerAccount(t *testing.T) {
	throttleEnvs(t, func(t *testing.T, env *apptest.Env, email string) {
		c := env.Client()
		c.SignUp(email)
		tok := c.CSRF("/console/orgs")
		statuses := make([]int, 40)
		var wg sync.WaitGroup
		for i := range statuses {
			wg.Go(func() {
				res := c.PostForm("/console/orgs", url.Values{"_csrf": {tok}, "name": {"Farm " + strconv.Itoa(i)}})
				statuses[i] = res.StatusCode
			})
		}
		wg.Wait()
		count := map[int]int{}
		for _, s := range statuses {
			count[s]++
		}
		if count[303] != web.OrgCreateLimit || count[429] != 40-web.OrgCreateLimit {
			t.Errorf("statuses %v: want %d created (303), the rest 429", count, web.OrgCreateLimit)
		}
		var orgs int64
		env.DB.Table("organizations").Where("created_by = (SELECT id FROM users WHERE email = ?)", email).Count(&orgs)
		if orgs != web.OrgCreateLimit {
			t.Errorf("%d organizations created, want %d", orgs, web.OrgCreateLimit)
		}
		res := c.Submit("/console/orgs", "/console/orgs", url.Values{"name": {"One more"}})
		if res.StatusCode != 429 || res.Header.Get("Retry-After") == "" || !strings.Contains(res.Body, "the most an account may") {
			t.Errorf("over the limit: status %d, Retry-After %q\n%s", res.StatusCode, res.Header.Get("Retry-After"), res.Body)
		}
	})
}

// Each invitation mails its address: an organization sends at most
// web.InviteLimit a day, counted atomically under 60 parallel invitations.
func TestInvitationsAreBoundedPerOrganization(t *testing.T) {
	throttleEnvs(t, func(t *testing.T, env *apptest.Env, email string) {
		c := env.Client()
		c.SignUp(email)
		c.CreateOrg("Mailer")
		tok := c.CSRF("/console/invitations")
		statuses := make([]int, web.InviteLimit+10)
		var wg sync.WaitGroup
		for i := range statuses {
			wg.Go(func() {
				res := c.PostForm("/console/invitations", url.Values{"_csrf": {tok}, "email": {"victim@example.org"}, "role": {"member"}})
				statuses[i] = res.StatusCode
			})
		}
		wg.Wait()
		count := map[int]int{}
		for _, s := range statuses {
			count[s]++
		}
		if count[201] != web.InviteLimit || count[429] != 10 {
			t.Errorf("statuses %v: want %d invitations (201), 10 refused (429)", count, web.InviteLimit)
		}
		var n int64
		env.DB.Table("invitations").Count(&n)
		if n != web.InviteLimit {
			t.Errorf("%d invitations stored, want %d", n, web.InviteLimit)
		}
	})
}

// The sign-in throttle counts an IPv6 client by its /64: wrong passwords
// on many accounts, each from another address of one network, meet the
// address's limit as if they came from one address.
func TestSignInThrottleCountsIPv6Networks(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("TRUST_PROXY", "true"))
	c := env.Client()
	tok := c.CSRF("/console/signin")
	attempt := func(i int, from string) int {
		return c.PostForm("/console/signin", url.Values{"_csrf": {tok}, "email": {fmt.Sprintf("target%d@example.com", i)},
			"password": {"a wrong password"}}, "X-Forwarded-For", from).StatusCode
	}
	for i := range web.SignInLimit {
		if st := attempt(i, fmt.Sprintf("2001:db8:9:9::%x", i+1)); st != 401 {
			t.Fatalf("attempt %d: %d, want 401", i+1, st)
		}
	}
	if st := attempt(web.SignInLimit, "2001:db8:9:9:ffff::1"); st != 429 {
		t.Errorf("attempt %d from the same /64: %d, want 429", web.SignInLimit+1, st)
	}
	if st := attempt(web.SignInLimit+1, "2001:db8:9:a::1"); st != 401 {
		t.Errorf("another /64: %d, want 401", st)
	}
}

// Correct passwords are checked at most web.ChecksPerAddress times per
// window from one network, device cookie or not: each check is a hash that
// holds a slot of the bounded pool and each sign-in a new session, so one
// account's own password signing in a loop kept every slot busy.
func TestPasswordChecksAreBoundedPerAddress(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("TRUST_PROXY", "true"))
	env.Seed(t, "looper@example.com")
	var device []*http.Cookie // after the first sign-in, every browser sends it
	signIn := func(from string) *apptest.Response {
		c := env.Client()
		c.Jar.SetCookies(mustURL(env.URL("/")), device)
		defer func() {
			for _, ck := range c.Jar.Cookies(mustURL(env.URL("/"))) {
				if ck.Name == "parapet_device" {
					device = []*http.Cookie{ck}
				}
			}
		}()
		tok := c.CSRF("/console/signin")
		return c.PostForm("/console/signin", url.Values{"_csrf": {tok}, "email": {"looper@example.com"},
			"password": {apptest.TestPassword}}, "X-Forwarded-For", from)
	}
	for i := range web.ChecksPerAddress {
		if res := signIn("203.0.113.50"); res.StatusCode != 303 {
			t.Fatalf("sign-in %d: %d", i+1, res.StatusCode)
		}
	}
	res := signIn("203.0.113.50")
	if res.StatusCode != 429 || res.Header.Get("Retry-After") == "" || !strings.Contains(res.Body, "from your network") {
		t.Errorf("sign-in %d from one address: %d, Retry-After %q", web.ChecksPerAddress+1, res.StatusCode, res.Header.Get("Retry-After"))
	}
	var sessions int64
	env.DB.Model(&models.Session{}).Count(&sessions)
	if sessions > int64(web.ChecksPerAddress) {
		t.Errorf("%d sessions, want at most %d", sessions, web.ChecksPerAddress)
	}
	if res := signIn("198.51.100.50"); res.StatusCode != 303 {
		t.Errorf("from another address: %d, want 303", res.StatusCode)
	}
}

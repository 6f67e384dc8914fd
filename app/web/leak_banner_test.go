package web_test

import (
	"net/url"
	"strings"
	"sync"
	"testing"

	"parapet/app/apptest"
	"parapet/models"

	"github.com/PuerkitoBio/goquery"
	"github.com/chromedp/chromedp"
)

// reportLeak reports keys as published, as anyone may.
func reportLeak(t *testing.T, env *apptest.Env, ks ...string) {
	t.Helper()
	if res := env.Client().ReportLeak(ks...); res.StatusCode != 202 {
		t.Fatalf("leak report: %d %s", res.StatusCode, res.Body)
	}
}

// bannerForm is the leak banner's form on page as the owner would send
// it, or nil when the page has no banner.
func bannerForm(t *testing.T, c *apptest.Client, page string) url.Values {
	t.Helper()
	banner := c.Get(page).Doc(t).Find("[data-testid=leak-banner]")
	if banner.Length() == 0 {
		return nil
	}
	values := url.Values{}
	banner.Find("form input[type=hidden]").Each(func(_ int, in *goquery.Selection) {
		name, _ := in.Attr("name")
		value, _ := in.Attr("value")
		values.Add(name, value)
	})
	return values
}

// An owner marks a leak as handled: the banner goes for every page, the
// audit log says who did it, and only the leaks the banner showed, of the
// owner's own organization, are marked. Others may not mark one.
func TestLeakBannerMarkedAsHandled(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		tm := newTeam(t, env)
		owner, admin := tm.clients["owner"], tm.clients["admin"]
		published, _ := owner.CreateKey("published")
		second, _ := owner.CreateKey("second")
		other := env.Client()
		other.SignUp("other@example.com")
		other.CreateOrg("Other")
		otherKey, otherID := other.CreateKey("theirs")
		reportLeak(t, env, published, otherKey)

		form := bannerForm(t, owner, "/console/keys")
		if form == nil || len(form["key"]) != 1 || form.Get("back") != "/console/keys" {
			t.Fatalf("the banner's form: %v", form)
		}
		// An admin sees no banner and may not mark the leak.
		if bannerForm(t, admin, "/console") != nil {
			t.Error("an admin sees the leak banner")
		}
		if res := admin.Submit("/console/keys", "/console/keys/leaks/seen", form); res.StatusCode != 403 {
			t.Errorf("an admin marking the leak: %d", res.StatusCode)
		}
		// The owner sends the form, with another organization's key added.
		form.Add("key", otherID)
		res := owner.Submit("/console/keys", "/console/keys/leaks/seen", form)
		if res.StatusCode != 303 || res.Header.Get("Location") != "/console/keys" {
			t.Fatalf("marking: %d to %q", res.StatusCode, res.Header.Get("Location"))
		}
		for _, page := range []string{"/console", "/console/keys"} {
			if bannerForm(t, owner, page) != nil {
				t.Errorf("the banner is still on %s", page)
			}
		}
		if f := bannerForm(t, other, "/console"); f == nil || f.Get("key") != otherID {
			t.Errorf("the other organization's banner: %v", f)
		}
		var events []models.AuditEvent
		env.DB.Where("action = ?", models.ActionKeyLeakSeen).Find(&events)
		if len(events) != 1 || !strings.Contains(events[0].Target, "published") || events[0].OrgID == nil || *events[0].OrgID != tm.org.ID {
			t.Errorf("key.leak_seen events: %+v", events)
		}

		// A leak reported later shows again, alone; marking it from the
		// console home returns there, and a foreign back address is not
		// followed.
		reportLeak(t, env, second)
		form = bannerForm(t, owner, "/console")
		if form == nil || len(form["key"]) != 1 || form.Get("back") != "/console" {
			t.Fatalf("the banner after a new leak: %v", form)
		}
		form.Set("back", "https://evil.example/")
		if res := owner.Submit("/console", "/console/keys/leaks/seen", form); res.StatusCode != 303 || res.Header.Get("Location") != "/console" {
			t.Errorf("marking from home: %d to %q", res.StatusCode, res.Header.Get("Location"))
		}
		// Sending the same form again marks nothing more.
		owner.Submit("/console", "/console/keys/leaks/seen", form)
		var n int64
		env.DB.Model(&models.AuditEvent{}).Where("action = ?", models.ActionKeyLeakSeen).Count(&n)
		if n != 2 {
			t.Errorf("%d key.leak_seen events, want 2", n)
		}
	})
}

// In a real browser, at a desk's width and a phone's: the banner names the
// leaked key, its button is reachable, and pressing it takes the banner
// away.
func TestLeakBannerInBrowser(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "owner@example.com")
	reportLeak(t, env, s.Key)
	b := apptest.NewBrowser(t)
	b.Run(
		chromedp.Navigate(env.URL("/console/signin")),
		apptest.SubmitSignIn(s.Email, apptest.TestPassword),
		chromedp.WaitVisible(`[data-testid=leak-banner]`, chromedp.ByQuery),
	)
	if got := b.Text(`[data-testid=leak-banner] li`); !strings.Contains(got, "seed-") {
		t.Errorf("the banner names %q", got)
	}
	b.Screenshot("console-leak-banner")
	b.Run(chromedp.EmulateViewport(390, 844), chromedp.Reload(), chromedp.WaitVisible(`[data-testid=leak-seen]`, chromedp.ByQuery))
	b.Screenshot("console-leak-banner-phone")
	// The console home shows its summary before and after: wait for the
	// banner to go, which only the page after the form does.
	b.Run(
		chromedp.Click(`[data-testid=leak-seen]`, chromedp.ByQuery),
		chromedp.WaitNotPresent(`[data-testid=leak-banner]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=active-keys]`, chromedp.ByQuery),
	)
	if !strings.HasSuffix(b.Location(), "/console") {
		t.Errorf("after marking the leak the browser is at %s", b.Location())
	}
	b.ExpectNoProblems()
}

// Ten presses of the same banner's button at once mark each key once: one
// audit event, whatever the order the requests run in.
func TestLeakMarkedOnceUnderRace(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		owner := env.Client()
		owner.SignUp("owner@example.com")
		owner.CreateOrg("Acme")
		key, _ := owner.CreateKey("published")
		reportLeak(t, env, key)
		form := bannerForm(t, owner, "/console") // with the page's CSRF token
		var wg sync.WaitGroup
		statuses := make([]int, 10)
		for i := range statuses {
			wg.Go(func() { statuses[i] = owner.PostForm("/console/keys/leaks/seen", form).StatusCode })
		}
		wg.Wait()
		for i, s := range statuses {
			if s != 303 {
				t.Errorf("press %d: %d", i, s)
			}
		}
		var n int64
		env.DB.Model(&models.AuditEvent{}).Where("action = ?", models.ActionKeyLeakSeen).Count(&n)
		if n != 1 {
			t.Errorf("%d key.leak_seen events, want 1", n)
		}
	})
}

package web_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"parapet/app/apptest"
)

// A new organization's console lists its first steps and ticks each as it
// is done; an invited member learns where accepting took them; the only
// owner is not offered to leave.
func TestOnboardingJoinAndSoleOwner(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	owner := env.Client()
	owner.SignUp("first@example.com")
	owner.Submit("/console", "/console/orgs", url.Values{"name": {"Harbor Labs"}})

	steps := func(c *apptest.Client) string {
		var done []string
		doc := c.Get("/console").Doc(t)
		doc.Find("[data-testid=onboarding-step]").Each(func(_ int, s *goquery.Selection) {
			done = append(done, s.AttrOr("data-done", "?"))
		})
		return strings.Join(done, ",")
	}
	if got := steps(owner); got != "true,false,false,false" {
		t.Fatalf("a new organization's steps: %s", got)
	}
	key, _ := owner.CreateKey("first-script")
	if got := steps(owner); got != "true,true,false,false" {
		t.Errorf("after a key: %s", got)
	}
	if res := env.Client().Get("/v1/products", "Authorization", "Bearer "+key); res.StatusCode != 200 {
		t.Fatalf("the key: %d", res.StatusCode)
	}
	// The key's use is recorded in the background (keys.Verifier.touch):
	// wait for it, as the console would show it a moment later.
	got := steps(owner)
	for deadline := time.Now().Add(5 * time.Second); got != "true,true,true,false" && time.Now().Before(deadline); got = steps(owner) {
		time.Sleep(20 * time.Millisecond)
	}
	if got != "true,true,true,false" {
		t.Errorf("after the key's first call: %s", got)
	}

	// The only owner has no Leave button, but a reason.
	members := owner.Get("/console/members").Doc(t)
	if members.Find("[data-testid=leave]").Length() != 0 || members.Find("[data-testid=sole-owner]").Length() != 1 {
		t.Error("the only owner is offered to leave, or not told why not")
	}

	link := invite(t, owner, "second@example.com", "member")
	if got := steps(owner); got != "" {
		t.Errorf("every step done, the checklist still shows: %s", got)
	}
	guest := env.Client()
	guest.SignUp("second@example.com")
	guest.VerifyEmail("second@example.com") // only a confirmed address accepts an invitation
	res := guest.Submit(pathOf(t, link), pathOf(t, link), nil)
	if res.StatusCode != 303 || res.Header.Get("Location") != "/console?joined=1" {
		t.Fatalf("accepting: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	joined := guest.Get("/console?joined=1").Doc(t).Find("[data-testid=joined]").Text()
	if !strings.Contains(joined, "You joined Harbor Labs") {
		t.Errorf("after accepting, the console says %q", joined)
	}
	// A member who is not the only owner may leave.
	if guest.Get("/console/members").Doc(t).Find("[data-testid=leave]").Length() != 1 {
		t.Error("a member is not offered to leave")
	}
}

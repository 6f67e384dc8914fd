package web_test

import (
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"

	"parapet/app/apptest"
	"parapet/app/web"
	"parapet/models"
)

// An organization holds at most models.MaxActiveKeys active keys, counted
// under its lock: 20 parallel creations one short of the bound make
// exactly one key (each key is a rate-limit budget of its own). A roll
// that keeps the old key in its grace period is refused at the bound, one
// without grace is not, and revoking a key makes room.
func TestActiveKeysAreBoundedPerOrganization(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "many@example.com")
		for range models.MaxActiveKeys - 2 {
			env.SeedKey(t, s.OrgID, "bulk")
		}
		c := env.Client()
		if res := c.SignIn(s.Email, apptest.TestPassword); res.StatusCode != 303 {
			t.Fatalf("sign in: %d", res.StatusCode)
		}
		tok := c.CSRF("/console/keys")
		statuses := make([]int, 20)
		var wg sync.WaitGroup
		for i := range statuses {
			wg.Go(func() {
				statuses[i] = c.PostForm("/console/keys", url.Values{"_csrf": {tok}, "name": {fmt.Sprintf("ci-%d", i)},
					"scopes": {"public"}, "expires": {"never"}}).StatusCode
			})
		}
		wg.Wait()
		count := map[int]int{}
		for _, st := range statuses {
			count[st]++
		}
		if count[201] != 1 || count[409] != 19 {
			t.Errorf("20 parallel creations one short of the bound: %v, want one 201 and nineteen 409", count)
		}
		var active int64
		env.DB.Model(&models.APIKey{}).Where("org_id = ? AND revoked_at IS NULL", s.OrgID).Count(&active)
		if active != models.MaxActiveKeys {
			t.Errorf("%d active keys, want %d", active, models.MaxActiveKeys)
		}

		roll := func(grace string) *apptest.Response {
			return c.PostForm("/console/keys/"+s.KeyID+"/roll", url.Values{"_csrf": {tok}, "grace": {grace}})
		}
		if res := roll("24h"); res.StatusCode != 409 || !strings.Contains(res.Body, fmt.Sprintf("at most %d active keys", models.MaxActiveKeys)) {
			t.Errorf("a roll with a grace period at the bound: %d", res.StatusCode)
		}
		if res := roll("0s"); res.StatusCode != 201 {
			t.Errorf("a roll without grace at the bound: %d, want 201", res.StatusCode)
		}
		var bulk models.APIKey
		env.DB.Where("org_id = ? AND name LIKE ?", s.OrgID, "bulk-%").Take(&bulk)
		if res := c.PostForm("/console/keys/"+bulk.ID+"/revoke", url.Values{"_csrf": {tok}}); res.StatusCode >= 400 {
			t.Fatalf("revoke: %d", res.StatusCode)
		}
		res := c.PostForm("/console/keys", url.Values{"_csrf": {tok}, "name": {"after-revoke"}, "scopes": {"public"}, "expires": {"never"}})
		if res.StatusCode != 201 {
			t.Errorf("a creation after a revocation: %d, want 201", res.StatusCode)
		}
	})
}

// An organization makes at most web.KeyCreateLimit keys a day, created or
// rolled: revoking keeps it within models.MaxActiveKeys, but a loop of
// creations and revocations would grow the keys page and the audit log
// without end.
func TestKeyCreationIsBoundedPerDay(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "loop@example.com")
	c := env.Client()
	if res := c.SignIn(s.Email, apptest.TestPassword); res.StatusCode != 303 {
		t.Fatalf("sign in: %d", res.StatusCode)
	}
	tok := c.CSRF("/console/keys")
	create := func(i int) *apptest.Response {
		return c.PostForm("/console/keys", url.Values{"_csrf": {tok}, "name": {fmt.Sprintf("loop-%d", i)}, "scopes": {"public"}, "expires": {"never"}})
	}
	for i := range web.KeyCreateLimit {
		if i%50 == 0 { // as the loop's revocations would
			env.DB.Model(&models.APIKey{}).Where("org_id = ? AND id <> ?", s.OrgID, s.KeyID).Update("revoked_at", models.Now())
		}
		if res := create(i); res.StatusCode != 201 {
			t.Fatalf("creation %d: %d", i+1, res.StatusCode)
		}
	}
	res := create(web.KeyCreateLimit)
	if res.StatusCode != 429 || res.Header.Get("Retry-After") == "" || !strings.Contains(res.Body, "keys in the last day") {
		t.Errorf("creation %d: %d, Retry-After %q", web.KeyCreateLimit+1, res.StatusCode, res.Header.Get("Retry-After"))
	}
	if res := c.PostForm("/console/keys/"+s.KeyID+"/roll", url.Values{"_csrf": {tok}, "grace": {"0s"}}); res.StatusCode != 429 {
		t.Errorf("a roll over the day's bound: %d, want 429", res.StatusCode)
	}
}

package web_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"parapet/app/apptest"
	"parapet/app/keys"
	"parapet/models"
)

// A key expiring 9999-12-31 ended in year 10000, which SQLite cannot read
// back: every keys page of the organization then answered 500. Expiry
// dates are refused past keys.MaxExpiryYears with a message, and the
// last day allowed is stored and shown.
func TestKeyExpiryIsBounded(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "far@example.com")
		c := env.Client()
		c.SignIn(s.Email, apptest.TestPassword)
		create := func(name, on string) *apptest.Response {
			return c.Submit("/console/keys", "/console/keys", url.Values{"name": {name}, "scopes": {"public"},
				"expires": {"date"}, "expires_on": {on}})
		}
		for _, on := range []string{"9999-12-31", keys.LatestExpiry(models.Now()).AddDate(0, 0, 1).Format(time.DateOnly)} {
			res := create("far-"+on, on)
			if res.StatusCode != 422 || !strings.Contains(res.Body, "more than 10 years ahead") {
				t.Errorf("a key expiring %s: %d, want 422 with a message\n%s", on, res.StatusCode, res.Body)
			}
		}
		last := keys.LatestExpiry(models.Now()).Format(time.DateOnly)
		if res := create("last", last); res.StatusCode != 201 {
			t.Fatalf("a key expiring on the last day allowed (%s): %d", last, res.StatusCode)
		}
		res := c.Get("/console/keys")
		shown := res.Doc(t).Find("[data-testid=key-expires]").Text()
		if res.StatusCode != 200 || !strings.Contains(shown, last[:4]) {
			t.Errorf("keys page after the far key: %d, expiries shown %q, want the year of %s", res.StatusCode, shown, last)
		}
	})
}

// A rolled key expires when the one it replaces would have: rolling a
// 7-day key twice does not extend its life. A new expiry may be chosen at
// the roll, within the same bound as at creation.
func TestRollKeepsTheExpiry(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "roll@example.com")
		c := env.Client()
		c.SignIn(s.Email, apptest.TestPassword)
		res := c.Submit("/console/keys", "/console/keys", url.Values{"name": {"weekly"}, "scopes": {"public"}, "expires": {"7"}})
		if res.StatusCode != 201 {
			t.Fatalf("create: %d", res.StatusCode)
		}
		current := func() models.APIKey {
			var k models.APIKey
			env.DB.Where("org_id = ? AND name = ? AND revoked_at IS NULL", s.OrgID, "weekly").Take(&k)
			return k
		}
		first := current()
		if first.ExpiresAt == nil {
			t.Fatal("the 7-day key has no expiry")
		}
		for i := range 2 {
			id := current().ID
			if res := c.Submit("/console/keys", "/console/keys/"+id+"/roll", url.Values{"grace": {"0s"}}); res.StatusCode != 201 {
				t.Fatalf("roll %d: %d", i+1, res.StatusCode)
			}
			k := current()
			if k.ID == id || k.ExpiresAt == nil || !k.ExpiresAt.Equal(*first.ExpiresAt) {
				t.Errorf("after roll %d the key expires %v, want %v (the first key's)", i+1, k.ExpiresAt, first.ExpiresAt)
			}
		}
		id := current().ID
		res = c.Submit("/console/keys", "/console/keys/"+id+"/roll", url.Values{"grace": {"0s"}, "expires": {"date"}, "expires_on": {"9999-12-31"}})
		if res.StatusCode != 422 || current().ID != id {
			t.Errorf("a roll to 9999-12-31: %d, want 422 and the key unchanged", res.StatusCode)
		}
		if res := c.Submit("/console/keys", "/console/keys/"+id+"/roll", url.Values{"grace": {"0s"}, "expires": {"30"}}); res.StatusCode != 201 {
			t.Fatalf("a roll with a new expiry: %d", res.StatusCode)
		}
		if k := current(); k.ExpiresAt == nil || k.ExpiresAt.Sub(models.Now()) < 29*24*time.Hour {
			t.Errorf("a roll choosing 30 days expires %v", k.ExpiresAt)
		}
	})
}

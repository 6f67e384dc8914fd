package web_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"parapet/app/apptest"
	"parapet/models"
)

func TestOrganizations(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		c := env.Client()
		c.SignUp("owner@example.com")
		if env := c.Get("/console").Doc(t); env.Find("[data-testid=no-org]").Length() != 1 {
			t.Error("a new user is not asked to create an organization")
		}
		c.CreateOrg("Acme Security, Inc.")
		c.CreateOrg("Acme Security, Inc.")
		var orgs []models.Organization
		env.DB.Order("slug").Find(&orgs)
		if len(orgs) != 2 || orgs[0].Slug != "acme-security-inc" || orgs[1].Slug != "acme-security-inc-2" {
			t.Fatalf("slugs: %+v", orgs)
		}
		page := c.Get("/console/orgs").Doc(t)
		if page.Find("[data-testid=org-row]").Length() != 2 {
			t.Errorf("the organizations page lists %d organizations", page.Find("[data-testid=org-row]").Length())
		}
		// The current organization is in the header of every page.
		for _, path := range []string{"/", "/console", "/console/keys", "/console/audit"} {
			if got := strings.TrimSpace(c.Get(path).Doc(t).Find("[data-testid=current-org]").Text()); got != "Acme Security, Inc." {
				t.Errorf("%s: header shows %q as the current organization", path, got)
			}
		}
		var m models.Membership
		env.DB.Where("org_id = ?", orgs[0].ID).Take(&m)
		if m.Role != models.RoleOwner {
			t.Errorf("creator's role %q, want owner", m.Role)
		}
		// Switching to one's own organization works.
		if res := c.Submit("/console/orgs", "/console/orgs/switch", url.Values{"org_id": {orgs[0].ID}}); res.StatusCode != 303 {
			t.Fatalf("switch: %d", res.StatusCode)
		}
		// Empty and over-long names are refused with a message.
		for _, name := range []string{"  ", strings.Repeat("n", 81)} {
			res := c.Submit("/console/orgs", "/console/orgs", url.Values{"name": {name}})
			if res.StatusCode != 422 || res.Doc(t).Find("[data-testid=form-error]").Length() != 1 {
				t.Errorf("org name %q: status %d", name, res.StatusCode)
			}
		}
	})
}

func TestAPIKeysShownOnceAndStoredAsHash(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		c := env.Client()
		c.SignUp("keys@example.com")
		c.CreateOrg("Key Org")
		key, id := c.CreateKey("ci-pipeline")
		if !strings.HasPrefix(key, "ppk_") || len(key) != 40 {
			t.Fatalf("key %q does not have the ppk_ format", key)
		}
		// Never shown again: not on the list, not anywhere on later pages.
		page := c.Get("/console/keys")
		if strings.Contains(page.Body, key) || strings.Contains(page.Body, key[4:20]) {
			t.Fatal("the key is shown again after creation")
		}
		hint := strings.TrimSpace(page.Doc(t).Find("[data-testid=key-hint]").First().Text())
		if hint != key[:7]+"…"+key[len(key)-4:] {
			t.Errorf("hint %q does not match the key", hint)
		}
		// The database holds no usable copy: search every stored row.
		for _, table := range []string{"api_keys", "audit_events", "sessions", "users", "organizations"} {
			var rows []map[string]any
			env.DB.Table(table).Find(&rows)
			for _, r := range rows {
				for col, v := range r {
					if s := fmt.Sprint(v); strings.Contains(s, key) || strings.Contains(s, key[4:34]) {
						t.Errorf("%s.%s holds the key: %q", table, col, s)
					}
				}
			}
		}
		if strings.Contains(env.Logs.String(), key) {
			t.Error("the key is in the logs")
		}
		// Name rules: required, unique among active keys.
		for name, want := range map[string]string{"": "Enter a name", "ci-pipeline": "already exists", strings.Repeat("k", 81): "at most 80"} {
			res := c.Submit("/console/keys", "/console/keys", url.Values{"name": {name}, "scopes": {"public"}})
			if res.StatusCode != 422 || !strings.Contains(res.Doc(t).Find("[data-testid=form-error]").Text(), want) {
				t.Errorf("key name %q: status %d, want 422 %q", name, res.StatusCode, want)
			}
		}
		// Revoke: listed as revoked, and the name can be used again.
		res := c.Submit("/console/keys", "/console/keys/"+id+"/revoke", nil)
		if res.StatusCode != 303 {
			t.Fatalf("revoke: %d", res.StatusCode)
		}
		row := c.Get("/console/keys").Doc(t).Find(`[data-key-id="` + id + `"]`)
		if row.Find("[data-testid=revoked]").Length() != 1 || row.Find("[data-testid=revoke]").Length() != 0 {
			t.Error("the revoked key is not listed as revoked")
		}
		if _, id2 := c.CreateKey("ci-pipeline"); id2 == id {
			t.Error("re-creating a revoked key's name returned the old key")
		}
		// Both actions are in the audit log, newest first.
		audit := c.Get("/console/audit").Doc(t)
		var actions []string
		audit.Find("[data-testid=audit-row] td:nth-child(2) code").Each(func(_ int, s *goquery.Selection) { actions = append(actions, s.Text()) })
		if len(actions) < 4 || actions[0] != "key.create" || actions[1] != "key.revoke" || actions[2] != "key.create" || actions[3] != "org.create" {
			t.Errorf("audit actions %v", actions)
		}
	})
}

func TestKeyCreationWithHTMXSwapsThePanel(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := env.Client()
	c.SignUp("htmx@example.com")
	c.CreateOrg("Swap Org")
	tok := c.CSRF("/console/keys")
	res := c.Do("POST", "/console/keys", url.Values{"name": {"swap"}, "scopes": {"public"}}.Encode(),
		"Content-Type", "application/x-www-form-urlencoded", "HX-Request", "true", "X-CSRF-Token", tok)
	if res.StatusCode != 201 {
		t.Fatalf("status %d", res.StatusCode)
	}
	doc := res.Doc(t)
	if doc.Find("header.site-header").Length() != 0 || doc.Find("#keys-panel [data-testid=new-key-value]").Length() != 1 {
		t.Errorf("htmx got a whole page or no key: %s", res.Body)
	}
	if cc := res.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("the response that shows the key has Cache-Control %q", cc)
	}
}

func TestOrganizationIsolation(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		alice := env.Client()
		alice.SignUp("alice@a.example")
		alice.CreateOrg("Org A")
		aliceKey, aliceKeyID := alice.CreateKey("a-key")

		bob := env.Client()
		bob.SignUp("bob@b.example")
		bob.CreateOrg("Org B")
		var orgA models.Organization
		env.DB.Where("name = ?", "Org A").Take(&orgA)

		// Bob cannot list, revoke or switch into Org A, whatever ids he sends.
		if page := bob.Get("/console/keys"); strings.Contains(page.Body, "a-key") || strings.Contains(page.Body, aliceKeyID) {
			t.Error("Bob sees Org A's key")
		}
		if res := bob.Submit("/console/keys", "/console/keys/"+aliceKeyID+"/revoke", nil); res.StatusCode != 404 {
			t.Errorf("Bob revoking Org A's key: status %d, want 404", res.StatusCode)
		}
		var k models.APIKey
		env.DB.Where("id = ?", aliceKeyID).Take(&k)
		if !k.Active() {
			t.Fatal("Bob revoked Alice's key")
		}
		if res := bob.Submit("/console/orgs", "/console/orgs/switch", url.Values{"org_id": {orgA.ID}}); res.StatusCode != 404 {
			t.Errorf("Bob switching to Org A: status %d, want 404", res.StatusCode)
		}
		if got := strings.TrimSpace(bob.Get("/console").Doc(t).Find("[data-testid=current-org]").Text()); got != "Org B" {
			t.Errorf("Bob's current org is %q", got)
		}
		// Extra form fields naming Org A change nothing: keys land in Org B.
		res := bob.Submit("/console/keys", "/console/keys", url.Values{"name": {"sneaky"}, "scopes": {"public"}, "org_id": {orgA.ID}})
		if res.StatusCode != 201 {
			t.Fatalf("create: %d", res.StatusCode)
		}
		var sneaky models.APIKey
		env.DB.Where("name = ?", "sneaky").Take(&sneaky)
		if sneaky.OrgID == orgA.ID {
			t.Error("Bob created a key in Org A")
		}
		if page := bob.Get("/console/audit"); strings.Contains(page.Body, "a-key") || strings.Contains(page.Body, "alice@") {
			t.Error("Bob sees Org A's audit events")
		}
		_ = aliceKey
	})
}

func TestCSRFRefusal(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		c := env.Client()
		c.SignUp("csrf@example.com")
		c.CreateOrg("CSRF Org")
		other := env.Client()
		other.SignUp("other@example.com")
		foreign := other.CSRF("/console/keys")
		for name, tok := range map[string]string{"no token": "", "garbage": "abc", "another session's token": foreign} {
			v := url.Values{"name": {"forged"}}
			if tok != "" {
				v.Set("_csrf", tok)
			}
			res := c.PostForm("/console/keys", v)
			if res.StatusCode != 403 {
				t.Errorf("%s: status %d, want 403", name, res.StatusCode)
			}
			res = c.PostForm("/console/orgs", url.Values{"name": {"Forged Org"}, "_csrf": {tok}})
			if res.StatusCode != 403 {
				t.Errorf("%s (org): status %d, want 403", name, res.StatusCode)
			}
		}
		var keys, orgs int64
		env.DB.Model(&models.APIKey{}).Count(&keys)
		env.DB.Model(&models.Organization{}).Where("name = ?", "Forged Org").Count(&orgs)
		if keys != 0 || orgs != 0 {
			t.Errorf("a refused request changed data: %d keys, %d orgs", keys, orgs)
		}
		// Sign-in and sign-out are protected too.
		anon := env.Client()
		if res := anon.PostForm("/console/signin", url.Values{"email": {"csrf@example.com"}, "password": {apptest.TestPassword}}); res.StatusCode != 403 {
			t.Errorf("sign-in without token: %d", res.StatusCode)
		}
		if res := c.PostForm("/console/signout", nil); res.StatusCode != 403 {
			t.Errorf("sign-out without token: %d", res.StatusCode)
		}
		if res := c.Get("/console"); res.StatusCode != 200 {
			t.Error("a forged sign-out ended the session")
		}
	})
}

package api_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"parapet/app/apptest"
	"parapet/models"
)

// consoleKey creates a key through the console's form with the given
// fields (name, scopes, expires…) and returns its text and id.
func consoleKey(t *testing.T, c *apptest.Client, form url.Values) (key, id string) {
	t.Helper()
	res := c.Submit("/console/keys", "/console/keys", form)
	if res.StatusCode != 201 {
		t.Fatalf("create key %v: status %d\n%s", form, res.StatusCode, res.Body)
	}
	doc := res.Doc(t)
	key, _ = doc.Find(`[data-testid=new-key-value]`).Attr("value")
	id, _ = doc.Find(`[data-testid=key-row]`).First().Attr("data-key-id")
	return key, id
}

// scopedKey adds a key with only the given scopes to an organization.
func scopedKey(t *testing.T, env *apptest.Env, orgID, scopes string) string {
	t.Helper()
	key, id := env.SeedKey(t, orgID, "scoped")
	if err := env.DB.Model(&models.APIKey{}).Where("id = ?", id).Update("scopes", scopes).Error; err != nil {
		t.Fatal(err)
	}
	return key
}

func signedInOwner(t *testing.T, env *apptest.Env) *apptest.Client {
	c := env.Client()
	c.SignUp("owner@example.com")
	c.CreateOrg("Acme")
	return c
}

// expectAPIError checks a JSON error's status, code and message.
func expectAPIError(t *testing.T, res *apptest.Response, status int, code, inMessage string) {
	t.Helper()
	var e apiError
	res.JSON(t, &e)
	if res.StatusCode != status || e.Error.Code != code || !strings.Contains(e.Error.Message, inMessage) || e.Error.RequestID == "" {
		t.Errorf("got %d %+v, want %d %s with %q in the message", res.StatusCode, e.Error, status, code, inMessage)
	}
}

func TestKeyScopes(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		c := signedInOwner(t, env)
		logsOnly, _ := consoleKey(t, c, url.Values{"name": {"logs-only"}, "scopes": {"logs"}})
		all, _ := consoleKey(t, c, url.Values{"name": {"all"}, "scopes": {"public", "logs", "scan", "gateway"}})

		api := env.Client()
		expectAPIError(t, api.Get("/v1/products", bearer(logsOnly)...), 403, "insufficient_scope", `"public" scope`)
		expectAPIError(t, logsPost(api, "/scan/v1/scan", "application/json", `{"resources":[]}`, logsOnly), 403, "insufficient_scope", `"scan" scope`)
		expectAPIError(t, logsPost(api, "/gateway/v1/chat", "application/json", `{"messages":[{"role":"user","content":"hi"}]}`, logsOnly),
			403, "insufficient_scope", `"gateway" scope`)
		if res := logsPost(api, logsPath, "text/plain", "ERROR disk full\n", logsOnly); res.StatusCode != 200 {
			t.Errorf("a logs key on %s: %d %s", logsPath, res.StatusCode, res.Body)
		}
		if res := api.Get("/v1/products", bearer(all)...); res.StatusCode != 200 {
			t.Errorf("a key with every scope on /v1/products: %d", res.StatusCode)
		}
		// The keys table shows each key's scopes.
		page := c.Get("/console/keys").Doc(t)
		var shown []string
		page.Find("[data-testid=key-scopes]").Each(func(_ int, s *goquery.Selection) { shown = append(shown, strings.TrimSpace(s.Text())) })
		if strings.Join(shown, "|") != "public logs scan gateway|logs" {
			t.Errorf("scopes shown %q", shown)
		}
		// No scope, or an unknown one, is refused with a message.
		for _, scopes := range [][]string{nil, {"admin"}} {
			res := c.Submit("/console/keys", "/console/keys", url.Values{"name": {"x"}, "scopes": scopes})
			if res.StatusCode != 422 || res.Doc(t).Find("[data-testid=form-error]").Length() != 1 {
				t.Errorf("scopes %q: status %d", scopes, res.StatusCode)
			}
		}
	})
}

// waitRefused polls until the key is refused on /v1/products (the
// verifier's cache may hold it for keys.CacheTTL after a direct database
// change) and returns that response.
func waitRefused(t *testing.T, api *apptest.Client, key string) *apptest.Response {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		res := api.Get("/v1/products", bearer(key)...)
		if res.StatusCode != 200 || time.Now().After(deadline) {
			return res
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestKeyExpiryAndRoll(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		c := signedInOwner(t, env)
		api := env.Client()
		week, weekID := consoleKey(t, c, url.Values{"name": {"week"}, "scopes": {"public"}, "expires": {"7"}})
		var k models.APIKey
		env.DB.Where("id = ?", weekID).Take(&k)
		if k.ExpiresAt == nil || time.Until(*k.ExpiresAt) < 6*24*time.Hour || time.Until(*k.ExpiresAt) > 7*24*time.Hour {
			t.Fatalf("a 7-day key expires at %v", k.ExpiresAt)
		}
		if res := api.Get("/v1/products", bearer(week)...); res.StatusCode != 200 {
			t.Fatalf("a fresh 7-day key: %d", res.StatusCode)
		}
		// A week later (moved into the past in the database) it is refused.
		env.DB.Model(&models.APIKey{}).Where("id = ?", weekID).Update("expires_at", time.Now().UTC().Add(-time.Minute))
		expectAPIError(t, waitRefused(t, api, week), 401, "invalid_api_key", "expired")

		// A date in the past is refused by the form.
		res := c.Submit("/console/keys", "/console/keys", url.Values{"name": {"old"}, "scopes": {"public"}, "expires": {"date"}, "expires_on": {"2020-01-01"}})
		if res.StatusCode != 422 {
			t.Errorf("an expiry in the past: %d", res.StatusCode)
		}

		// Roll with the default grace: both keys work, then the old one
		// stops when its grace period ends.
		old, oldID := consoleKey(t, c, url.Values{"name": {"deploy"}, "scopes": {"public", "logs"}})
		res = c.Submit("/console/keys", "/console/keys/"+oldID+"/roll", url.Values{"grace": {"24h"}})
		if res.StatusCode != 201 {
			t.Fatalf("roll: %d %s", res.StatusCode, res.Body)
		}
		next, _ := res.Doc(t).Find(`[data-testid=new-key-value]`).Attr("value")
		for _, key := range []string{old, next} {
			if res := api.Get("/v1/products", bearer(key)...); res.StatusCode != 200 {
				t.Errorf("during the grace period: %d", res.StatusCode)
			}
		}
		env.DB.Model(&models.APIKey{}).Where("id = ?", oldID).Update("expires_at", time.Now().UTC().Add(-time.Second))
		expectAPIError(t, waitRefused(t, api, old), 401, "invalid_api_key", "rolled")
		if res := api.Get("/v1/products", bearer(next)...); res.StatusCode != 200 {
			t.Errorf("the replacement after the grace period: %d", res.StatusCode)
		}
		var rolled, fresh models.APIKey
		env.DB.Where("id = ?", oldID).Take(&rolled)
		env.DB.Where("name = ? AND rolled_at IS NULL", "deploy").Take(&fresh)
		if fresh.Scopes != "public logs" || rolled.RolledAt == nil {
			t.Errorf("after the roll: old %+v, new %+v", rolled, fresh)
		}
		// With no grace, the old key stops at once.
		old2, old2ID := consoleKey(t, c, url.Values{"name": {"cron"}, "scopes": {"public"}})
		c.Submit("/console/keys", "/console/keys/"+old2ID+"/roll", url.Values{"grace": {"0s"}})
		expectAPIError(t, api.Get("/v1/products", bearer(old2)...), 401, "invalid_api_key", "rolled")

		var events []models.AuditEvent
		env.DB.Where("action = ?", models.ActionKeyRoll).Find(&events)
		if len(events) != 2 {
			t.Errorf("%d key.roll events, want 2", len(events))
		}
	})
}

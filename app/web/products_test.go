package web_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"parapet/app/apptest"
	"parapet/models"
)

func TestStaffProductsPage(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "staff@example.com")
		c := env.Client()
		if res := c.SignIn(s.Email, apptest.TestPassword); res.StatusCode != 303 {
			t.Fatal(res.StatusCode)
		}
		if res := c.Get("/console/products"); res.StatusCode != 404 {
			t.Fatalf("a non-staff user sees the products page: %d", res.StatusCode)
		}
		if err := models.SetStaff(context.Background(), env.DB.DB, s.UserID, true); err != nil {
			t.Fatal(err)
		}
		// Staff pages take a second factor: a staff account without one is
		// sent to set it up, for the pages and their forms alike.
		for _, res := range []*apptest.Response{c.Get("/console/products"),
			c.Submit("/console/account", "/console/products", url.Values{"slug": {"x"}})} {
			if res.StatusCode != 303 || res.Header.Get("Location") != "/console/account/2fa?required=staff" {
				t.Fatalf("staff without two-factor sign-in: %d to %q", res.StatusCode, res.Header.Get("Location"))
			}
		}
		if n := c.Get("/console/account/2fa?required=staff").Doc(t).Find("[data-testid=totp-required-staff]").Length(); n != 1 {
			t.Error("the enrolment page does not say why")
		}
		enrolTOTP(t, c)
		page := c.Get("/console/products")
		if page.StatusCode != 200 || page.Doc(t).Find("[data-testid=product]").Length() < 5 {
			t.Fatalf("staff products page: %d", page.StatusCode)
		}
		form := url.Values{"slug": {"threat-feed"}, "name": {"Threat Feed"}, "tagline": {"Indicators, fresh."}, "description": {"A feed."},
			"category": {"security"}, "platform_pillar": {"security"}, "lifecycle": {"alpha"}, "url": {"/threat-feed"}}
		if res := c.Submit("/console/products", "/console/products", form); res.StatusCode != 303 {
			t.Fatalf("create: %d %s", res.StatusCode, res.Body)
		}
		api := env.Client()
		if res := api.Get("/v1/products/threat-feed", "Authorization", "Bearer "+s.Key); res.StatusCode != 404 {
			t.Errorf("an alpha product is public: %d", res.StatusCode)
		}
		api.Get("/v1/products", "Authorization", "Bearer "+s.Key) // warm the cache
		form.Set("lifecycle", "beta")
		if res := c.Submit("/console/products", "/console/products/threat-feed", form); res.StatusCode != 303 {
			t.Fatalf("advance: %d %s", res.StatusCode, res.Body)
		}
		// Changes show in the API at once, cache or not.
		if res := api.Get("/v1/products", "Authorization", "Bearer "+s.Key); !strings.Contains(res.Body, `"slug":"threat-feed"`) {
			t.Errorf("the promoted product is not in the list at once: %s", res.Body)
		}
		form.Set("lifecycle", "concept")
		res := c.Submit("/console/products", "/console/products/threat-feed", form)
		if res.StatusCode != 422 || !strings.Contains(res.Doc(t).Find("[data-testid=form-error]").Text(), "only moves forward") {
			t.Errorf("moving back: %d", res.StatusCode)
		}
		form.Set("slug", "Bad Slug")
		if res := c.Submit("/console/products", "/console/products", form); res.StatusCode != 422 {
			t.Errorf("bad slug: %d", res.StatusCode)
		}
		var events []models.AuditEvent
		env.DB.Where("action IN ?", []string{models.ActionProductCreate, models.ActionProductUpdate}).Order("created_at").Find(&events)
		if len(events) != 2 || events[1].Target != "threat-feed: lifecycle alpha → beta" || events[0].ActorUserID == nil {
			t.Errorf("audit events %+v", events)
		}
		if res := c.Submit("/console/products", "/console/products/nope", form); res.StatusCode != 404 {
			t.Errorf("unknown product: %d", res.StatusCode)
		}
	})
}

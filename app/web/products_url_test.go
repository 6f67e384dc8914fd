package web_test

import (
	"net/url"
	"strings"
	"testing"

	"parapet/app/apptest"
	"parapet/models"
)

// A staff product's URL is an http(s) address or a path on this site:
// javascript:, data:, protocol-relative and malformed URLs are refused
// with a clear message, on create and on update, and nothing is stored.
func TestProductURLValidation(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "staff-url@example.com")
		c := env.Client()
		c.SignIn(s.Email, apptest.TestPassword)
		// Staff pages take a second factor: marked as set up once signed in.
		env.DB.Model(&models.User{}).Where("id = ?", s.UserID).Updates(map[string]any{"is_staff": true, "totp_enabled_at": models.Now()})
		form := func(slug, u string) url.Values {
			return url.Values{"slug": {slug}, "name": {"Evil"}, "tagline": {"t"}, "description": {"d"},
				"category": {"security"}, "platform_pillar": {"security"}, "lifecycle": {"concept"}, "url": {u}}
		}
		for _, bad := range []string{"javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "data:text/html,<b>x</b>",
			"//evil.example", "/\\evil.example", "https://", "ftp://example.com", "https://exa mple.com", "https://user:pw@example.com", "java\tscript:x"} {
			res := c.Submit("/console/products", "/console/products", form("evil", bad))
			if res.StatusCode != 422 || !strings.Contains(res.Doc(t).Find("[data-testid=form-error]").Text(), "http:// or https://") {
				t.Errorf("create with url %q: %d, want 422 with a clear message", bad, res.StatusCode)
			}
			res = c.Submit("/console/products", "/console/products/gateway", form("gateway", bad))
			if res.StatusCode != 422 {
				t.Errorf("update with url %q: %d, want 422", bad, res.StatusCode)
			}
		}
		var n int64
		env.DB.Model(&models.Product{}).Where("slug = ? OR url LIKE ?", "evil", "%script%").Count(&n)
		if n != 0 {
			t.Errorf("%d products stored with a refused URL", n)
		}
		for i, good := range []string{"https://example.com/tool", "http://localhost:8080/x", "/tools/evil"} {
			if res := c.Submit("/console/products", "/console/products", form("good-"+string(rune('a'+i)), good)); res.StatusCode != 303 {
				t.Errorf("create with url %q: %d, want 303", good, res.StatusCode)
			}
		}
	})
}

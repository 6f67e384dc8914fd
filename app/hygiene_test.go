package app_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"parapet/app/apptest"
	"parapet/models"
)

// HEAD works wherever GET does: same status and headers, no body.
func TestHeadWhereverGet(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "head@example.com")
	c := env.Client()
	c.SignIn(s.Email, apptest.TestPassword)
	for _, path := range []string{"/", "/docs", "/openapi.json", "/v1/health", "/static/css/app.css", "/console", "/console/keys", "/logs/app", "/nope"} {
		get := c.Get(path)
		head := c.Do(http.MethodHead, path, "")
		if head.StatusCode != get.StatusCode || head.Body != "" || head.Header.Get("Content-Type") != get.Header.Get("Content-Type") {
			t.Errorf("HEAD %s: %d %q with %d body bytes; GET: %d %q", path, head.StatusCode, head.Header.Get("Content-Type"), len(head.Body),
				get.StatusCode, get.Header.Get("Content-Type"))
		}
	}
	if res := c.Do(http.MethodHead, "/v1/products", "", "Authorization", "Bearer "+s.Key); res.StatusCode != 200 || res.Body != "" {
		t.Errorf("HEAD /v1/products with a key: %d", res.StatusCode)
	}
	if logs := env.Logs.String(); !strings.Contains(logs, "method=HEAD path=/v1/products") {
		t.Errorf("the log does not show the HEAD as a HEAD:\n%s", logs)
	}
}

// Every page of a signed-in browser, and the response that shows a new
// key, is Cache-Control: no-store.
func TestNoStoreWhenSignedIn(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := env.Client()
	c.SignUp("cache@example.com")
	c.CreateOrg("Cache Org")
	for _, path := range []string{"/", "/docs", "/console", "/console/keys", "/console/account", "/console/audit", "/console/usage", "/logs/app", "/scan/app", "/gateway/app"} {
		res := c.Get(path)
		if cc := res.Header.Get("Cache-Control"); !strings.Contains(cc, "no-store") {
			t.Errorf("GET %s signed in: Cache-Control %q, want no-store", path, cc)
		}
	}
	res := c.Submit("/console/keys", "/console/keys", url.Values{"name": {"shown once"}, "scopes": {"public"}})
	if res.StatusCode != 201 || !strings.Contains(res.Header.Get("Cache-Control"), "no-store") {
		t.Errorf("the page showing a new key: %d, Cache-Control %q", res.StatusCode, res.Header.Get("Cache-Control"))
	}
	// The tools' reports quote the user's logs and describe their
	// infrastructure.
	for _, post := range []struct{ page, field, text string }{
		{"/logs/app", "log", "ERROR disk full\nINFO ok\n"},
		{"/logs/app/compare", "current", "ERROR disk full\n"},
		{"/scan/app", "resources", `{"resources":[]}`},
	} {
		v := url.Values{post.field: {post.text}}
		if post.page == "/logs/app/compare" {
			v.Set("baseline", "INFO ok\n")
		}
		res := c.Submit(post.page, post.page, v)
		if cc := res.Header.Get("Cache-Control"); res.StatusCode != 200 || !strings.Contains(cc, "no-store") {
			t.Errorf("POST %s: %d, Cache-Control %q, want 200 and no-store", post.page, res.StatusCode, cc)
		}
	}
}

// With an https PUBLIC_URL, plain HTTP is redirected there (308) and HTTPS
// responses carry HSTS; X-Forwarded-Proto counts only with TRUST_PROXY.
func TestHTTPSRedirectAndHSTS(t *testing.T) {
	for _, trust := range []bool{true, false} {
		opts := []apptest.Option{apptest.WithEnv("PUBLIC_URL", "https://parapet.example")}
		if trust {
			opts = append(opts, apptest.WithEnv("TRUST_PROXY", "true"))
		}
		env := apptest.New(t, apptest.Databases(t)[0], opts...)
		c := env.Client()
		res := c.Get("/docs?x=1")
		if res.StatusCode != 308 || res.Header.Get("Location") != "https://parapet.example/docs?x=1" {
			t.Errorf("trust=%v, plain http: %d to %q, want 308 to https://parapet.example/docs?x=1", trust, res.StatusCode, res.Header.Get("Location"))
		}
		res = c.Get("/docs", "X-Forwarded-Proto", "https")
		if trust && (res.StatusCode != 200 || !strings.Contains(res.Header.Get("Strict-Transport-Security"), "max-age=")) {
			t.Errorf("https through a trusted proxy: %d, HSTS %q", res.StatusCode, res.Header.Get("Strict-Transport-Security"))
		}
		if !trust && res.StatusCode != 308 {
			t.Errorf("X-Forwarded-Proto from an untrusted client: %d, want 308", res.StatusCode)
		}
		if res := c.Get("/v1/health"); res.StatusCode != 200 {
			t.Errorf("health over plain http: %d", res.StatusCode)
		}
	}
}

// A visitor's pages are no-store too: each carries a CSRF token made from
// the visitor's own cookie (which the sign-in page sets), and the
// invitation page shows the invited address and the organization. A
// shared cache that kept one would hand every visitor the same seed and
// token, or a stranger's invitation.
func TestNoStoreForVisitors(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "owner@example.com")
	inv, token, err := models.CreateInvitation(context.Background(), env.DB.DB, s.OrgID, "guest@example.com", models.RoleMember, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/", "/docs", "/console/signin", "/console/signup", models.InvitationPath(inv.OrgID, token), "/nope"} {
		res := env.Client().Get(path)
		if cc := res.Header.Get("Cache-Control"); !strings.Contains(cc, "no-store") {
			t.Errorf("GET %s as a visitor: %d, Cache-Control %q, want no-store", path, res.StatusCode, cc)
		}
	}
}

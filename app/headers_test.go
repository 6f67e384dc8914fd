package app_test

import (
	"strings"

	"github.com/PuerkitoBio/goquery"
	"testing"

	"parapet/app/apptest"
	"parapet/static"
)

func TestSecurityHeaders(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := env.Client()
	for _, path := range []string{"/", "/v1/health", "/v1/nope", "/no/such/page"} {
		res := c.Get(path)
		h := res.Header
		csp := h.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'self'", "script-src 'self'", "frame-ancestors 'none'", "object-src 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %q", path, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
			t.Errorf("%s: CSP allows unsafe code: %q", path, csp)
		}
		for name, want := range map[string]string{
			"X-Content-Type-Options": "nosniff",
			"X-Frame-Options":        "DENY",
			"Referrer-Policy":        "strict-origin-when-cross-origin",
		} {
			if got := h.Get(name); got != want {
				t.Errorf("%s: %s = %q, want %q", path, name, got, want)
			}
		}
		if h.Get("Strict-Transport-Security") != "" {
			t.Errorf("%s: HSTS sent over plain HTTP", path)
		}
	}
	// A forwarded https is believed only from a trusted proxy.
	if c.Get("/", "X-Forwarded-Proto", "https").Header.Get("Strict-Transport-Security") != "" {
		t.Error("HSTS sent because of an untrusted X-Forwarded-Proto")
	}
	proxied := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("TRUST_PROXY", "true"))
	if h := proxied.Client().Get("/", "X-Forwarded-Proto", "https").Header.Get("Strict-Transport-Security"); !strings.Contains(h, "max-age=") {
		t.Errorf("behind a trusted proxy over https, HSTS = %q", h)
	}
}

func TestStaticAssetsAreCachedByVersion(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := env.Client()
	versioned := static.Path("css/app.css")
	res := c.Get(versioned)
	if res.StatusCode != 200 || !strings.Contains(res.Header.Get("Content-Type"), "text/css") {
		t.Fatalf("%s: status %d, type %q", versioned, res.StatusCode, res.Header.Get("Content-Type"))
	}
	if cc := res.Header.Get("Cache-Control"); !strings.Contains(cc, "immutable") || !strings.Contains(cc, "max-age=31536000") {
		t.Errorf("versioned asset Cache-Control = %q, want a year, immutable", cc)
	}
	if cc := c.Get("/static/css/app.css?v=old").Header.Get("Cache-Control"); cc != "no-cache" {
		t.Errorf("stale version Cache-Control = %q, want no-cache", cc)
	}
	if res := c.Get("/static/../go.mod"); res.StatusCode != 404 {
		t.Errorf("path traversal under /static answered %d", res.StatusCode)
	}
	if res := c.Get("/static/nope.js"); res.StatusCode != 404 {
		t.Errorf("unknown asset answered %d", res.StatusCode)
	}
	// The page links only versioned assets, and htmx is a 2.x build.
	home := c.Get("/").Doc(t)
	home.Find("script[src], link[rel=stylesheet]").Each(func(_ int, s *goquery.Selection) {
		src := s.AttrOr("src", s.AttrOr("href", ""))
		if !strings.Contains(src, "?v=") {
			t.Errorf("unversioned asset %q", src)
		}
	})
	if !strings.Contains(c.Get(static.Path("vendor/htmx-2.0.11.min.js")).Body, `version:"2.0.11"`) {
		t.Error("the vendored htmx is not 2.0.11")
	}
}

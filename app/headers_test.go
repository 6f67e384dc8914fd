package app_test

import (
	"maps"
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"parapet/app/apptest"
	"parapet/static"
)

func TestSecurityHeaders(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := env.Client()
	common := map[string]string{"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY"}
	// Pages, their error pages and assets: a strict CSP and the document
	// policies.
	for _, path := range []string{"/", "/docs", "/console/signin", "/no/such/page", static.Path("css/app.css")} {
		h := c.Get(path).Header
		csp := h.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'self'", "script-src 'self'", "frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %q", path, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
			t.Errorf("%s: CSP allows unsafe code: %q", path, csp)
		}
		want := map[string]string{"Referrer-Policy": "strict-origin-when-cross-origin", "Cross-Origin-Opener-Policy": "same-origin"}
		maps.Copy(want, common)
		expectHeaders(t, path, h, want)
	}
	// JSON answers, errors included, in every API area: a CSP that loads
	// nothing, never framed or sniffed.
	for _, path := range []string{"/v1/health", "/v1/products", "/v1/nope", "/logs/v1/analyze", "/gateway/v1/models", "/openapi.json", "/readyz"} {
		h := c.Get(path).Header
		want := map[string]string{"Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'"}
		maps.Copy(want, common)
		expectHeaders(t, path, h, want)
	}
	for _, path := range []string{"/", "/v1/health"} {
		if c.Get(path).Header.Get("Strict-Transport-Security") != "" {
			t.Errorf("%s: HSTS sent over plain HTTP", path)
		}
		// A forwarded https is believed only from a trusted proxy.
		if c.Get(path, "X-Forwarded-Proto", "https").Header.Get("Strict-Transport-Security") != "" {
			t.Errorf("%s: HSTS sent because of an untrusted X-Forwarded-Proto", path)
		}
	}
	proxied := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("TRUST_PROXY", "true"))
	for _, path := range []string{"/", "/v1/health"} {
		if h := proxied.Client().Get(path, "X-Forwarded-Proto", "https").Header.Get("Strict-Transport-Security"); !strings.Contains(h, "max-age=") {
			t.Errorf("%s behind a trusted proxy over https: HSTS = %q", path, h)
		}
	}
}

func expectHeaders(t *testing.T, path string, h http.Header, want map[string]string) {
	t.Helper()
	for name, v := range want {
		if got := h.Get(name); got != v {
			t.Errorf("%s: %s = %q, want %q", path, name, got, v)
		}
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
	// An unknown asset is the site's own not-found page, as anywhere.
	if res := c.Get("/static/nope.js"); res.StatusCode != 404 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") ||
		!strings.Contains(res.Body, "Page not found") {
		t.Errorf("unknown asset answered %d %q", res.StatusCode, res.Header.Get("Content-Type"))
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

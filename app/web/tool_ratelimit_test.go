package web_test

import (
	"testing"

	"parapet/app/apptest"
)

// Each user's runs of the tools' pages are limited per minute, the two
// tools sharing one budget; each key's calls of the tools' APIs too. Past
// the limit: 429 with Retry-After and the rate-limit headers.
func TestToolRateLimits(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("TOOLS_RATE_LIMIT_PER_MINUTE", "3"),
		apptest.WithEnv("RATE_LIMIT_PER_MINUTE", "3"))
	s := env.Seed(t, "busy@example.com")
	c := env.Client()
	c.SignIn(s.Email, apptest.TestPassword)
	token := c.CSRF("/scan/app")
	run := func(path, field string) *apptest.Response {
		return c.Do("POST", path, field+"=%7B%22resources%22%3A%5B%5D%7D", "Content-Type", "application/x-www-form-urlencoded",
			"HX-Request", "true", "X-CSRF-Token", token)
	}
	for i, path := range []string{"/scan/app", "/logs/app", "/scan/app"} {
		field := "resources"
		if path == "/logs/app" {
			field = "log"
		}
		if res := run(path, field); res.StatusCode == 429 || res.Header.Get("X-RateLimit-Limit") != "3" {
			t.Fatalf("run %d on %s: %d, limit header %q", i+1, path, res.StatusCode, res.Header.Get("X-RateLimit-Limit"))
		}
	}
	res := run("/logs/app", "log")
	if res.StatusCode != 429 || res.Header.Get("Retry-After") == "" {
		t.Errorf("4th run in a minute: %d (Retry-After %q), want 429", res.StatusCode, res.Header.Get("Retry-After"))
	}
	// Another user has their own budget.
	other := env.Seed(t, "calm@example.com")
	c2 := env.Client()
	c2.SignIn(other.Email, apptest.TestPassword)
	if res := c2.Do("POST", "/scan/app", "resources=%7B%7D", "Content-Type", "application/x-www-form-urlencoded", "HX-Request", "true",
		"X-CSRF-Token", c2.CSRF("/scan/app")); res.StatusCode == 429 {
		t.Errorf("another user is limited by the first one's runs")
	}
	// The API: per key.
	for i := range 4 {
		res := c.PostJSON("/scan/v1/scan", `{"resources":[]}`, "Authorization", "Bearer "+s.Key)
		if want := 200; i == 3 {
			if res.StatusCode != 429 || res.Header.Get("Retry-After") == "" {
				t.Errorf("4th API call: %d, want 429 with Retry-After", res.StatusCode)
			}
		} else if res.StatusCode != want {
			t.Errorf("API call %d: %d", i+1, res.StatusCode)
		}
	}
}

package app_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"parapet/app"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestConfigDefaults(t *testing.T) {
	cfg, warnings, err := app.LoadConfig(envOf(nil))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Port != "8080" || cfg.DatabaseURL != "sqlite:./data/parapet.db" || cfg.Env != "development" || cfg.TrustProxy {
		t.Errorf("defaults: %+v", cfg)
	}
	if len(cfg.SessionSecret) < 32 {
		t.Error("development did not generate a session secret")
	}
	if len(warnings) == 0 || !strings.Contains(strings.Join(warnings, "\n"), "SESSION_SECRET") {
		t.Errorf("no warning about the generated secret: %v", warnings)
	}
	if cfg.RateLimitPerMinute != 60 || cfg.ShutdownTimeout != 25*time.Second || !cfg.DemoUpstream() {
		t.Errorf("defaults: %+v", cfg)
	}
	other, _, _ := app.LoadConfig(envOf(nil))
	if string(other.SessionSecret) == string(cfg.SessionSecret) {
		t.Error("generated secrets repeat")
	}
}

// PUBLIC_URL is kept as the origin a browser sends in Origin: lower-case
// host, no trailing slash (the CSRF check compares the two as strings).
func TestPublicURLIsAnOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"https://Parapet.Example.com/": "https://parapet.example.com",
		"http://localhost:8080":        "http://localhost:8080",
	} {
		cfg, _, err := app.LoadConfig(envOf(map[string]string{"PUBLIC_URL": in}))
		if err != nil || cfg.PublicURL != want {
			t.Errorf("PUBLIC_URL %q: %q (err %v), want %q", in, cfg.PublicURL, err, want)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	prod := map[string]string{
		"PARAPET_ENV":          "production",
		"DATABASE_URL":         "postgres://db/parapet",
		"SESSION_SECRET":       strings.Repeat("s", 40),
		"GATEWAY_UPSTREAM_URL": "https://llm.example",
		"GATEWAY_UPSTREAM_KEY": "k",
		"PUBLIC_URL":           "https://parapet.example.com",
	}
	if _, _, err := app.LoadConfig(envOf(prod)); err != nil {
		t.Fatalf("a complete production config failed: %v", err)
	}
	cases := []struct {
		name   string
		change map[string]string
		want   string
	}{
		{"production without public URL", map[string]string{"PUBLIC_URL": ""}, "PUBLIC_URL must be set in production"},
		{"production without secret", map[string]string{"SESSION_SECRET": ""}, "SESSION_SECRET must be set in production"},
		{"short secret", map[string]string{"SESSION_SECRET": "short"}, "SESSION_SECRET: must be at least 32 characters"},
		{"production without database", map[string]string{"DATABASE_URL": ""}, "DATABASE_URL must be set in production"},
		{"production without upstream", map[string]string{"GATEWAY_UPSTREAM_URL": ""}, "GATEWAY_UPSTREAM_URL must be set in production"},
		{"production without upstream key", map[string]string{"GATEWAY_UPSTREAM_KEY": ""}, "GATEWAY_UPSTREAM_KEY must be set in production"},
		{"bad env", map[string]string{"PARAPET_ENV": "staging"}, `PARAPET_ENV: must be "development" or "production"`},
		{"bad port", map[string]string{"PORT": "http"}, "PORT: must be a port number"},
		{"bad bool", map[string]string{"TRUST_PROXY": "yes please"}, "TRUST_PROXY: must be true or false"},
		{"bad duration", map[string]string{"SHUTDOWN_TIMEOUT": "10"}, "SHUTDOWN_TIMEOUT: must be a positive duration"},
		{"bad limit", map[string]string{"RATE_LIMIT_PER_MINUTE": "0"}, "RATE_LIMIT_PER_MINUTE: must be an integer between 1"},
		{"bad style", map[string]string{"GATEWAY_UPSTREAM_STYLE": "grpc"}, "GATEWAY_UPSTREAM_STYLE"},
		{"bad public URL", map[string]string{"PUBLIC_URL": "parapet.example.com"}, "PUBLIC_URL: must be an http(s) origin"},
		{"public URL with a path", map[string]string{"PUBLIC_URL": "https://parapet.example.com/app"}, "PUBLIC_URL: must be an http(s) origin"},
		{"public URL with credentials", map[string]string{"PUBLIC_URL": "https://me:pw@parapet.example.com"}, "PUBLIC_URL: must be an http(s) origin"},
		{"max tokens over the cap", map[string]string{"GATEWAY_MAX_TOKENS": "9000"}, "must not exceed GATEWAY_MAX_TOKENS_CAP"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{}
			for k, v := range prod {
				env[k] = v
			}
			for k, v := range tc.change {
				env[k] = v
			}
			_, _, err := app.LoadConfig(envOf(env))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("the error is not one line: %q", err)
			}
		})
	}
}

// The configuration page's table is the settings table: a variable added,
// removed or redocumented in one place only fails here.
func TestDocsConfigTableMatchesSettings(t *testing.T) {
	readme, err := os.ReadFile("../views/docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	want := app.ConfigTable()
	if !strings.Contains(string(readme), want) {
		t.Errorf("views/docs/configuration.md's table differs from app/settings.go: paste the output of `parapet config --markdown`:\n%s", want)
	}
}

func TestConfigEffective(t *testing.T) {
	cfg, _, err := app.LoadConfig(envOf(map[string]string{
		"PORT":                 " 9090 ",
		"DATABASE_URL":         "postgres://app:hunter2@db/parapet",
		"SESSION_SECRET":       strings.Repeat("s", 40),
		"GATEWAY_UPSTREAM_URL": "https://llm.example/",
	}))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]app.Effective{}
	for _, e := range cfg.Effective() {
		got[e.Name] = e
	}
	for name, want := range map[string]string{
		"PORT":                 "9090 environment",
		"REQUEST_TIMEOUT":      "30s default",
		"DATABASE_URL":         "postgres://app:xxxxx@db/parapet environment",
		"SESSION_SECRET":       "(set, hidden) environment",
		"GATEWAY_MODEL":        "claude-sonnet-4-5 default",
		"GATEWAY_UPSTREAM_URL": "https://llm.example/ environment",
	} {
		if e := got[name]; e.Shown()+" "+e.Source != want {
			t.Errorf("%s shown as %q, want %q", name, e.Shown()+" "+e.Source, want)
		}
	}
	if cfg.Port != "9090" || cfg.Gateway.UpstreamURL != "https://llm.example" {
		t.Errorf("parsed %q %q", cfg.Port, cfg.Gateway.UpstreamURL)
	}
}

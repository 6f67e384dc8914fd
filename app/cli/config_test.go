package cli_test

import (
	"bytes"
	"strings"
	"testing"

	"parapet/app"
	"parapet/app/cli"
)

// `parapet config` shows every setting with the value in use and its
// source, and never a secret or a URL's password.
func TestConfigCommand(t *testing.T) {
	env := map[string]string{
		"DATABASE_URL":          "postgres://app:hunter2@db.internal/parapet",
		"SESSION_SECRET":        "do-not-print-this-secret-0123456789",
		"GATEWAY_UPSTREAM_KEY":  "sk-upstream-do-not-print",
		"METRICS_TOKEN":         "metrics-do-not-print",
		"RATE_LIMIT_PER_MINUTE": "120",
	}
	var out, errs bytes.Buffer
	code := cli.Run([]string{"config"}, strings.NewReader(""), &out, &errs, func(k string) string { return env[k] })
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	lines := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		f := strings.Fields(l)
		lines[f[0]] = strings.Join(f[1:], " ")
	}
	for name, want := range map[string]string{
		"RATE_LIMIT_PER_MINUTE": "120 environment",
		"REQUEST_TIMEOUT":       "30s default",
		"PORT":                  "8080 default",
		"DATABASE_URL":          "postgres://app:xxxxx@db.internal/parapet environment",
		"SESSION_SECRET":        "(set, hidden) environment",
		"METRICS_TOKEN":         "(set, hidden) environment",
		"REDIS_URL":             "(unset) default",
	} {
		if lines[name] != want {
			t.Errorf("%s: %q, want %q", name, lines[name], want)
		}
	}
	for _, secret := range []string{"hunter2", "do-not-print"} {
		if strings.Contains(out.String(), secret) {
			t.Errorf("the output shows a secret %q:\n%s", secret, out.String())
		}
	}
	if len(lines) != strings.Count(app.ConfigTable(), "\n")-2 {
		t.Errorf("%d settings printed, the table has %d rows", len(lines), strings.Count(app.ConfigTable(), "\n")-2)
	}

	out.Reset()
	if code := cli.Run([]string{"config", "--markdown"}, nil, &out, &errs, func(string) string { return "" }); code != 0 || out.String() != app.ConfigTable() {
		t.Errorf("--markdown: exit %d, output %q", code, out.String())
	}
	env["PORT"] = "http"
	if code := cli.Run([]string{"config"}, nil, &out, &errs, func(k string) string { return env[k] }); code != 1 || !strings.Contains(errs.String(), "PORT: must be a port number") {
		t.Errorf("a bad setting: exit %d, stderr %q", code, errs.String())
	}
}

package app_test

import (
	"encoding/json"
	"regexp"
	"testing"
	"time"

	"parapet/app/apptest"
)

func TestHealth(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	before := time.Now().UTC().Truncate(time.Millisecond)
	res := env.Client().Get("/v1/health")
	after := time.Now().UTC()
	if res.StatusCode != 200 {
		t.Fatalf("status %d: %s", res.StatusCode, res.Body)
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(res.Body), &body); err != nil {
		t.Fatal(err)
	}
	if len(body) != 2 || body["status"] != "ok" {
		t.Fatalf("body %s, want exactly status and time", res.Body)
	}
	ts, _ := body["time"].(string)
	// Exactly three fractional digits and Z, even when they are zeros.
	if !regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$`).MatchString(ts) {
		t.Fatalf("time %q is not ISO 8601 UTC with milliseconds", ts)
	}
	got, err := time.Parse(time.RFC3339, ts)
	if err != nil || got.Before(before) || got.After(after) {
		t.Errorf("time %s is not the server's current time (between %s and %s)", ts, before, after)
	}
}

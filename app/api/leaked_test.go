package api_test

import (
	"fmt"
	"strings"
	"testing"

	"parapet/app/api"
	"parapet/app/apptest"
	"parapet/app/keys"
	"parapet/models"
)

func TestLeakReports(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		owner := signedInOwner(t, env)
		real, realID := owner.CreateKey("published")
		revoked, revokedID := owner.CreateKey("old")
		owner.Submit("/console/keys", "/console/keys/"+revokedID+"/revoke", nil)
		fake, _, _ := keys.Generate() // well formed, checksum valid, never stored
		malformed := real[:len(real)-1] + "!"

		api := env.Client()
		if res := api.Get("/v1/products", bearer(real)...); res.StatusCode != 200 {
			t.Fatalf("the key works before the report: %d", res.StatusCode)
		}
		// The answer is the same for every kind of key: no oracle.
		var first *apptest.Response
		for _, k := range []string{fake, real, revoked, malformed} {
			res := api.ReportLeak(k)
			if res.StatusCode != 202 || res.Header.Get("X-Request-Id") == "" {
				t.Errorf("report: %d %s", res.StatusCode, res.Body)
			}
			if first == nil {
				first = res
			} else if res.StatusCode != first.StatusCode || res.Body != first.Body {
				t.Errorf("the answer differs between keys: %d %q vs %d %q", res.StatusCode, res.Body, first.StatusCode, first.Body)
			}
		}
		// The reported key is refused on the very next request.
		expectAPIError(t, api.Get("/v1/products", bearer(real)...), 401, "invalid_api_key", "revoked")

		var k models.APIKey
		env.DB.Where("id = ?", realID).Take(&k)
		if k.Active() || k.LeakedAt == nil {
			t.Errorf("the reported key: %+v", k)
		}
		var events []models.AuditEvent
		env.DB.Where("action = ?", models.ActionKeyLeaked).Find(&events)
		if len(events) != 1 || !strings.Contains(events[0].Target, "published") {
			t.Errorf("key.leaked events %+v", events)
		}
		// The owner sees a banner naming the key.
		for _, page := range []string{"/console", "/console/keys"} {
			banner := owner.Get(page).Doc(t).Find("[data-testid=leak-banner]")
			if banner.Length() != 1 || !strings.Contains(banner.Text(), "published") {
				t.Errorf("no leak banner for the owner on %s", page)
			}
		}
	})
}

func TestLeakReportLimits(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := env.Client()
	many := make([]string, 101)
	for i := range many {
		many[i], _, _ = keys.Generate()
	}
	expectAPIError(t, c.ReportLeak(many...), 400, "invalid_request", "at most 100 keys")
	expectAPIError(t, c.PostJSON("/keys/v1/leaked", `{"keys":["`+strings.Repeat("a", 20<<10)+`"]}`), 413, "payload_too_large", "16 KiB")
	// The limit holds before the JSON check reads the body: an anonymous
	// caller cannot make us read (and parse) a megabyte to refuse it.
	expectAPIError(t, c.PostJSON("/keys/v1/leaked", `{"keys":[],"keys":[]`+strings.Repeat(" ", 20<<10)+`}`), 413, "payload_too_large", "16 KiB")
	expectAPIError(t, c.PostJSON("/keys/v1/leaked", `{}`), 400, "invalid_request", `"keys"`)
	expectAPIError(t, c.Do("POST", "/keys/v1/leaked", `keys=x`, "Content-Type", "application/x-www-form-urlencoded"), 415, "unsupported_media_type", "JSON")
	// Ten calls a minute per address: the eleventh (counting those above,
	// which are calls too) is refused.
	var last *apptest.Response
	for i := 0; i < 5; i++ {
		last = c.ReportLeak(many[0])
	}
	if last.StatusCode != 202 {
		t.Fatalf("the tenth call: %d", last.StatusCode)
	}
	res := c.ReportLeak(many[0])
	expectAPIError(t, res, 429, "rate_limited", "at most 10 requests per minute")
	if res.Header.Get("Retry-After") == "" || res.Header.Get("X-RateLimit-Limit") != "10" {
		t.Errorf("429 headers %v", res.Header)
	}
}

// The per-address budget counts an IPv6 client by its /64: a caller that
// sends each report from another address of its own network is refused
// all the same, while another network keeps its budget.
func TestLeakReportLimitCountsIPv6Networks(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("TRUST_PROXY", "true"))
	c := env.Client()
	report := func(from string) *apptest.Response {
		return c.Do("POST", "/keys/v1/leaked", `{"keys":[]}`, "Content-Type", "application/json", "X-Forwarded-For", from)
	}
	for i := range api.LeakReportsPerMinute {
		if res := report(fmt.Sprintf("2001:db8:7:7::%x", i+1)); res.StatusCode != 202 {
			t.Fatalf("report %d: %d", i+1, res.StatusCode)
		}
	}
	expectAPIError(t, report("2001:db8:7:7:abcd::1"), 429, "rate_limited", "at most 10 requests per minute")
	if res := report("2001:db8:7:8::1"); res.StatusCode != 202 {
		t.Errorf("another /64: %d, want 202", res.StatusCode)
	}
}

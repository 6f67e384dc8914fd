package app_test

import (
	"net/url"
	"strings"
	"testing"

	"parapet/app/apptest"
	"parapet/models"
)

// tableCounts is what hostile requests must leave unchanged.
func tableCounts(t *testing.T, env *apptest.Env) map[string]int64 {
	counts := map[string]int64{}
	for _, table := range []string{"users", "organizations", "memberships", "api_keys", "products", "entitlements"} {
		var n int64
		if err := env.DB.Table(table).Count(&n).Error; err != nil {
			t.Fatal(err)
		}
		counts[table] = n
	}
	return counts
}

// Every JSON endpoint and browser form meets hostile input with its
// documented 4xx, changes nothing, and never reflects input unescaped.
func TestHostileInput(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "target@example.com")
		auth := []string{"Authorization", "Bearer " + s.Key}
		script := `<script>alert("pwn")</script>`
		sqli := `' OR 1=1; DROP TABLE api_keys; --`
		deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
		invalidUTF8 := "{\"messages\":[{\"role\":\"user\",\"content\":\"\xff\xfe\xfd\"}]}"
		big := func(n int) string { return `{"x":"` + strings.Repeat("a", n) + `"}` }
		type hostile struct {
			name, method, path, ctype, body string
			headers                         []string
			status                          int
			code                            string
		}
		json := "application/json"
		cases := []hostile{
			{"product slug: SQL injection", "GET", "/v1/products/" + url.PathEscape(sqli), "", "", auth, 404, "product_not_found"},
			{"product slug: script", "GET", "/v1/products/" + url.PathEscape(script), "", "", auth, 404, "product_not_found"},
			{"product slug: traversal", "GET", "/v1/products/..%2F..%2Fetc%2Fpasswd", "", "", auth, 404, ""},
			{"encoded slash in path", "GET", "/v1/products%2Fgateway", "", "", auth, 404, "not_found"},
			{"static traversal", "GET", "/static/..%2F..%2Fgo.mod", "", "", nil, 404, ""},
			{"bearer with script", "GET", "/v1/products", "", "", []string{"Authorization", "Bearer " + script}, 401, "invalid_api_key"},
			{"bearer with SQL", "GET", "/v1/products", "", "", []string{"Authorization", "Bearer " + sqli}, 401, "invalid_api_key"},
			{"huge header", "GET", "/v1/health", "", "", []string{"X-Junk", strings.Repeat("j", 100<<10)}, 431, ""},
			{"headers over 16 KiB", "GET", "/v1/health", "", "", []string{"X-Junk", strings.Repeat("j", 21<<10)}, 431, ""},
			{"headers under 16 KiB", "GET", "/v1/health", "", "", []string{"X-Junk", strings.Repeat("j", 15<<10)}, 200, ""},
			{"scan: wrong content type", "POST", "/scan/v1/scan", "text/plain", `{"resources":[]}`, auth, 415, "unsupported_media_type"},
			{"scan: malformed", "POST", "/scan/v1/scan", json, `{"resources":[`, auth, 400, "invalid_request"},
			{"scan: deeply nested", "POST", "/scan/v1/scan", json, deep, auth, 0, ""},
			{"scan: oversized", "POST", "/scan/v1/scan", json, big(5 << 20), auth, 413, "payload_too_large"},
			{"scan: script in names", "POST", "/scan/v1/scan", json, `{"resources":[{"type":"s3_bucket","name":"` + strings.ReplaceAll(script, `"`, `\"`) + `","public_read":"yes"}]}`, auth, 400, "invalid_request"},
			{"logs: wrong content type", "POST", "/logs/v1/analyze", "application/xml", "<log/>", auth, 415, "unsupported_media_type"},
			{"logs: malformed JSON", "POST", "/logs/v1/analyze", json, `{"text":`, auth, 400, "invalid_request"},
			{"logs: deeply nested", "POST", "/logs/v1/analyze", json, deep, auth, 400, "invalid_request"},
			{"logs: oversized", "POST", "/logs/v1/analyze", "text/plain", strings.Repeat("x", 10<<20+1), auth, 413, "payload_too_large"},
			{"logs: script and SQL lines", "POST", "/logs/v1/analyze", "text/plain", script + " ERROR\n" + sqli + " failed\n", auth, 200, ""},
			{"logs: invalid UTF-8", "POST", "/logs/v1/analyze", "text/plain", "\xff\xfe error here\n", auth, 200, ""},
			{"gateway: wrong content type", "POST", "/gateway/v1/chat", "application/x-www-form-urlencoded", "messages=hi", auth, 415, "unsupported_media_type"},
			{"gateway: malformed", "POST", "/gateway/v1/chat", json, `{"messages":`, auth, 400, "invalid_request"},
			{"gateway: deeply nested", "POST", "/gateway/v1/chat", json, deep, auth, 400, "invalid_request"},
			// Invalid UTF-8 in a JSON string is refused, not quietly replaced.
			{"gateway: invalid UTF-8", "POST", "/gateway/v1/chat", json, invalidUTF8, auth, 400, "invalid_request"},
			{"gateway: oversized", "POST", "/gateway/v1/chat", json, big(1 << 20), auth, 413, "payload_too_large"},
			{"gateway: unknown field with script", "POST", "/gateway/v1/chat", json, `{"` + strings.ReplaceAll(script, `"`, `'`) + `":1,"messages":[{"role":"user","content":"x"}]}`, auth, 400, "invalid_request"},
			{"gateway: forged org field", "POST", "/gateway/v1/chat", json, `{"org_id":"org_other","messages":[{"role":"user","content":"x"}]}`, auth, 400, "invalid_request"},
			{"messages: deeply nested", "POST", "/gateway/v1/messages", json, deep, []string{"X-Api-Key", s.Key}, 400, ""},
			{"sign-in form without token, SQL email", "POST", "/console/signin", "application/x-www-form-urlencoded", "email=" + url.QueryEscape(sqli) + "&password=x", nil, 403, ""},
			{"sign-up oversized form", "POST", "/console/signup", "application/x-www-form-urlencoded", "email=a%40b.co&password=" + strings.Repeat("p", 12<<20), nil, 0, ""},
		}
		before := tableCounts(t, env)
		c := env.Client()
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				headers := append([]string{}, tc.headers...)
				if tc.ctype != "" {
					headers = append(headers, "Content-Type", tc.ctype)
				}
				res := c.Do(tc.method, tc.path, tc.body, headers...)
				if tc.status != 0 && res.StatusCode != tc.status {
					t.Errorf("status %d, want %d: %.300s", res.StatusCode, tc.status, res.Body)
				}
				if tc.status == 0 && res.StatusCode >= 500 {
					t.Errorf("a 5xx for hostile input: %d %.300s", res.StatusCode, res.Body)
				}
				if tc.code != "" && !strings.Contains(res.Body, `"code":"`+tc.code+`"`) {
					t.Errorf("body %.300s, want code %s", res.Body, tc.code)
				}
				if strings.Contains(res.Body, script) || strings.Contains(res.Body, "<script>alert") {
					t.Errorf("the response reflects the script unescaped: %.300s", res.Body)
				}
			})
		}
		after := tableCounts(t, env)
		for table, n := range before {
			if after[table] != n {
				t.Errorf("table %s changed from %d to %d rows", table, n, after[table])
			}
		}
		// Hostile text that is stored is shown escaped.
		owner := env.Client()
		owner.SignIn(s.Email, apptest.TestPassword)
		owner.CreateOrg(script + sqli)
		page := owner.Get("/console/orgs")
		if strings.Contains(page.Body, script) || !strings.Contains(page.Body, "&lt;script&gt;") {
			t.Error("an organization name with a script is not escaped on the page")
		}
		var org models.Organization
		env.DB.Where("name = ?", script+sqli).Take(&org)
		if org.ID == "" || org.Slug == "" {
			t.Error("the name was not stored literally")
		}
	}, apptest.WithEnv("GATEWAY_DEMO_WORD_DELAY", "0s"))
}

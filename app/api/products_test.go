package api_test

import (
	"context"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/apptest"
	"parapet/app/keys"
	"parapet/models"
)

type apiError struct {
	Error struct {
		Code      string `json:"code"`
		Message   string `json:"message"`
		RequestID string `json:"request_id"`
	} `json:"error"`
}

func bearer(key string) []string { return []string{"Authorization", "Bearer " + key} }

func TestProductEnvelopes(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "api@example.com")
		c := env.Client()
		res := c.Get("/v1/products", bearer(s.Key)...)
		if res.StatusCode != 200 {
			t.Fatalf("status %d: %s", res.StatusCode, res.Body)
		}
		var list struct {
			Data []map[string]any `json:"data"`
		}
		res.JSON(t, &list)
		var slugs []string
		for _, p := range list.Data {
			slugs = append(slugs, p["slug"].(string))
			keys := make([]string, 0, len(p))
			for k := range p {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			want := []string{"category", "id", "lifecycle", "name", "platform_pillar", "slug", "tagline", "url"}
			if !reflect.DeepEqual(keys, want) {
				t.Errorf("list item keys %v, want %v (description absent)", keys, want)
			}
			if p["lifecycle"] != "beta" || p["id"] != "prod_"+p["slug"].(string) {
				t.Errorf("item %v", p)
			}
			if u, _ := p["url"].(string); !strings.HasPrefix(u, env.Server.URL+"/") {
				t.Errorf("url %q is not an absolute URL of this deployment", u)
			}
		}
		if !reflect.DeepEqual(slugs, []string{"config-scanner", "gateway", "log-analyzer"}) {
			t.Errorf("slugs %v: want the three beta products ordered by slug, no concept or alpha", slugs)
		}

		res = c.Get("/v1/products/gateway", bearer(s.Key)...)
		var one struct {
			Data map[string]any `json:"data"`
		}
		res.JSON(t, &one)
		if res.StatusCode != 200 || one.Data["description"] == "" || one.Data["description"] == nil || one.Data["slug"] != "gateway" || len(one.Data) != 9 {
			t.Errorf("single product %d %v", res.StatusCode, one.Data)
		}
		if u := one.Data["url"]; u != env.Server.URL+"/gateway/app" {
			t.Errorf("gateway url %v", u)
		}

		for _, slug := range []string{"posture-monitor", "secret-scanner", "nope", "GATEWAY", "gateway%2F..%2Fx"} {
			res := c.Get("/v1/products/"+slug, bearer(s.Key)...)
			var e apiError
			res.JSON(t, &e)
			if res.StatusCode != 404 || e.Error.Code != "product_not_found" || e.Error.RequestID != res.Header.Get("X-Request-Id") {
				t.Errorf("%s: %d %+v", slug, res.StatusCode, e)
			}
		}
	})
}

func TestEmptyRegistryAndLifecycleVisibility(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "life@example.com")
		ctx := context.Background()
		// Nothing public: the list is empty, not null.
		for _, slug := range []string{"log-analyzer", "config-scanner", "gateway"} {
			env.DB.Model(&models.Product{}).Where("slug = ?", slug).Update("lifecycle", "alpha")
		}
		var res *apptest.Response
		empty := apptest.Eventually(2*time.Second, func() bool { // the product cache lives 1 s
			res = env.Client().Get("/v1/products", bearer(s.Key)...)
			return strings.TrimSpace(res.Body) == `{"data":[]}`
		})
		if !empty {
			t.Fatalf("empty registry: %s", res.Body)
		}
		// Moving forward to beta makes a product public; back is refused.
		if _, err := models.UpdateProduct(ctx, env.DB.DB, "secret-scanner", models.ProductChange{Lifecycle: ptr("beta")}); err != nil {
			t.Fatal(err)
		}
		if _, err := models.UpdateProduct(ctx, env.DB.DB, "secret-scanner", models.ProductChange{Lifecycle: ptr("alpha")}); err == nil || !strings.Contains(err.Error(), "only moves forward") {
			t.Fatalf("moving back: %v", err)
		}
		apptest.Eventually(2*time.Second, func() bool {
			res = env.Client().Get("/v1/products/secret-scanner", bearer(s.Key)...)
			return res.StatusCode == 200
		})
		if res.StatusCode != 200 || !strings.Contains(res.Body, `"lifecycle":"beta"`) {
			t.Errorf("the product promoted to beta is not public within the cache TTL: %d %s", res.StatusCode, res.Body)
		}
	}, apptest.WithEnv("RATE_LIMIT_PER_MINUTE", "100000")) // the test polls
}

func ptr[T any](v T) *T { return &v }

func TestAuthenticationErrors(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "auth@example.com")
		revoked, revokedID := env.SeedKey(t, s.OrgID, "old")
		if _, err := models.RevokeAPIKey(context.Background(), env.DB.DB, s.OrgID, revokedID, nil); err != nil {
			t.Fatal(err)
		}
		last := "A"
		if strings.HasSuffix(s.Key, "A") {
			last = "B"
		}
		badChecksum := s.Key[:len(s.Key)-1] + last
		unknown, _, _ := keys.Generate()
		cases := []struct {
			name   string
			header []string
			code   string
		}{
			{"no header", nil, "missing_api_key"},
			{"basic auth", []string{"Authorization", "Basic dXNlcjpwYXNz"}, "missing_api_key"},
			{"bearer without token", []string{"Authorization", "Bearer "}, "missing_api_key"},
			{"token without scheme", []string{"Authorization", s.Key}, "missing_api_key"},
			{"unknown key", bearer(unknown), "invalid_api_key"},
			{"malformed key", bearer("ppk_short"), "invalid_api_key"},
			{"checksum fails", bearer(badChecksum), "invalid_api_key"},
			{"revoked key", bearer(revoked), "invalid_api_key"},
			{"x-api-key is not for /v1", []string{"X-Api-Key", s.Key}, "missing_api_key"},
		}
		c := env.Client()
		for _, tc := range cases {
			for _, path := range []string{"/v1/products", "/v1/products/gateway"} {
				res := c.Get(path, tc.header...)
				var e apiError
				res.JSON(t, &e)
				if res.StatusCode != 401 || e.Error.Code != tc.code || e.Error.Message == "" {
					t.Errorf("%s %s: %d %+v, want 401 %s", tc.name, path, res.StatusCode, e, tc.code)
				}
			}
		}
		// The scheme is case-insensitive (RFC 7235); health needs no key.
		if res := c.Get("/v1/products", "Authorization", "bearer "+s.Key); res.StatusCode != 200 {
			t.Errorf("lower-case bearer: %d", res.StatusCode)
		}
		if res := c.Get("/v1/health"); res.StatusCode != 200 {
			t.Errorf("health without key: %d", res.StatusCode)
		}
		// A key revoked in the console of this instance is refused on its
		// very next request, although it was just verified (and cached).
		key2, id2 := env.SeedKey(t, s.OrgID, "soon-revoked")
		if res := c.Get("/v1/products", bearer(key2)...); res.StatusCode != 200 {
			t.Fatal(res.StatusCode)
		}
		owner := env.Client()
		if res := owner.SignIn(s.Email, apptest.TestPassword); res.StatusCode != 303 {
			t.Fatalf("sign in: %d", res.StatusCode)
		}
		if res := owner.Submit("/console/keys", "/console/keys/"+id2+"/revoke", nil); res.StatusCode != 303 {
			t.Fatalf("revoke: %d", res.StatusCode)
		}
		var e apiError
		res := c.Get("/v1/products", bearer(key2)...)
		res.JSON(t, &e)
		if res.StatusCode != 401 || e.Error.Code != "invalid_api_key" {
			t.Errorf("the revoked key's next request: %d %s", res.StatusCode, e.Error.Code)
		}
	})
}

func TestRateLimitHeadersOnEveryResponse(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	env.App.Group("/v1").GET("/test/panic", func(echo.Context) error { panic("boom") })
	s := env.Seed(t, "headers@example.com")
	c := env.Client()
	check := func(name string, res *apptest.Response, wantStatus int) {
		t.Helper()
		if res.StatusCode != wantStatus {
			t.Errorf("%s: status %d, want %d", name, res.StatusCode, wantStatus)
		}
		limit, err1 := strconv.Atoi(res.Header.Get("X-RateLimit-Limit"))
		remaining, err2 := strconv.Atoi(res.Header.Get("X-RateLimit-Remaining"))
		reset, err3 := strconv.ParseInt(res.Header.Get("X-RateLimit-Reset"), 10, 64)
		if err1 != nil || err2 != nil || err3 != nil || limit != 60 || remaining < 0 || remaining > 59 {
			t.Errorf("%s: headers limit=%q remaining=%q reset=%q", name, res.Header.Get("X-RateLimit-Limit"), res.Header.Get("X-RateLimit-Remaining"), res.Header.Get("X-RateLimit-Reset"))
		}
		now := time.Now().Unix()
		if reset < now || reset > now+61 {
			t.Errorf("%s: reset %d is not a Unix time within the next minute (now %d)", name, reset, now)
		}
	}
	check("200", c.Get("/v1/products", bearer(s.Key)...), 200)
	check("health", c.Get("/v1/health"), 200)
	check("401", c.Get("/v1/products"), 401)
	check("404 product", c.Get("/v1/products/nope", bearer(s.Key)...), 404)
	check("404 route", c.Get("/v1/nope", bearer(s.Key)...), 404)
	check("405", c.Do("POST", "/v1/products", "", bearer(s.Key)...), 405)
	check("500", c.Get("/v1/test/panic", bearer(s.Key)...), 500)
}

func TestRateLimitPerKey(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "limit@example.com")
		other, _ := env.SeedKey(t, s.OrgID, "other")
		c := env.Client()
		for i := 1; i <= 60; i++ {
			res := c.Get("/v1/products", bearer(s.Key)...)
			if res.StatusCode != 200 {
				t.Fatalf("request %d: %d", i, res.StatusCode)
			}
			if got := res.Header.Get("X-RateLimit-Remaining"); got != strconv.Itoa(60-i) {
				t.Fatalf("request %d: remaining %s, want %d", i, got, 60-i)
			}
		}
		res := c.Get("/v1/products", bearer(s.Key)...)
		var e apiError
		res.JSON(t, &e)
		if res.StatusCode != 429 || e.Error.Code != "rate_limited" || res.Header.Get("X-RateLimit-Remaining") != "0" {
			t.Fatalf("61st: %d %+v remaining=%s", res.StatusCode, e, res.Header.Get("X-RateLimit-Remaining"))
		}
		ra, err := strconv.Atoi(res.Header.Get("Retry-After"))
		if err != nil || ra < 1 || ra > 60 {
			t.Errorf("Retry-After %q", res.Header.Get("Retry-After"))
		}
		// Another key of the same organization has its own budget.
		if res := c.Get("/v1/products", bearer(other)...); res.StatusCode != 200 {
			t.Errorf("another key: %d", res.StatusCode)
		}
	})
}

func TestRateLimitPerIPWithoutKey(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := env.Client()
	guess, _, _ := keys.Generate()
	for i := 0; i < 60; i++ {
		if res := c.Get("/v1/products", bearer(guess)...); res.StatusCode != 401 {
			t.Fatalf("guess %d: %d", i, res.StatusCode)
		}
	}
	if res := c.Get("/v1/health"); res.StatusCode != 429 {
		t.Errorf("after 60 bad keys from one IP, health answers %d, want 429 (per-IP budget)", res.StatusCode)
	}
}

// Two instances sharing one Redis let through exactly 60 requests of one
// key between them.
func TestRateLimitSharedAcrossInstancesThroughRedis(t *testing.T) {
	redisURL := os.Getenv("TEST_REDIS_URL")
	if redisURL == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("TEST_REDIS_URL must be set in CI")
		}
		t.Skip("TEST_REDIS_URL not set: skipping the shared Redis limiter test")
	}
	for _, d := range apptest.Databases(t) {
		t.Run(d.Name, func(t *testing.T) {
			cfg := apptest.Config(t, apptest.FreshDatabaseURL(t, d), apptest.WithEnv("REDIS_URL", redisURL))
			a, b := apptest.Start(t, cfg), apptest.Start(t, cfg)
			s := a.Seed(t, "shared@example.com")
			var mu sync.Mutex
			counts := map[int]int{}
			var wg sync.WaitGroup
			for i := 0; i < 100; i++ {
				wg.Add(1)
				go func(i int) {
					defer wg.Done()
					env := a
					if i%2 == 1 {
						env = b
					}
					res := env.Client().Get("/v1/products", bearer(s.Key)...)
					mu.Lock()
					counts[res.StatusCode]++
					mu.Unlock()
				}(i)
			}
			wg.Wait()
			if counts[200] != 60 || counts[429] != 40 {
				t.Errorf("two instances let through %v, want exactly 60 x 200 and 40 x 429", counts)
			}
		})
	}
}

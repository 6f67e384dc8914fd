package api_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"parapet/app/apptest"
	"parapet/app/openapi"
	"parapet/models"
	"parapet/views/paths"
)

// schemaCheck validates a JSON value against the subset of JSON Schema the
// document uses: type, properties, required, additionalProperties, items,
// enum, pattern, minimum, oneOf and $ref to components.
type schemaCheck struct {
	schemas map[string]json.RawMessage
}

func (sc schemaCheck) validate(path string, raw json.RawMessage, v any) []string {
	var s map[string]any
	if err := json.Unmarshal(raw, &s); err != nil {
		return []string{path + ": bad schema"}
	}
	return sc.check(path, s, v)
}

func (sc schemaCheck) check(path string, s map[string]any, v any) []string {
	if ref, ok := s["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		return sc.validate(path, sc.schemas[name], v)
	}
	var errs []string
	if alts, ok := s["oneOf"].([]any); ok {
		matched := 0
		for _, a := range alts {
			if len(sc.check(path, a.(map[string]any), v)) == 0 {
				matched++
			}
		}
		if matched != 1 {
			errs = append(errs, fmt.Sprintf("%s: matches %d of oneOf", path, matched))
		}
	}
	if t, ok := s["type"]; ok && !typeMatches(t, v) {
		return append(errs, fmt.Sprintf("%s: %v is not of type %v", path, v, t))
	}
	if enum, ok := s["enum"].([]any); ok {
		found := false
		for _, e := range enum {
			if fmt.Sprint(e) == fmt.Sprint(v) {
				found = true
			}
		}
		if !found {
			errs = append(errs, fmt.Sprintf("%s: %v not in %v", path, v, enum))
		}
	}
	if p, ok := s["pattern"].(string); ok {
		if str, _ := v.(string); !regexp.MustCompile(p).MatchString(str) {
			errs = append(errs, fmt.Sprintf("%s: %q does not match %s", path, str, p))
		}
	}
	if m, ok := s["minimum"].(float64); ok {
		if n, _ := v.(float64); n < m {
			errs = append(errs, fmt.Sprintf("%s: %v < minimum %v", path, n, m))
		}
	}
	switch val := v.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		for _, r := range asStrings(s["required"]) {
			if _, ok := val[r]; !ok {
				errs = append(errs, fmt.Sprintf("%s: missing required %q", path, r))
			}
		}
		for k, fv := range val {
			ps, ok := props[k].(map[string]any)
			if !ok {
				if ap, set := s["additionalProperties"]; set && ap == false {
					errs = append(errs, fmt.Sprintf("%s: unexpected property %q", path, k))
				} else if apSchema, ok := ap.(map[string]any); ok {
					errs = append(errs, sc.check(path+"."+k, apSchema, fv)...)
				}
				continue
			}
			errs = append(errs, sc.check(path+"."+k, ps, fv)...)
		}
	case []any:
		if items, ok := s["items"].(map[string]any); ok {
			for i, iv := range val {
				errs = append(errs, sc.check(fmt.Sprintf("%s[%d]", path, i), items, iv)...)
			}
		}
	}
	return errs
}

func asStrings(v any) []string {
	var out []string
	if arr, ok := v.([]any); ok {
		for _, x := range arr {
			out = append(out, x.(string))
		}
	}
	return out
}

func typeMatches(t any, v any) bool {
	types := []string{}
	switch tt := t.(type) {
	case string:
		types = append(types, tt)
	case []any:
		for _, x := range tt {
			types = append(types, x.(string))
		}
	}
	for _, ty := range types {
		switch ty {
		case "object":
			if _, ok := v.(map[string]any); ok {
				return true
			}
		case "array":
			if _, ok := v.([]any); ok {
				return true
			}
		case "string":
			if _, ok := v.(string); ok {
				return true
			}
		case "integer":
			if n, ok := v.(float64); ok && n == float64(int64(n)) {
				return true
			}
		case "number":
			if _, ok := v.(float64); ok {
				return true
			}
		case "boolean":
			if _, ok := v.(bool); ok {
				return true
			}
		case "null":
			if v == nil {
				return true
			}
		}
	}
	return false
}

// responseCase produces one documented response from the running server.
type responseCase func(t *testing.T, env *apptest.Env, s apptest.Seeded) *apptest.Response

// documentedResponses maps "METHOD path status" to a request that makes the
// server give that response. Every documented response of the public API
// must have one: the test fails when the document and this table drift.
func documentedResponses() map[string]responseCase {
	get := func(path string, auth bool) responseCase {
		return func(t *testing.T, env *apptest.Env, s apptest.Seeded) *apptest.Response {
			if auth {
				return env.Client().Get(path, bearer(s.Key)...)
			}
			return env.Client().Get(path)
		}
	}
	exhaust := func(path string) responseCase {
		return func(t *testing.T, env *apptest.Env, s apptest.Seeded) *apptest.Response {
			key, _ := env.SeedKey(t, s.OrgID, "exhaust")
			c := env.Client()
			for i := 0; i < 60; i++ {
				c.Get(path, bearer(key)...)
			}
			return c.Get(path, bearer(key)...)
		}
	}
	logsOnly := func(path string) responseCase {
		return func(t *testing.T, env *apptest.Env, s apptest.Seeded) *apptest.Response {
			env.DB.Model(&models.APIKey{}).Where("id = ?", s.KeyID).Update("scopes", "logs")
			return env.Client().Get(path, bearer(s.Key)...)
		}
	}
	return map[string]responseCase{
		"GET /v1/health 200": get("/v1/health", false),
		"GET /v1/health 429": func(t *testing.T, env *apptest.Env, s apptest.Seeded) *apptest.Response {
			return exhaustIP(env, "/v1/health")
		},
		"GET /v1/products 200":        get("/v1/products", true),
		"GET /v1/products 401":        get("/v1/products", false),
		"GET /v1/products 403":        logsOnly("/v1/products"),
		"GET /v1/products 429":        exhaust("/v1/products"),
		"GET /v1/products/{slug} 200": get("/v1/products/log-analyzer", true),
		"GET /v1/products/{slug} 401": get("/v1/products/log-analyzer", false),
		"GET /v1/products/{slug} 403": logsOnly("/v1/products/log-analyzer"),
		"GET /v1/products/{slug} 404": get("/v1/products/posture-monitor", true),
		"GET /v1/products/{slug} 429": exhaust("/v1/products/gateway"),
	}
}

func exhaustIP(env *apptest.Env, path string) *apptest.Response {
	c := env.Client()
	for i := 0; i < 60; i++ {
		c.Get(path)
	}
	return c.Get(path)
}

// Every documented response of the public API matches what the server
// returns: status, content type and body schema.
func TestOpenAPIDocumentMatchesServer(t *testing.T) {
	doc, err := openapi.Parse()
	if err != nil {
		t.Fatalf("the OpenAPI document does not parse: %v", err)
	}
	sc := schemaCheck{schemas: doc.Components.Schemas}
	cases := documentedResponses()
	var keys []string
	for _, e := range doc.Endpoints() {
		if !strings.HasPrefix(e.Path, "/v1/") {
			continue
		}
		for code := range e.Responses {
			key := e.Method + " " + e.Path + " " + code
			if cases[key] == nil {
				t.Errorf("documented response %q has no test case", key)
			}
			keys = append(keys, key)
		}
	}
	sort.Strings(keys)
	for _, key := range keys {
		run := cases[key]
		if run == nil {
			continue
		}
		t.Run(key, func(t *testing.T) {
			env := apptest.New(t, apptest.Databases(t)[0])
			s := env.Seed(t, "openapi@example.com")
			res := run(t, env, s)
			parts := strings.Fields(key)
			if fmt.Sprint(res.StatusCode) != parts[2] {
				t.Fatalf("status %d, documented %s: %s", res.StatusCode, parts[2], res.Body)
			}
			var op openapi.Operation
			for _, e := range doc.Endpoints() {
				if e.Method == parts[0] && e.Path == parts[1] {
					op = e.Operation
				}
			}
			r := doc.Resolve(op.Responses[parts[2]])
			mt, ok := r.Content["application/json"]
			if !ok {
				t.Fatal("the documented response has no application/json content")
			}
			if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("content type %q", ct)
			}
			var body any
			if err := json.Unmarshal([]byte(res.Body), &body); err != nil {
				t.Fatalf("body is not JSON: %s", res.Body)
			}
			for _, e := range sc.validate("body", mt.Schema, body) {
				t.Error(e)
			}
			if len(mt.Example) > 0 {
				var ex any
				_ = json.Unmarshal(mt.Example, &ex)
				for _, e := range sc.validate("example", mt.Schema, ex) {
					t.Error("the documented example does not match its schema: " + e)
				}
			}
			for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-Request-Id"} {
				if res.Header.Get(h) == "" {
					t.Errorf("missing header %s", h)
				}
			}
		})
	}
}

func TestOpenAPIAndDocsAreServed(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := env.Client()
	res := c.Get("/openapi.json")
	var doc map[string]any
	res.JSON(t, &doc)
	if res.StatusCode != 200 || doc["openapi"] != "3.1.0" {
		t.Fatalf("/openapi.json: %d %v", res.StatusCode, doc["openapi"])
	}
	page := c.Get(paths.APIReference)
	if page.StatusCode != 200 {
		t.Fatalf("%s: %d", paths.APIReference, page.StatusCode)
	}
	d := page.Doc(t)
	for _, want := range []string{"GET /v1/health", "GET /v1/products", "GET /v1/products/{slug}"} {
		found := false
		d.Find("[data-testid=doc-endpoint] h3").Each(func(_ int, s *goquery.Selection) {
			if strings.TrimSpace(s.Text()) == want {
				found = true
			}
		})
		if !found {
			t.Errorf("/docs does not document %s", want)
		}
	}
	if !strings.Contains(page.Body, "X-RateLimit-Reset") {
		t.Error("/docs does not explain the rate-limit headers")
	}
}

package app_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"parapet/app/apptest"
	"parapet/app/httpx"
)

// testRoutes adds endpoints that exercise the shared JSON plumbing the way
// every real endpoint uses it, in the public API's area and the pages'.
func testRoutes(env *apptest.Env) {
	e := env.App.Group("/v1")
	e.POST("/test/echo", func(c echo.Context) error {
		if err := httpx.RequireJSON(c); err != nil {
			return err
		}
		body, err := httpx.ReadBody(c, 64)
		if err != nil {
			return err
		}
		var v struct {
			Name  string `json:"name"`
			Count int    `json:"count"`
		}
		if err := httpx.DecodeJSON(body, &v); err != nil {
			return err
		}
		return c.JSON(http.StatusOK, v)
	})
	e.GET("/test/panic", func(c echo.Context) error { panic("secret internal detail") })
	env.App.Group("").GET("/test/panic", func(c echo.Context) error { panic("secret internal detail") })
}

type errorBody struct {
	Error struct {
		Code      string `json:"code"`
		Message   string `json:"message"`
		RequestID string `json:"request_id"`
	} `json:"error"`
}

func TestErrorContract(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	testRoutes(env)
	c := env.Client()
	cases := []struct {
		name, method, path, ctype, body string
		status                          int
		code, message                   string
	}{
		{"unknown route under /v1", "GET", "/v1/nope", "", "", 404, "not_found", "no such endpoint: GET /v1/nope"},
		{"unknown route under /logs/v1", "GET", "/logs/v1/nope", "", "", 404, "not_found", "no such endpoint"},
		{"unknown route under /scan/v1", "POST", "/scan/v1/nope", "", "", 404, "not_found", "no such endpoint"},
		{"unknown route under /gateway/v1", "GET", "/gateway/v1/nope", "", "", 404, "not_found", "no such endpoint"},
		{"wrong method", "DELETE", "/v1/health", "", "", 405, "method_not_allowed", "method DELETE is not allowed on /v1/health"},
		{"malformed JSON", "POST", "/v1/test/echo", "application/json", "{\n \"name\": }", 400, "invalid_request", "malformed JSON at line 2, column 10"},
		{"truncated JSON", "POST", "/v1/test/echo", "application/json", `{"name":`, 400, "invalid_request", "ends before the JSON value does"},
		{"wrong field type", "POST", "/v1/test/echo", "application/json", `{"count":"x"}`, 400, "invalid_request", "count must be an integer, not string"},
		{"unknown field", "POST", "/v1/test/echo", "application/json", `{"nmae":"x"}`, 400, "invalid_request", `unknown field "nmae"`},
		{"empty body", "POST", "/v1/test/echo", "application/json", ``, 400, "invalid_request", "the request body is empty"},
		{"two values", "POST", "/v1/test/echo", "application/json", `{} {}`, 400, "invalid_request", "single JSON value"},
		{"body over the limit", "POST", "/v1/test/echo", "application/json", `{"name":"` + strings.Repeat("a", 100) + `"}`, 413, "payload_too_large", "larger than the limit of 64 bytes"},
		{"wrong content type", "POST", "/v1/test/echo", "text/plain", `{}`, 415, "unsupported_media_type", "Content-Type: application/json"},
		{"no content type", "POST", "/v1/test/echo", "", `{}`, 415, "unsupported_media_type", "must be JSON"},
		{"panic", "GET", "/v1/test/panic", "", "", 500, "internal_error", "quote the request id"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			headers := []string{}
			if tc.ctype != "" {
				headers = append(headers, "Content-Type", tc.ctype)
			}
			res := c.Do(tc.method, tc.path, tc.body, headers...)
			if res.StatusCode != tc.status {
				t.Fatalf("status = %d, want %d; body %s", res.StatusCode, tc.status, res.Body)
			}
			if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("content type = %q, want JSON", ct)
			}
			var body errorBody
			res.JSON(t, &body)
			if body.Error.Code != tc.code {
				t.Errorf("code = %q, want %q", body.Error.Code, tc.code)
			}
			if !strings.Contains(body.Error.Message, tc.message) {
				t.Errorf("message = %q, want it to contain %q", body.Error.Message, tc.message)
			}
			if id := res.Header.Get("X-Request-Id"); id == "" || body.Error.RequestID != id {
				t.Errorf("request_id = %q, header X-Request-Id = %q: want equal and non-empty", body.Error.RequestID, id)
			}
			if strings.Contains(res.Body, "secret internal detail") {
				t.Errorf("the response leaks the panic: %s", res.Body)
			}
		})
	}
	t.Run("405 names the allowed methods", func(t *testing.T) {
		res := c.Do("POST", "/v1/health", "")
		if allow := res.Header.Get("Allow"); !strings.Contains(allow, "GET") {
			t.Errorf("Allow = %q, want GET listed", allow)
		}
		if res := c.Do("OPTIONS", "/v1/products", ""); res.StatusCode != 204 || !strings.Contains(res.Header.Get("Allow"), "GET") {
			t.Errorf("OPTIONS: %d, Allow %q", res.StatusCode, res.Header.Get("Allow"))
		}
	})
	t.Run("the panic is logged with its request id", func(t *testing.T) {
		res := c.Get("/v1/test/panic")
		id := res.Header.Get("X-Request-Id")
		logs := env.Logs.String()
		if !strings.Contains(logs, "secret internal detail") || !strings.Contains(logs, id) {
			t.Errorf("logs lack the panic or its request id %s:\n%s", id, logs)
		}
	})
}

func TestBrowserRoutesGetHTMLErrorPages(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	testRoutes(env)
	c := env.Client()
	for _, tc := range []struct {
		path   string
		status int
		text   string
	}{
		{"/no/such/page", 404, "Page not found"},
		{"/test/panic", 500, "Something went wrong"},
	} {
		res := c.Get(tc.path)
		if res.StatusCode != tc.status {
			t.Fatalf("%s: status %d, want %d", tc.path, res.StatusCode, tc.status)
		}
		if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Fatalf("%s: content type %q, want HTML", tc.path, ct)
		}
		doc := res.Doc(t)
		if got := doc.Find("[data-testid=error-page] h1").Text(); got != tc.text {
			t.Errorf("%s: heading %q, want %q", tc.path, got, tc.text)
		}
		if doc.Find("header.site-header").Length() != 1 {
			t.Errorf("%s: the error page is not in the site's layout", tc.path)
		}
		if !strings.Contains(doc.Find("[data-testid=error-page]").Text(), res.Header.Get("X-Request-Id")) {
			t.Errorf("%s: the page does not show the request id", tc.path)
		}
		if strings.Contains(res.Body, "secret internal detail") {
			t.Errorf("%s: the page leaks the panic", tc.path)
		}
	}
}

func TestRequestID(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := env.Client()
	generated := regexp.MustCompile(`^req_[0-9A-Za-z]{20}$`)
	if id := c.Get("/v1/health").Header.Get("X-Request-Id"); !generated.MatchString(id) {
		t.Errorf("generated id %q, want req_ and 20 base62 characters", id)
	}
	if id := c.Get("/v1/health", "X-Request-Id", "edge-1234-abcd").Header.Get("X-Request-Id"); id != "edge-1234-abcd" {
		t.Errorf("a well-formed incoming id was replaced by %q", id)
	}
	for _, bad := range []string{"short", "has spaces in it", "<script>alert(1)</script>", strings.Repeat("a", 200)} {
		id := c.Get("/v1/health", "X-Request-Id", bad).Header.Get("X-Request-Id")
		if id == bad || !generated.MatchString(id) {
			t.Errorf("malformed incoming id %q gave %q, want a fresh req_ id", bad, id)
		}
	}
	if a, b := c.Get("/").Header.Get("X-Request-Id"), c.Get("/").Header.Get("X-Request-Id"); a == b {
		t.Errorf("two requests got the same id %q", a)
	}
}

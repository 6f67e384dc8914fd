package app_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"parapet/app/apptest"
	"parapet/app/openapi"
	"parapet/views/paths"
)

// Every address the pages link to or post to is served by a route of
// routes.go, not by an area's catch-all.
func TestPathsAreRouted(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	e := env.App.Echo()
	for _, link := range []struct{ method, path string }{
		{"GET", paths.Home}, {"GET", paths.Docs}, {"GET", paths.DocsPage("console")}, {"GET", paths.APIReference}, {"GET", paths.OpenAPI}, {"GET", paths.Console},
		{"GET", paths.SignUp}, {"POST", paths.SignUp}, {"GET", paths.SignIn}, {"POST", paths.SignIn}, {"POST", paths.SignOut},
		{"GET", paths.Orgs}, {"POST", paths.Orgs}, {"POST", paths.SwitchOrg}, {"GET", paths.Keys}, {"POST", paths.Keys},
		{"POST", paths.RevokeKey("key_123")}, {"GET", paths.Usage}, {"GET", paths.UsageCSV}, {"POST", paths.UsageBudget}, {"POST", paths.UsageModels}, {"GET", paths.Audit}, {"GET", paths.GatewayCallsLog},
		{"GET", paths.Account}, {"GET", paths.AccountChanged}, {"POST", paths.ChangePassword},
		{"GET", paths.Products}, {"POST", paths.Products}, {"POST", paths.Product("gateway")}, {"GET", paths.ProductSaved("gateway")},
		{"GET", paths.LogAnalyzer}, {"POST", paths.LogAnalyzer}, {"GET", paths.ConfigScanner}, {"POST", paths.ConfigScanner},
		{"GET", paths.Playground}, {"POST", paths.PlaygroundChat}, {"GET", paths.DocsOperation("analyzeLogs")},
		{"GET", paths.SignInThen("/console/keys")}, {"GET", paths.LogCompare}, {"POST", paths.LogCompare},
		{"POST", paths.EndSession("abc")}, {"POST", paths.EndOtherSessions}, {"GET", paths.Members}, {"GET", paths.Invitations},
		{"POST", paths.Invitations}, {"GET", paths.TwoFactor}, {"POST", paths.TwoFactor}, {"GET", paths.SignInCode}, {"POST", paths.SignInCode},
	} {
		u, err := url.Parse(link.path)
		if err != nil {
			t.Fatal(err)
		}
		c := e.NewContext(httptest.NewRequest(link.method, u.Path, nil), nil)
		e.Router().Find(link.method, u.Path, c)
		if route := c.Path(); route == "" || strings.HasSuffix(route, "/*") {
			t.Errorf("%s %s is not routed (matched %q)", link.method, link.path, route)
		}
	}
	if res := env.Client().Get(paths.APIReference); res.StatusCode != http.StatusOK || !strings.Contains(res.Body, "/readyz") {
		t.Errorf("GET %s: %d, or no /readyz in the reference", paths.APIReference, res.StatusCode)
	}
}

// The JSON APIs, the tools' included, are what the OpenAPI document says:
// every route is documented and every documented operation is routed.
func TestAPIRoutesMatchOpenAPI(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	doc, err := openapi.Parse()
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for _, e := range doc.Endpoints() {
		documented[e.Method+" "+e.Path] = true
	}
	param := regexp.MustCompile(`:(\w+)`)
	routed := map[string]bool{}
	for _, r := range env.App.Echo().Routes() {
		api := r.Path == "/readyz" || r.Path == "/metrics"
		for _, prefix := range []string{"/v1/", "/logs/v1/", "/scan/v1/", "/gateway/v1/", "/keys/v1/"} {
			api = api || strings.HasPrefix(r.Path, prefix)
		}
		if !api || strings.HasSuffix(r.Path, "/*") || r.Method == echo.RouteNotFound {
			continue
		}
		key := r.Method + " " + param.ReplaceAllString(r.Path, "{$1}")
		routed[key] = true
		if !documented[key] {
			t.Errorf("%s is routed but not in the OpenAPI document", key)
		}
	}
	for key := range documented {
		if !routed[key] {
			t.Errorf("%s is documented but not routed", key)
		}
	}
}

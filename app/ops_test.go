package app_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"parapet/app/apptest"
)

// /metrics is refused without the token, and with it is Prometheus text
// labelled by area and route template: never a raw path.
func TestMetrics(t *testing.T) {
	const token = "metrics-token-for-the-test"
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("METRICS_TOKEN", token))
	s := env.Seed(t, "metrics@example.com")
	c := env.Client()
	for name, headers := range map[string][]string{
		"no token":    nil,
		"wrong token": {"Authorization", "Bearer not-the-token"},
		"bare token":  {"Authorization", token},
	} {
		if res := c.Get("/metrics", headers...); res.StatusCode != 401 || strings.Contains(res.Body, "# TYPE") {
			t.Errorf("%s: %d %.200s", name, res.StatusCode, res.Body)
		}
	}

	c.Get("/v1/products/some-unknown-slug", "Authorization", "Bearer "+s.Key)
	c.Get("/v1/no-such-route-at-all")
	c.Get("/console/keys")
	res := c.Get("/metrics", "Authorization", "Bearer "+token)
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("with the token: %d %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	for _, want := range []string{
		"# TYPE parapet_http_requests_total counter",
		"# TYPE parapet_http_request_duration_seconds histogram",
		`parapet_http_requests_total{area="v1",method="GET",route="/v1/products/:slug",status_class="4xx"}`,
		`area="v1",method="GET",route="unmatched",status_class="4xx"}`,
		`area="pages",method="GET",route="/console/keys",status_class="3xx"}`,
		"# TYPE go_sql_open_connections gauge", // the database pool
		"# TYPE go_goroutines gauge",
	} {
		if !strings.Contains(res.Body, want) {
			t.Errorf("the metrics lack %s", want)
		}
	}
	for _, raw := range []string{"some-unknown-slug", "no-such-route-at-all"} {
		if strings.Contains(res.Body, raw) {
			t.Errorf("a raw request path is a label value: %s", raw)
		}
	}
}

// Without METRICS_TOKEN, metrics are off: the path does not exist.
func TestMetricsOffWithoutToken(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	if res := env.Client().Get("/metrics"); res.StatusCode != 404 || strings.Contains(res.Body, "# TYPE") {
		t.Errorf("%d %.200s", res.StatusCode, res.Body)
	}
}

// /readyz says whether the instance can serve: 200 while Postgres and
// Redis answer, 503 naming the one that does not, within a bounded time.
func TestReadiness(t *testing.T) {
	pg, rd := needServices(t)
	viaDB, dbProxy := behind(t, apptest.FreshDatabaseURL(t, apptest.Database{Name: "postgres", URL: pg}))
	viaRedis, redisProxy := behind(t, rd)
	env := apptest.Start(t, apptest.Config(t, viaDB, apptest.WithEnv("REDIS_URL", viaRedis)))
	c := env.Client()
	if res := c.Get("/readyz"); res.StatusCode != 200 || !strings.Contains(res.Body, `"status":"ready"`) {
		t.Fatalf("all up: %d %s", res.StatusCode, res.Body)
	}
	for _, tc := range []struct {
		name  string
		proxy *apptest.TCPProxy
	}{{"database", dbProxy}, {"redis", redisProxy}} {
		tc.proxy.Stop()
		start := time.Now()
		res := c.Get("/readyz")
		if res.StatusCode != 503 || !strings.Contains(res.Body, `"code":"not_ready"`) || !strings.Contains(res.Body, tc.name+" did not answer") {
			t.Errorf("%s down: %d %s", tc.name, res.StatusCode, res.Body)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s down: /readyz took %s", tc.name, d)
		}
		tc.proxy.Start()
	}
	if res := c.Get("/readyz"); res.StatusCode != 200 {
		t.Errorf("after both came back: %d %s", res.StatusCode, res.Body)
	}
}

// Guessing the token is throttled: past the minute's requests from one
// client, even the right token is refused before it is compared, so a
// guess that is right cannot be told from one that is wrong.
func TestMetricsGuessesAreThrottled(t *testing.T) {
	const token = "short"
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("METRICS_TOKEN", token))
	c := env.Client()
	for i := range 60 {
		if res := c.Get("/metrics", "Authorization", "Bearer guess-"+strconv.Itoa(i)); res.StatusCode != 401 {
			t.Fatalf("guess %d: %d", i+1, res.StatusCode)
		}
	}
	res := c.Get("/metrics", "Authorization", "Bearer "+token)
	if res.StatusCode != 429 || res.Header.Get("Retry-After") == "" || strings.Contains(res.Body, "# TYPE") {
		t.Errorf("the right token after 60 guesses: %d, Retry-After %q", res.StatusCode, res.Header.Get("Retry-After"))
	}
}

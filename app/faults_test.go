package app_test

import (
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"parapet/app/apptest"
	"parapet/models"
)

// behind rewrites a service URL to go through a cuttable proxy.
func behind(t *testing.T, rawURL string) (string, *apptest.TCPProxy) {
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	p := apptest.NewTCPProxy(t, u.Host)
	u.Host = p.Addr
	return u.String(), p
}

// needServices returns the real Postgres and Redis that multi-instance and
// fault tests run on; they are required in CI.
func needServices(t *testing.T) (string, string) {
	pg, rd := os.Getenv("TEST_DATABASE_URL"), os.Getenv("TEST_REDIS_URL")
	if pg == "" || rd == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("TEST_DATABASE_URL and TEST_REDIS_URL must be set in CI")
		}
		t.Skip("needs TEST_DATABASE_URL and TEST_REDIS_URL (real Postgres and Redis)")
	}
	return pg, rd
}

// Postgres goes away under load and comes back: meanwhile requests get a
// quick 503 service_unavailable in the spec's shape (never a hang, never a
// 500), the instance recovers by itself, and every gateway call that was
// answered has exactly one whole record.
func TestPostgresOutage(t *testing.T) {
	pg, _ := needServices(t)
	fresh := apptest.FreshDatabaseURL(t, apptest.Database{Name: "postgres", URL: pg})
	viaProxy, proxy := behind(t, fresh)
	cfg := apptest.Config(t, viaProxy, apptest.WithEnv("REQUEST_TIMEOUT", "2s"), apptest.WithEnv("GATEWAY_DEMO_WORD_DELAY", "0s"),
		apptest.WithEnv("RATE_LIMIT_PER_MINUTE", "100000"), apptest.WithEnv("GATEWAY_RATE_LIMIT_PER_MINUTE", "100000"))
	env := apptest.Start(t, cfg)
	s := env.Seed(t, "outage@example.com")

	var mu sync.Mutex
	statuses := map[int]int{}
	var slowest time.Duration
	var answered atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			c := env.Client()
			pace := time.NewTicker(10 * time.Millisecond) // a steady load, not a flood
			defer pace.Stop()
			for {
				select {
				case <-stop:
					return
				case <-pace.C:
				}
				t0 := time.Now()
				var res *apptest.Response
				if w%2 == 0 {
					res = c.Get("/v1/products", "Authorization", "Bearer "+s.Key)
				} else {
					res = c.PostJSON("/gateway/v1/chat", `{"messages":[{"role":"user","content":"hi"}],"max_tokens":5}`, "Authorization", "Bearer "+s.Key)
					if res.StatusCode == 200 {
						answered.Add(1)
					}
				}
				d := time.Since(t0)
				mu.Lock()
				statuses[res.StatusCode]++
				slowest = max(slowest, d)
				mu.Unlock()
				if res.StatusCode >= 500 {
					var body struct {
						Error struct{ Code, RequestID string }
					}
					if json.Unmarshal([]byte(res.Body), &body) != nil || body.Error.Code != "service_unavailable" || strings.Contains(res.Body, "SQLSTATE") || strings.Contains(res.Body, "dial") {
						t.Errorf("during the outage: %d %s", res.StatusCode, res.Body)
					}
				}
			}
		}(w)
	}
	count := func(status int) int {
		mu.Lock()
		defer mu.Unlock()
		return statuses[status]
	}
	apptest.WaitFor(t, 10*time.Second, "traffic before the outage", func() bool { return count(200) >= 8 })
	proxy.Stop()
	apptest.WaitFor(t, 15*time.Second, "requests that meet the outage", func() bool { return count(503) >= 8 })
	proxy.Start()
	// The instance recovers by itself: no restart.
	apptest.WaitFor(t, 10*time.Second, "recovery after Postgres came back", func() bool {
		return env.Client().Get("/v1/products/gateway", "Authorization", "Bearer "+s.Key).StatusCode == 200
	})
	after := count(200)
	apptest.WaitFor(t, 10*time.Second, "traffic after the outage", func() bool { return count(200) >= after+8 })
	close(stop)
	wg.Wait()
	if res := env.Client().Get("/v1/products", "Authorization", "Bearer "+s.Key); res.StatusCode != 200 {
		t.Fatalf("after Postgres came back: %d %s", res.StatusCode, res.Body)
	}
	t.Logf("statuses %v, slowest %s", statuses, slowest)
	if statuses[503] == 0 {
		t.Error("no request saw the outage")
	}
	if statuses[500] > 0 {
		t.Errorf("%d requests answered 500", statuses[500])
	}
	if slowest > 4*time.Second {
		t.Errorf("a request took %s: past the request timeout", slowest)
	}
	// Every answered call has its record, and counters match the records.
	env.App.FlushAudit()
	var ok200, requests int64
	env.DB.Model(&models.AuditEvent{}).Where("action = ? AND status = 200", models.ActionGatewayCall).Count(&ok200)
	env.DB.Raw("SELECT COALESCE(SUM(requests), 0) FROM usage_counters").Scan(&requests)
	var records int64
	env.DB.Model(&models.AuditEvent{}).Where("action = ? AND org_id IS NOT NULL", models.ActionGatewayCall).Count(&records)
	if ok200 != answered.Load() {
		t.Errorf("%d successful calls answered, %d recorded", answered.Load(), ok200)
	}
	if requests != records {
		t.Errorf("usage counters count %d calls, audit has %d records: a write was half-done", requests, records)
	}
}

// Redis goes away and comes back: the limiter answers from memory
// meanwhile (every request still limited and with its headers) and nothing
// else breaks.
func TestRedisOutage(t *testing.T) {
	_, rd := needServices(t)
	viaProxy, proxy := behind(t, rd)
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("REDIS_URL", viaProxy))
	s := env.Seed(t, "redis-outage@example.com")
	c := env.Client()
	get := func() *apptest.Response { return c.Get("/v1/products", "Authorization", "Bearer "+s.Key) }
	for i := 0; i < 10; i++ {
		if res := get(); res.StatusCode != 200 {
			t.Fatalf("before: %d", res.StatusCode)
		}
	}
	proxy.Stop()
	for i := 0; i < 10; i++ {
		t0 := time.Now()
		res := get()
		took := time.Since(t0)
		// The request that finds Redis gone waits at most the limiter's
		// one-second budget; the ones after it answer from memory at once.
		if res.StatusCode != 200 || res.Header.Get("X-RateLimit-Remaining") == "" || took > 1500*time.Millisecond || i > 0 && took > 300*time.Millisecond {
			t.Fatalf("request %d during the outage: %d in %s", i, res.StatusCode, took)
		}
	}
	// Memory remembers what this instance let through: the budget holds.
	n := 0
	for get().StatusCode == 200 {
		n++
		if n > 60 {
			break
		}
	}
	if n != 40 {
		t.Errorf("during the outage %d more requests passed, want 40 (60 - the 20 already made)", n)
	}
	if !strings.Contains(env.Logs.String(), "redis") {
		t.Error("the outage was not logged")
	}
	proxy.Start()
	// The limiter probes Redis at most once a second, on a request.
	apptest.WaitFor(t, 5*time.Second, "the limiter back on Redis", func() bool {
		c.Get("/v1/health")
		return strings.Contains(env.Logs.String(), "rate limiter: redis back")
	})
	other, _ := env.SeedKey(t, s.OrgID, "after")
	if res := c.Get("/v1/products", "Authorization", "Bearer "+other); res.StatusCode != 200 || res.Header.Get("X-RateLimit-Remaining") != "59" {
		t.Errorf("after Redis came back: %d, remaining %s", res.StatusCode, res.Header.Get("X-RateLimit-Remaining"))
	}
}

// The LLM upstream hangs, resets connections, answers garbage or cuts a
// stream: each gets its documented error, and no goroutine or connection
// is left behind.
func TestUpstreamFaultsLeakNothing(t *testing.T) {
	var mode atomic.Value
	mode.Store("")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch mode.Load().(string) {
		case "hang":
			<-r.Context().Done()
		case "reset":
			if hj, ok := w.(http.Hijacker); ok {
				c, _, _ := hj.Hijack()
				if tc, ok := c.(*net.TCPConn); ok {
					_ = tc.SetLinger(0)
				}
				c.Close()
			}
		case "garbage":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte("<html>oops</html>"))
		case "truncated":
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = w.Write([]byte("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":1,\"output_tokens\":0}}}\n\n"))
		}
	})}
	go srv.Serve(ln) //nolint:errcheck
	defer srv.Close()
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("GATEWAY_UPSTREAM_URL", "http://"+ln.Addr().String()),
		apptest.WithEnv("GATEWAY_MODEL", "m"), apptest.WithEnv("GATEWAY_TIMEOUT", "500ms"), apptest.WithEnv("GATEWAY_STREAM_IDLE_TIMEOUT", "500ms"))
	s := env.Seed(t, "faults@example.com")
	c := env.Client()
	call := func(stream bool) *apptest.Response {
		body := `{"messages":[{"role":"user","content":"x"}]}`
		if stream {
			body = `{"messages":[{"role":"user","content":"x"}],"stream":true}`
		}
		return c.PostJSON("/gateway/v1/chat", body, "Authorization", "Bearer "+s.Key)
	}
	call(false) // warm the pools before counting goroutines
	before := runtime.NumGoroutine()
	for _, tc := range []struct {
		mode   string
		stream bool
		status int
		want   string
	}{
		{"hang", false, 504, "upstream_timeout"},
		{"reset", false, 502, "upstream_"},
		{"garbage", false, 502, "upstream_error"},
		{"truncated", true, 200, "event: error"},
		{"hang", true, 504, "upstream_timeout"},
	} {
		mode.Store(tc.mode)
		res := call(tc.stream)
		if res.StatusCode != tc.status || !strings.Contains(res.Body, tc.want) {
			t.Errorf("%s (stream %v): %d %s", tc.mode, tc.stream, res.StatusCode, res.Body)
		}
	}
	c.CloseIdleConnections()
	settled := apptest.Eventually(5*time.Second, func() bool { return runtime.NumGoroutine() <= before+2 })
	if after := runtime.NumGoroutine(); !settled {
		buf := make([]byte, 1<<20)
		t.Errorf("goroutines: %d before, %d after the faults\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
}

package app_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/apptest"
	"parapet/models"
)

// TestGracefulShutdown: when the process is told to stop, a request in
// flight still gets its full answer, new connections are refused, and Serve
// returns.
func TestGracefulShutdown(t *testing.T) {
	d := apptest.Databases(t)[0]
	cfg := apptest.Config(t, apptest.FreshDatabaseURL(t, d), apptest.WithEnv("SHUTDOWN_TIMEOUT", "5s"))
	env := apptest.Start(t, cfg)
	started, release := make(chan struct{}), make(chan struct{})
	env.App.Echo().GET("/test/slow", func(c echo.Context) error {
		close(started)
		<-release
		return c.String(http.StatusOK, "finished")
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- env.App.Serve(ctx, ln) }()

	type result struct {
		body string
		err  error
	}
	inflight := make(chan result, 1)
	go func() {
		res, err := http.Get("http://" + addr + "/test/slow")
		if err != nil {
			inflight <- result{err: err}
			return
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		inflight <- result{string(b), err}
	}()
	<-started
	stop() // what SIGTERM does in `parapet serve`
	// The request finishes only once shutdown has begun: the listener is
	// closed.
	apptest.WaitFor(t, 5*time.Second, "the listener closed", func() bool {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
		}
		return err != nil
	})
	close(release)

	r := <-inflight
	if r.err != nil || r.body != "finished" {
		t.Fatalf("the in-flight request got %q, %v; want its full answer", r.body, r.err)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve returned %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after shutdown")
	}
	if _, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		t.Error("new connections are still accepted after shutdown")
	}
}

// TestShutdownTimeout: a request that outlives the shutdown timeout does not
// hold the process forever.
func TestShutdownTimeout(t *testing.T) {
	d := apptest.Databases(t)[0]
	cfg := apptest.Config(t, apptest.FreshDatabaseURL(t, d), apptest.WithEnv("SHUTDOWN_TIMEOUT", "200ms"))
	env := apptest.Start(t, cfg)
	started := make(chan struct{})
	release := make(chan struct{})
	defer close(release)
	env.App.Echo().GET("/test/stuck", func(c echo.Context) error {
		close(started)
		<-release
		return nil
	})
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- env.App.Serve(ctx, ln) }()
	go http.Get("http://" + ln.Addr().String() + "/test/stuck") //nolint:errcheck
	<-started
	stop()
	select {
	case err := <-served:
		if err == nil {
			t.Error("Serve reported a clean stop although a request was cut off")
		}
	case <-time.After(3 * time.Second):
		t.Fatal("Serve waited past its shutdown timeout")
	}
}

// TestShutdownUnderLoad: SIGTERM while gateway calls stream in: calls in
// flight finish whole, new connections are refused cleanly, and every
// answered call has its audit record once the app has closed.
func TestShutdownUnderLoad(t *testing.T) {
	d := apptest.Databases(t)[0]
	cfg := apptest.Config(t, apptest.FreshDatabaseURL(t, d), apptest.WithEnv("SHUTDOWN_TIMEOUT", "10s"),
		apptest.WithEnv("GATEWAY_DEMO_WORD_DELAY", "2ms"), apptest.WithEnv("GATEWAY_RATE_LIMIT_PER_MINUTE", "100000"))
	env := apptest.Start(t, cfg)
	s := env.Seed(t, "sigterm@example.com")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- env.App.Serve(ctx, ln) }()

	var answered, broken, refused atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < 6; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := &http.Client{Timeout: 10 * time.Second}
			for i := 0; i < 200; i++ {
				req, _ := http.NewRequest("POST", base+"/gateway/v1/chat", strings.NewReader(`{"messages":[{"role":"user","content":"tell me"}],"stream":true,"max_tokens":30}`))
				req.Header.Set("Authorization", "Bearer "+s.Key)
				req.Header.Set("Content-Type", "application/json")
				res, err := client.Do(req)
				if err != nil {
					refused.Add(1) // after shutdown began: connection refused or closed
					return
				}
				b, err := io.ReadAll(res.Body)
				res.Body.Close()
				switch {
				case err == nil && res.StatusCode == 200 && strings.Contains(string(b), "event: message_stop"):
					answered.Add(1)
				default:
					broken.Add(1)
				}
			}
		}()
	}
	apptest.WaitFor(t, 10*time.Second, "calls answered before SIGTERM", func() bool { return answered.Load() >= 6 })
	stop() // what SIGTERM does
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	wg.Wait()
	env.App.Close() // writes the queued records, as `parapet serve` does on exit
	if broken.Load() > 0 {
		t.Errorf("%d responses were cut off or failed during shutdown", broken.Load())
	}
	var records int64
	env.DB.Model(&models.AuditEvent{}).Where("action = ? AND status = 200", models.ActionGatewayCall).Count(&records)
	if answered.Load() == 0 || records != answered.Load() {
		t.Errorf("%d calls answered, %d recorded", answered.Load(), records)
	}
	t.Logf("answered %d, refused after shutdown %d", answered.Load(), refused.Load())
}

package api_test

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/apptest"
	"parapet/app/loadtest"
)

// BenchmarkPublicAPI compares GET /v1/products through the whole app (key
// verification, rate limiting, the registry) with a bare Echo handler that
// returns the same body from memory, both over loopback in this run; a
// third server, the bare handler sending our headers too, splits what is
// left into the headers' cost and the chain's. All three get the same
// request, the key's Authorization header included (the bare ones ignore
// it): the client's work is then the same for each, and the ratios measure
// the servers alone. A baseline sent no header would bill the client's
// writing it, and the kernel's copying it, to the chain.
// Targets: at least 80% of the bare throughput; p99 under 5 ms at 1,000
// requests/s. The two are measured in alternating half-second rounds, so
// that other work on the machine weighs on both alike.
//
//	go test -run '^$' -bench PublicAPI ./app/api/
func BenchmarkPublicAPI(b *testing.B) {
	env := apptest.New(b, apptest.Databases(b)[0], apptest.WithEnv("RATE_LIMIT_PER_MINUTE", "10000000"))
	s := env.Seed(b, "bench@example.com")
	auth := map[string]string{"Authorization": "Bearer " + s.Key}
	url := env.URL("/v1/products")
	res, err := http.Get(url) // warm nothing; just check the route answers
	if err != nil {
		b.Fatal(err)
	}
	res.Body.Close()
	body, headers := fetch(b, url, auth)
	headers.Del("Date")
	headers.Del("Content-Length")

	bare := echo.New()
	bare.GET("/v1/products", func(c echo.Context) error { return c.JSONBlob(http.StatusOK, body) })
	bareSrv := httptest.NewServer(bare)
	defer bareSrv.Close()
	// The same bare handler sending our response's headers too (security
	// headers, rate limit, request id): what is left between it and us is
	// the chain's work, apart from what the headers cost on the wire.
	same := echo.New()
	same.GET("/v1/products", func(c echo.Context) error {
		maps.Copy(c.Response().Header(), headers)
		return c.JSONBlob(http.StatusOK, body)
	})
	sameSrv := httptest.NewServer(same)
	defer sameSrv.Close()

	const workers, dur, rounds = 8, 3 * time.Second, 6
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		var baseMax, sameMax, appMax loadtest.Result
		for r := 0; r < rounds; r++ {
			baseMax = sum(baseMax, loadtest.Closed(ctx, workers, dur/rounds, loadtest.Get(bareSrv.URL+"/v1/products", 200, auth)))
			sameMax = sum(sameMax, loadtest.Closed(ctx, workers, dur/rounds, loadtest.Get(sameSrv.URL+"/v1/products", 200, auth)))
			appMax = sum(appMax, loadtest.Closed(ctx, workers, dur/rounds, loadtest.Get(url, 200, auth)))
			env.Logs.Reset() // the app logs each request, as to stderr: not into an ever larger buffer
		}
		base1k := loadtest.Open(ctx, 1000, dur, loadtest.Get(bareSrv.URL+"/v1/products", 200, auth))
		app1k := loadtest.Open(ctx, 1000, dur, loadtest.Get(url, 200, auth))
		ratio := appMax.RPS() / baseMax.RPS()
		fmt.Printf("\nGET /v1/products with a key over loopback (%d workers, %s each in %d alternating rounds; every server gets the same request)\n", workers, dur, rounds)
		fmt.Printf("  bare echo handler  max  %s\n", baseMax)
		fmt.Printf("  bare, our headers  max  %s\n", sameMax)
		fmt.Printf("  parapet            max  %s\n", appMax)
		fmt.Printf("  throughput ratio parapet/bare: %.2f (target >= 0.80); bare with our headers/bare: %.2f; parapet/bare with our headers: %.2f\n",
			ratio, sameMax.RPS()/baseMax.RPS(), appMax.RPS()/sameMax.RPS())
		fmt.Printf("  bare echo handler  1k/s %s\n", base1k)
		fmt.Printf("  parapet            1k/s %s (target p99 < 5 ms)\n", app1k)
		b.ReportMetric(ratio, "throughput_ratio")
		b.ReportMetric(appMax.RPS(), "parapet_req/s")
		b.ReportMetric(baseMax.RPS(), "bare_req/s")
		b.ReportMetric(float64(app1k.P99.Microseconds())/1000, "p99_ms@1k/s")
		if appMax.Errors+app1k.Errors > 0 {
			b.Errorf("parapet answered %d requests with errors", appMax.Errors+app1k.Errors)
		}
	}
}

// sum adds up the rounds of a closed-loop load; its latencies are those of
// the slowest round's p50 and p99 (an upper bound).
func sum(total, round loadtest.Result) loadtest.Result {
	return loadtest.Result{Requests: total.Requests + round.Requests, Errors: total.Errors + round.Errors,
		Elapsed: total.Elapsed + round.Elapsed, P50: max(total.P50, round.P50), P99: max(total.P99, round.P99)}
}

func fetch(b *testing.B, url string, headers map[string]string) ([]byte, http.Header) {
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		b.Fatalf("status %d: %s", res.StatusCode, body)
	}
	return body, res.Header
}

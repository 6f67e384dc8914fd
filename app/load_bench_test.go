package app_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"parapet/app/apptest"
	"parapet/app/loadtest"
)

// BenchmarkSustainedLoad runs the product at a fixed request rate for a
// while with many keys — public API reads, tool calls and gateway calls
// mixed — and reports throughput, p50/p99 latency, errors (which must be
// zero) and the peak heap of the process (server and load generator share
// it). PARAPET_LOAD_DURATION (default 60s) and PARAPET_LOAD_RATE (default
// 200/s) size the run.
//
//	go test -run '^$' -bench SustainedLoad -benchtime 1x ./app/
func BenchmarkSustainedLoad(b *testing.B) {
	dur, rate := 60*time.Second, 200
	if v := os.Getenv("PARAPET_LOAD_DURATION"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			b.Fatal(err)
		}
		dur = d
	}
	if v := os.Getenv("PARAPET_LOAD_RATE"); v != "" {
		if _, err := fmt.Sscan(v, &rate); err != nil || rate < 1 {
			b.Fatalf("PARAPET_LOAD_RATE=%q is not a positive rate", v)
		}
	}
	env := apptest.New(b, apptest.Databases(b)[len(apptest.Databases(b))-1], apptest.WithEnv("GATEWAY_DEMO_WORD_DELAY", "0s"))
	const orgs, keysPerOrg = 40, 5
	var keys []string
	for o := 0; o < orgs; o++ {
		s := env.Seed(b, fmt.Sprintf("load%d@example.com", o))
		keys = append(keys, s.Key)
		for k := 1; k < keysPerOrg; k++ {
			key, _ := env.SeedKey(b, s.OrgID, fmt.Sprintf("k%d", k))
			keys = append(keys, key)
		}
	}
	// Half the requests read the public API: with 200 keys each key sees
	// about rate/2/200*60 of them a minute (30 at 200/s), well under its 60
	// per minute, so every request must succeed.
	var n atomic.Int64
	do := func(ctx context.Context, client *http.Client) error {
		i := n.Add(1)
		key := keys[rand.IntN(len(keys))]
		var req *http.Request
		switch i % 4 {
		case 0:
			req, _ = http.NewRequestWithContext(ctx, http.MethodPost, env.URL("/gateway/v1/chat"), strings.NewReader(`{"messages":[{"role":"user","content":"status?"}],"max_tokens":8}`))
			req.Header.Set("Content-Type", "application/json")
		case 1:
			req, _ = http.NewRequestWithContext(ctx, http.MethodPost, env.URL("/scan/v1/scan"), strings.NewReader(`{"resources":[{"type":"s3_bucket","name":"b","public_read":true}]}`))
			req.Header.Set("Content-Type", "application/json")
		default:
			req, _ = http.NewRequestWithContext(ctx, http.MethodGet, env.URL("/v1/products"), nil)
		}
		req.Header.Set("Authorization", "Bearer "+key)
		res, err := client.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		if res.StatusCode != 200 {
			return fmt.Errorf("%s %s: %d", req.Method, req.URL.Path, res.StatusCode)
		}
		return nil
	}
	for i := 0; i < b.N; i++ {
		var peak atomic.Uint64
		stop := make(chan struct{})
		go func() {
			var m runtime.MemStats
			for {
				runtime.ReadMemStats(&m)
				if m.HeapInuse > peak.Load() {
					peak.Store(m.HeapInuse)
				}
				select {
				case <-stop:
					return
				case <-time.After(100 * time.Millisecond):
				}
			}
		}()
		if perKey := float64(rate) / 2 / float64(len(keys)) * 60; perKey > 40 {
			b.Fatalf("%d req/s over %d keys is %.0f public API requests per key a minute: too close to the limit of 60", rate, len(keys), perKey)
		}
		res := loadtest.Open(context.Background(), rate, dur, do)
		close(stop)
		env.App.FlushAudit()
		fmt.Printf("\nSustained load: %d req/s for %s over %d keys in %d organizations (public API, scanner, gateway)\n", rate, dur, len(keys), orgs)
		fmt.Printf("  %s  peak heap in use %.1f MiB\n", res, float64(peak.Load())/(1<<20))
		b.ReportMetric(res.RPS(), "req/s")
		b.ReportMetric(float64(res.P50.Microseconds())/1000, "p50_ms")
		b.ReportMetric(float64(res.P99.Microseconds())/1000, "p99_ms")
		b.ReportMetric(float64(res.Errors), "errors")
		b.ReportMetric(float64(peak.Load())/(1<<20), "peak_heap_MiB")
		if res.Errors > 0 {
			b.Errorf("%d requests failed under sustained load", res.Errors)
		}
	}
}

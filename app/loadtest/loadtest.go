// Package loadtest drives HTTP load on loopback and reports throughput and
// latency percentiles. Benchmarks use it to compare Parapet with a baseline
// measured in the same run, so the figures are ratios, not absolute times
// that depend on the machine.
package loadtest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Result summarises one run.
type Result struct {
	Requests int
	Errors   int
	Elapsed  time.Duration
	P50, P99 time.Duration
}

// RPS is the achieved request rate.
func (r Result) RPS() float64 { return float64(r.Requests) / r.Elapsed.Seconds() }

func (r Result) String() string {
	return fmt.Sprintf("%8.0f req/s  p50 %7.3f ms  p99 %7.3f ms  errors %d/%d",
		r.RPS(), ms(r.P50), ms(r.P99), r.Errors, r.Requests)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Request makes one request; a non-nil error or an unexpected status
// counts as an error.
type Request func(ctx context.Context, client *http.Client) error

// Get returns a Request for GET url with headers, expecting status want.
func Get(url string, want int, headers map[string]string) Request {
	return func(ctx context.Context, client *http.Client) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		res, err := client.Do(req)
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != want {
			return fmt.Errorf("status %d", res.StatusCode)
		}
		return nil
	}
}

// Client is a keep-alive client sized for workers concurrent connections.
func Client(workers int) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = workers * 2
	t.MaxIdleConnsPerHost = workers * 2
	return &http.Client{Transport: t, Timeout: 10 * time.Second}
}

// Closed runs workers that each send requests back to back for d: the
// throughput the server sustains.
func Closed(ctx context.Context, workers int, d time.Duration, do Request) Result {
	client := Client(workers)
	defer client.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var mu sync.Mutex
	var lat []time.Duration
	var errs atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := make([]time.Duration, 0, 4096)
			for ctx.Err() == nil {
				t0 := time.Now()
				err := do(context.Background(), client)
				local = append(local, time.Since(t0))
				if err != nil {
					errs.Add(1)
				}
			}
			mu.Lock()
			lat = append(lat, local...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return summarise(lat, int(errs.Load()), time.Since(start))
}

// Sequential makes n requests one after another on one connection: the
// latency of an unloaded server.
func Sequential(ctx context.Context, n int, do Request) Result {
	client := Client(1)
	defer client.CloseIdleConnections()
	lat := make([]time.Duration, 0, n)
	errs := 0
	start := time.Now()
	for i := 0; i < n && ctx.Err() == nil; i++ {
		t0 := time.Now()
		if do(ctx, client) != nil {
			errs++
		}
		lat = append(lat, time.Since(t0))
	}
	return summarise(lat, errs, time.Since(start))
}

// Interleaved is Sequential for several targets at once: n rounds of one
// request to each, in turn, each target on its own connection, so that
// every target sees the same machine state and a drift in it (a
// collection, another process) weighs on all alike.
func Interleaved(ctx context.Context, n int, dos ...Request) []Result {
	clients := make([]*http.Client, len(dos))
	lat := make([][]time.Duration, len(dos))
	errs := make([]int, len(dos))
	for k := range dos {
		clients[k] = Client(1)
		defer clients[k].CloseIdleConnections()
		lat[k] = make([]time.Duration, 0, n)
	}
	start := time.Now()
	for i := 0; i < n && ctx.Err() == nil; i++ {
		for k, do := range dos {
			t0 := time.Now()
			if do(ctx, clients[k]) != nil {
				errs[k]++
			}
			lat[k] = append(lat[k], time.Since(t0))
		}
	}
	elapsed := time.Since(start)
	out := make([]Result, len(dos))
	for k := range dos {
		out[k] = summarise(lat[k], errs[k], elapsed)
	}
	return out
}

// Open sends requests at a fixed rate for d, each on its own goroutine,
// so a slow response does not slow the schedule (no coordinated
// omission): the latency a client sees at that load.
func Open(ctx context.Context, rate int, d time.Duration, do Request) Result {
	client := Client(64)
	defer client.CloseIdleConnections()
	n := int(float64(rate) * d.Seconds())
	interval := time.Second / time.Duration(rate)
	lat := make([]time.Duration, n)
	failed := make([]bool, n)
	var wg sync.WaitGroup
	start := time.Now()
	for i := 0; i < n && ctx.Err() == nil; i++ {
		if wait := time.Until(start.Add(time.Duration(i) * interval)); wait > 0 {
			time.Sleep(wait)
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			t0 := time.Now()
			failed[i] = do(ctx, client) != nil
			lat[i] = time.Since(t0)
		}(i)
	}
	wg.Wait()
	errs := 0
	for _, f := range failed {
		if f {
			errs++
		}
	}
	return summarise(lat, errs, time.Since(start))
}

func summarise(lat []time.Duration, errs int, elapsed time.Duration) Result {
	r := Result{Requests: len(lat), Errors: errs, Elapsed: elapsed}
	if len(lat) == 0 {
		return r
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	r.P50 = lat[len(lat)*50/100]
	r.P99 = lat[min(len(lat)-1, len(lat)*99/100)]
	return r
}

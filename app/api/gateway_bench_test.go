package api_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"parapet/app/apptest"
	"parapet/app/loadtest"
)

// BenchmarkGatewayAddedLatency measures, in one run on loopback against a
// fake upstream that answers at once, the latency of a non-streamed call
// made directly to the fake, through a bare httputil.ReverseProxy hop (the
// floor any proxy pays) and through the gateway (key check, rate limit,
// entitlement and quota, audit record), sequentially (the three in turn,
// call by call) and at 200 requests/s, and the time to first byte of a
// stream; and each path's throughput at 32 concurrent connections. The
// gateway routes by GATEWAY_CONFIG (a model with a fallback target, its
// breakers and prices in memory), as a deployment with several providers
// does. Targets: added p50 under 0.5 ms and p99 under 2 ms; the
// sequential added p50 at most 1.5x the bare hop's, and at 32
// connections at least 0.7x the hop's requests per second.
//
// The sequential run is repeated against an upstream that also sends the
// Messages API's documented answer headers, as the real provider does: the
// hop forwards them to its client, the gateway answers with its own. That
// ratio is printed beside the target's, which stays the bare upstream's.
//
//	go test -run '^$' -bench GatewayAddedLatency ./app/api/
func BenchmarkGatewayAddedLatency(b *testing.B) {
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if strings.Contains(r.Header.Get("Accept"), "text/event-stream") || r.URL.Query().Get("stream") == "1" {
			messagesSSE(w, []string{"Hi"})
			return
		}
		messagesJSON(w, "Hi", 3, 1)
	}))
	defer fake.Close()
	// The same answer with the headers the Messages API documents on every
	// answer: a bare hop forwards them to its client, the gateway does not.
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		h := w.Header()
		h.Set("request-id", "req_011CSLsW7mFqvHHnzrKdKjAE")
		h.Set("anthropic-organization-id", "36562039-1ae4-48e6-ae28-1e517e3d2d12")
		for _, limit := range []string{"requests", "tokens", "input-tokens", "output-tokens"} {
			h.Set("anthropic-ratelimit-"+limit+"-limit", "80000")
			h.Set("anthropic-ratelimit-"+limit+"-remaining", "79000")
			h.Set("anthropic-ratelimit-"+limit+"-reset", "2026-11-29T12:40:59Z")
		}
		messagesJSON(w, "Hi", 3, 1)
	}))
	defer provider.Close()
	routing := fmt.Sprintf("providers:\n  - {name: a, style: messages, url: %s, key: \"${BENCH_KEY}\"}\n  - {name: b, style: messages, url: %s, key: \"${BENCH_KEY}\"}\n"+
		"  - {name: c, style: messages, url: %s, key: \"${BENCH_KEY}\"}\n"+
		"models:\n  - name: m\n    targets: [{provider: a, model: claude-sonnet-4-5}, {provider: b, model: claude-haiku-4-5}]\n"+
		"  - name: h\n    targets: [{provider: c, model: claude-sonnet-4-5}]\n", fake.URL, fake.URL, provider.URL)
	env := apptest.New(b, apptest.Databases(b)[0],
		apptest.WithEnv("GATEWAY_CONFIG", routing), apptest.WithEnv("BENCH_KEY", "k"),
		apptest.WithEnv("GATEWAY_RATE_LIMIT_PER_MINUTE", "10000000"), apptest.WithEnv("GATEWAY_MONTHLY_TOKENS", "1000000000000"))
	s := env.Seed(b, "gwbench@example.com")
	hop, hopProvider := newHop(fake.URL), newHop(provider.URL)
	defer hop.Close()
	defer hopProvider.Close()

	postModel := func(u, model string, headers map[string]string, stream bool) loadtest.Request {
		body := `{"model":"` + model + `","max_tokens":16,"messages":[{"role":"user","content":"Hi"}]}`
		return func(ctx context.Context, client *http.Client) error {
			b := body
			if stream {
				b = strings.Replace(body, `"model"`, `"stream":true,"model"`, 1)
			}
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(b))
			req.Header.Set("Content-Type", "application/json")
			for k, v := range headers {
				req.Header.Set(k, v)
			}
			res, err := client.Do(req)
			if err != nil {
				return err
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != 200 {
				return fmt.Errorf("status %d", res.StatusCode)
			}
			return nil
		}
	}
	post := func(u string, headers map[string]string, stream bool) loadtest.Request {
		return postModel(u, "m", headers, stream)
	}
	auth := map[string]string{"Authorization": "Bearer " + s.Key}
	direct := post(fake.URL+"/v1/messages", nil, false)
	viaHop := post(hop.URL+"/v1/messages", nil, false)
	viaGateway := post(env.URL("/gateway/v1/messages"), auth, false)

	ctx := context.Background()
	const seq, rate, dur, conns = 2000, 200, 3 * time.Second, 32
	for i := 0; i < b.N; i++ {
		seqs := loadtest.Interleaved(ctx, seq, direct, viaHop, viaGateway)
		sd, sh, sg := seqs[0], seqs[1], seqs[2]
		seqs = loadtest.Interleaved(ctx, seq, postModel(provider.URL+"/v1/messages", "h", nil, false),
			postModel(hopProvider.URL+"/v1/messages", "h", nil, false), postModel(env.URL("/gateway/v1/messages"), "h", auth, false))
		pd, ph, pg := seqs[0], seqs[1], seqs[2]
		od, oh, og := loadtest.Open(ctx, rate, dur, direct), loadtest.Open(ctx, rate, dur, viaHop), loadtest.Open(ctx, rate, dur, viaGateway)
		ch, cg := loadtest.Closed(ctx, conns, dur, viaHop), loadtest.Closed(ctx, conns, dur, viaGateway)
		ttfbDirect := ttfb(b, fake.URL+"/v1/messages?stream=1", nil, 200)
		ttfbGateway := ttfb(b, env.URL("/gateway/v1/messages"), auth, 200)

		fmt.Printf("\nGateway added latency over a fake upstream that answers at once (non-streamed)\n")
		fmt.Printf("  %-22s %-34s %s\n", "", "sequential ("+fmt.Sprint(seq)+" calls)", fmt.Sprintf("%d req/s for %s", rate, dur))
		fmt.Printf("  %-22s p50 %7.3f ms  p99 %7.3f ms   p50 %7.3f ms  p99 %7.3f ms\n", "direct to upstream", ms(sd.P50), ms(sd.P99), ms(od.P50), ms(od.P99))
		fmt.Printf("  %-22s p50 %+7.3f ms  p99 %+7.3f ms   p50 %+7.3f ms  p99 %+7.3f ms  (added)\n", "bare ReverseProxy hop", ms(sh.P50-sd.P50), ms(sh.P99-sd.P99), ms(oh.P50-od.P50), ms(oh.P99-od.P99))
		fmt.Printf("  %-22s p50 %+7.3f ms  p99 %+7.3f ms   p50 %+7.3f ms  p99 %+7.3f ms  (added)\n", "parapet gateway", ms(sg.P50-sd.P50), ms(sg.P99-sd.P99), ms(og.P50-od.P50), ms(og.P99-od.P99))
		ratio := float64(sg.P50-sd.P50) / float64(max(sh.P50-sd.P50, time.Microsecond))
		fmt.Printf("  gateway/hop added p50 ratio: %.2f (target <= 1.5); targets: added p50 < 0.5 ms, p99 < 2 ms\n", ratio)
		withHeaders := float64(pg.P50-pd.P50) / float64(max(ph.P50-pd.P50, time.Microsecond))
		fmt.Printf("  with the Messages API's 14 documented answer headers (the hop forwards them): hop %+.3f ms, gateway %+.3f ms, ratio %.2f\n",
			ms(ph.P50-pd.P50), ms(pg.P50-pd.P50), withHeaders)
		throughput := cg.RPS() / max(ch.RPS(), 1)
		fmt.Printf("  %d connections: hop %s\n  %d connections: gateway %s\n", conns, ch, conns, cg)
		fmt.Printf("  gateway/hop throughput at %d connections: %.2f (target >= 0.7); p99 %+.3f ms over the hop's (target within 5 ms)\n",
			conns, throughput, ms(cg.P99-ch.P99))
		fmt.Printf("  stream time to first byte: direct %.3f ms, gateway %.3f ms (added %+.3f ms)\n", ms(ttfbDirect), ms(ttfbGateway), ms(ttfbGateway-ttfbDirect))
		b.ReportMetric(ms(sg.P50-sd.P50), "added_p50_ms")
		b.ReportMetric(ms(sg.P99-sd.P99), "added_p99_ms")
		b.ReportMetric(ratio, "gateway/hop")
		b.ReportMetric(withHeaders, "gateway/hop_provider_headers")
		b.ReportMetric(throughput, "throughput_ratio")
		if n := sg.Errors + og.Errors + cg.Errors + pg.Errors; n > 0 {
			b.Errorf("the gateway answered %d calls with errors", n)
		}
	}
}

// newHop is a bare httputil.ReverseProxy in front of upstream.
func newHop(upstream string) *httptest.Server {
	target, _ := url.Parse(upstream)
	return httptest.NewServer(httputil.NewSingleHostReverseProxy(target))
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// ttfb is the median time to the first byte of a streamed answer.
func ttfb(b *testing.B, u string, headers map[string]string, n int) time.Duration {
	client := loadtest.Client(1)
	defer client.CloseIdleConnections()
	var ds []time.Duration
	for i := 0; i < n; i++ {
		req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(`{"model":"m","max_tokens":16,"stream":true,"messages":[{"role":"user","content":"Hi"}]}`))
		req.Header.Set("Content-Type", "application/json")
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		t0 := time.Now()
		res, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := bufio.NewReader(res.Body).ReadByte(); err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(t0))
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2]
}

package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/redis/go-redis/v9"

	"parapet/app/apptest"
	"parapet/app/meter"
	"parapet/app/metrics"
	"parapet/models"
)

// cutStream starts a stream on the gateway, reads it until the last of
// the upstream's text deltas arrived, and leaves.
func cutStream(t *testing.T, env *apptest.Env, key, lastDelta string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", env.URL("/gateway/v1/messages"),
		strings.NewReader(`{"model":"claude-test","max_tokens":100,"stream":true,"messages":[{"role":"user","content":"x"}]}`))
	req.Header.Set("X-Api-Key", key)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var seen strings.Builder
	buf := make([]byte, 4096)
	for !strings.Contains(seen.String(), lastDelta) {
		n, err := res.Body.Read(buf)
		seen.Write(buf[:n])
		if err != nil {
			t.Fatalf("the stream ended before the last delta: %v\n%s", err, seen.String())
		}
	}
}

// deltaUpstream streams 9 text deltas, then waits for release (or its
// request's end) before message_delta.
func deltaUpstream(t *testing.T, release <-chan struct{}) *upstream {
	return newUpstream(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		w.Header().Set("Content-Type", "text/event-stream")
		f := w.(http.Flusher)
		send := func(ev, data string) {
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev, data)
			f.Flush()
		}
		send("message_start", `{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":7,"output_tokens":1}}}`)
		send("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
		for i := range 9 {
			send("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"d%d "}}`, i))
		}
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		send("content_block_stop", `{"type":"content_block_stop","index":0}`)
		send("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":9}}`)
		send("message_stop", `{"type":"message_stop"}`)
	})
}

// Clients that cut 4 streams after the last text delta, before
// message_delta, are metered for what they were delivered: the upstream is
// read to its end when it finishes within GATEWAY_DRAIN_TIMEOUT (its own
// usage), else the output is estimated from the text sent (flagged). Each
// call has exactly one record, client_closed_request.
func TestGatewayMetersCutStreams(t *testing.T) {
	for _, finishes := range []bool{true, false} {
		t.Run(map[bool]string{true: "upstream finishes", false: "upstream stalls"}[finishes], func(t *testing.T) {
			release := make(chan struct{})
			up := deltaUpstream(t, release)
			env, s := gatewayEnv(t, apptest.Databases(t)[0], up, apptest.WithEnv("GATEWAY_DRAIN_TIMEOUT", "300ms"))
			draining := metricValue(t, "parapet_gateway_draining_calls")
			for range 4 {
				cutStream(t, env, s.Key, `"d8 "`)
			}
			if finishes {
				// Once the gateway has seen the 4 clients leave.
				waitGauge(t, "parapet_gateway_draining_calls", 4)
				close(release)
			}
			evs := waitEvents(t, env, 4)
			var out int64
			for _, e := range evs {
				out += *e.OutputTokens
				if *e.Status != 499 || *e.ErrorCode != "client_closed_request" || *e.InputTokens != 7 {
					t.Errorf("record %+v", e)
				}
				if !finishes && (e.UsageFlag == nil || *e.UsageFlag != "estimated") {
					t.Errorf("an estimate not flagged: %+v", e)
				}
			}
			if len(evs) != 4 || out < 36/2 {
				t.Errorf("%d records, %d output tokens metered for 36 deltas delivered", len(evs), out)
			}
			if v := metricValue(t, "parapet_gateway_draining_calls"); v != draining {
				t.Errorf("%v calls still counted as draining once all are recorded, want %v", v, draining)
			}
		})
	}
}

// Clients that leave 4 non-streamed calls before the answer are metered
// too: the upstream's answer, when it comes within GATEWAY_DRAIN_TIMEOUT,
// gives the usage; else the call counts its worst case (the input estimate
// and max_tokens), flagged. Leaving just before the answer makes no call
// free, and an upstream that answers with an error bills nothing, as for
// a client that stayed.
func TestGatewayMetersLeftCalls(t *testing.T) {
	for _, upstreamEnd := range []string{"answers", "stalls", "fails"} {
		t.Run("upstream "+upstreamEnd, func(t *testing.T) {
			got, release := make(chan struct{}, 4), make(chan struct{})
			up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, _ map[string]any) {
				got <- struct{}{}
				select {
				case <-release:
					if upstreamEnd == "fails" {
						w.Header().Set("Content-Type", "application/json")
						w.WriteHeader(http.StatusBadRequest)
						fmt.Fprint(w, `{"type":"error","error":{"type":"invalid_request_error","message":"no"}}`)
						return
					}
					messagesJSON(w, "answer", 7, 50)
				case <-r.Context().Done():
				}
			})
			env, s := gatewayEnv(t, apptest.Databases(t)[0], up, apptest.WithEnv("GATEWAY_DRAIN_TIMEOUT", "300ms"))
			draining := metricValue(t, "parapet_gateway_draining_calls")
			for range 4 {
				ctx, cancel := context.WithCancel(context.Background())
				req, _ := http.NewRequestWithContext(ctx, "POST", env.URL("/gateway/v1/messages"),
					strings.NewReader(`{"model":"claude-test","max_tokens":100,"messages":[{"role":"user","content":"x"}]}`))
				req.Header.Set("X-Api-Key", s.Key)
				req.Header.Set("Content-Type", "application/json")
				done := make(chan struct{})
				go func() {
					defer close(done)
					if res, err := http.DefaultClient.Do(req); err == nil {
						res.Body.Close()
					}
				}()
				<-got // the upstream has the call: now the client leaves
				cancel()
				<-done
			}
			if upstreamEnd != "stalls" {
				waitGauge(t, "parapet_gateway_draining_calls", 4)
				close(release)
			}
			evs := waitEvents(t, env, 4)
			if len(evs) != 4 {
				t.Fatalf("%d records for 4 calls", len(evs))
			}
			if v := metricValue(t, "parapet_gateway_draining_calls"); v != draining {
				t.Errorf("%v calls still counted as draining once all are recorded, want %v", v, draining)
			}
			for _, e := range evs {
				if *e.Status != 499 || *e.ErrorCode != "client_closed_request" {
					t.Errorf("record %+v", e)
				}
				switch upstreamEnd {
				case "answers":
					if *e.InputTokens != 7 || *e.OutputTokens != 50 || e.UsageFlag != nil {
						t.Errorf("want the upstream's usage (7 in, 50 out): %+v", e)
					}
				case "stalls":
					if *e.OutputTokens != 100 || e.UsageFlag == nil || *e.UsageFlag != "estimated" {
						t.Errorf("want max_tokens, flagged estimated: %+v", e)
					}
				case "fails":
					if e.InputTokens != nil && *e.InputTokens+*e.OutputTokens != 0 || e.UsageFlag != nil {
						t.Errorf("want nothing metered for an upstream error: %+v", e)
					}
				}
			}
		})
	}
}

// 20 parallel calls of max_tokens 100 on a 200-token quota: each reserves
// its worst case before the upstream is called, so the month's usage ends
// at most one call's reservation over the quota, the counter equals the
// records, and no reservation is left once the calls are recorded.
func TestGatewayQuotaReservations(t *testing.T) {
	opts := []apptest.Option{apptest.WithEnv("GATEWAY_DEMO_WORD_DELAY", "0s"), apptest.WithEnv("GATEWAY_RATE_LIMIT_PER_MINUTE", "1000")}
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) { quotaHolds(t, env) }, opts...)
	if u := os.Getenv("TEST_REDIS_URL"); u != "" {
		// Reserved in Redis, under the application's REDIS_PREFIX.
		t.Run("redis", func(t *testing.T) {
			env := apptest.New(t, apptest.Databases(t)[0], append(opts, apptest.WithEnv("REDIS_URL", u))...)
			orgID := quotaHolds(t, env)
			opt, err := redis.ParseURL(u)
			if err != nil {
				t.Fatal(err)
			}
			rc := redis.NewClient(opt)
			defer rc.Close()
			keys, err := rc.Keys(context.Background(), env.Config.RedisPrefix+"parapet:quota:{"+orgID+":*").Result()
			if err != nil || len(keys) == 0 {
				t.Errorf("no quota keys under the prefix %q: %v %v", env.Config.RedisPrefix, keys, err)
			}
		})
	}
}

// quotaHolds makes 20 parallel calls of max_tokens 100 on a 200-token
// quota and checks what they used; it returns the organization's id.
func quotaHolds(t *testing.T, env *apptest.Env) string {
	t.Helper()
	s := env.Seed(t, "conc@example.com")
	ctx := context.Background()
	if err := models.SetEntitlement(ctx, env.DB.DB, s.OrgID, models.GatewayProductID, 200); err != nil {
		t.Fatal(err)
	}
	const body = `{"messages":[{"role":"user","content":"count my tokens please"}],"max_tokens":100}`
	const reservation = 22 + 16 + 100 // the input bound (22 bytes, 2×8 of framing) + max_tokens
	var wg sync.WaitGroup
	statuses := make([]*apptest.Response, 20)
	for i := range statuses {
		wg.Go(func() { statuses[i] = chat(env.Client(), s.Key, body) })
	}
	wg.Wait()
	ok := 0
	for _, res := range statuses {
		switch res.StatusCode {
		case 200:
			ok++
			if res.Header.Get("X-Quota-Limit") != "200" || res.Header.Get("X-Quota-Remaining") == "" || res.Header.Get("X-Quota-Reset") == "" {
				t.Errorf("quota headers %v", res.Header)
			}
		case 429:
			if !strings.Contains(res.Body, "quota_exceeded") {
				t.Errorf("429 %s", res.Body)
			}
		default:
			t.Errorf("unexpected %d %s", res.StatusCode, res.Body)
		}
	}
	var sum int64
	for _, e := range gatewayEvents(t, env) {
		if e.InputTokens != nil {
			sum += *e.InputTokens + *e.OutputTokens
		}
	}
	// What the calls left of their reservations goes back within
	// meter.LeaseWindow.
	var counter struct{ Tokens, Reserved int64 }
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for deadline := time.Now().Add(3 * meter.LeaseWindow); ; <-tick.C {
		env.App.FlushAudit()
		env.DB.Raw(`SELECT tokens, reserved FROM usage_counters WHERE org_id = ?`, s.OrgID).Scan(&counter)
		if counter.Reserved == 0 || time.Now().After(deadline) {
			break
		}
	}
	if counter.Tokens != sum || counter.Tokens > 200+reservation || counter.Reserved != 0 || ok == 0 {
		t.Errorf("%d calls passed; used %d (records %d) on a 200-token quota, %d still reserved", ok, counter.Tokens, sum, counter.Reserved)
	}
	return s.OrgID
}

// 40 parallel calls of 100 emoji each on a 3,000-token quota, from an
// upstream that counts 3 tokens an emoji (4 bytes), as real tokenizers
// roughly do: the reservation bounds each call's input (a token per byte),
// so the month's usage ends at most one reservation over the quota. With
// the estimate (bytes / 3) as the reservation, it ended twice over.
func TestGatewayQuotaHoldsEmoji(t *testing.T) {
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		content := body["messages"].([]any)[0].(map[string]any)["content"].(string)
		messagesJSON(w, "ok", 3*utf8.RuneCountInString(content), 5)
	})
	const quota, calls = 3000, 40
	const reservation = 400 + 16 + 10 // 100 emoji of 4 bytes, 2×8 of framing, max_tokens
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "emoji@example.com")
		if err := models.SetEntitlement(context.Background(), env.DB.DB, s.OrgID, models.GatewayProductID, quota); err != nil {
			t.Fatal(err)
		}
		body := `{"max_tokens":10,"messages":[{"role":"user","content":"` + strings.Repeat("\U0001F600", 100) + `"}]}`
		var wg sync.WaitGroup
		var ok atomic.Int32
		for range calls {
			wg.Go(func() {
				if res := chat(env.Client(), s.Key, body); res.StatusCode == 200 {
					ok.Add(1)
				} else if res.StatusCode != 429 {
					t.Errorf("%d %s", res.StatusCode, res.Body)
				}
			})
		}
		wg.Wait()
		env.App.FlushAudit()
		a, err := models.AllowanceOf(context.Background(), env.DB.DB, s.OrgID, models.GatewayProductID, models.Period(models.Now()))
		if err != nil {
			t.Fatal(err)
		}
		if ok.Load() == 0 || a.UsedTokens > quota+reservation {
			t.Errorf("%d calls passed; used %d tokens of a %d-token quota (at most one reservation, %d, over)", ok.Load(), a.UsedTokens, quota, reservation)
		}
	}, apptest.WithEnv("GATEWAY_UPSTREAM_URL", up.URL), apptest.WithEnv("GATEWAY_UPSTREAM_KEY", "sk-upstream-secret"),
		apptest.WithEnv("GATEWAY_MODEL", "claude-test"), apptest.WithEnv("GATEWAY_RATE_LIMIT_PER_MINUTE", "1000"))
}

// 40 parallel calls on a 3,000-token quota from an upstream that claims
// 100,000 input tokens for "Hello" (streamed or not): no text of 5 bytes
// holds that many, so the count is cut to what the call reserved (its
// input bound and max_tokens) and flagged, and the month's usage stays
// within the quota, in the database and in Redis. Before, every call
// spent 100,000 tokens.
func TestGatewayLyingUpstreamCannotSpendBeyondTheQuota(t *testing.T) {
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		if body["stream"] == true {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-test\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":100000,\"output_tokens\":1}}}\n\n"+
				"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"+
				"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"ok\"}}\n\n"+
				"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"+
				"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"input_tokens\":100000,\"output_tokens\":5}}\n\n"+
				"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
			return
		}
		messagesJSON(w, "ok", 100000, 5)
	})
	const quota, calls = 3000, 40
	check := func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "liar@example.com")
		if err := models.SetEntitlement(context.Background(), env.DB.DB, s.OrgID, models.GatewayProductID, quota); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var ok atomic.Int32
		for i := range calls {
			wg.Go(func() {
				body := fmt.Sprintf(`{"max_tokens":10,"stream":%t,"messages":[{"role":"user","content":"Hello"}]}`, i%2 == 0)
				if res := chat(env.Client(), s.Key, body); res.StatusCode == 200 {
					ok.Add(1)
				} else if res.StatusCode != 429 {
					t.Errorf("%d %s", res.StatusCode, res.Body)
				}
			})
		}
		wg.Wait()
		for _, e := range waitEvents(t, env, calls) {
			if e.InputTokens != nil && *e.InputTokens+*e.OutputTokens > 5+16+10 {
				t.Errorf("billed %d+%d tokens for %q, max_tokens 10", *e.InputTokens, *e.OutputTokens, "Hello")
			}
			if e.InputTokens != nil && *e.Status == 200 && (e.UsageFlag == nil || *e.UsageFlag != "clamped") {
				t.Errorf("a clamped count not flagged: %+v", e)
			}
		}
		a, err := models.AllowanceOf(context.Background(), env.DB.DB, s.OrgID, models.GatewayProductID, models.Period(models.Now()))
		if err != nil {
			t.Fatal(err)
		}
		if ok.Load() == 0 || a.UsedTokens > quota {
			t.Errorf("%d calls passed; used %d tokens of a %d-token quota", ok.Load(), a.UsedTokens, quota)
		}
	}
	opts := []apptest.Option{apptest.WithEnv("GATEWAY_UPSTREAM_URL", up.URL), apptest.WithEnv("GATEWAY_UPSTREAM_KEY", "sk-upstream-secret"),
		apptest.WithEnv("GATEWAY_MODEL", "claude-test"), apptest.WithEnv("GATEWAY_RATE_LIMIT_PER_MINUTE", "1000")}
	apptest.EachDB(t, check, opts...)
	if u := os.Getenv("TEST_REDIS_URL"); u != "" {
		t.Run("redis", func(t *testing.T) {
			check(t, apptest.New(t, apptest.Databases(t)[0], append(opts, apptest.WithEnv("REDIS_URL", u))...))
		})
	}
}

// A hold left by an instance that crashed before recording its call
// expires and stops taking room.
func TestGatewayExpiredHoldsAreReleased(t *testing.T) {
	env, s := gatewayEnv(t, apptest.Databases(t)[0], nil)
	ctx := context.Background()
	if err := models.SetEntitlement(ctx, env.DB.DB, s.OrgID, models.GatewayProductID, 100); err != nil {
		t.Fatal(err)
	}
	crashed := models.Hold{ID: "hold_crashed", OrgID: s.OrgID, ProductID: models.GatewayProductID, Period: models.Period(time.Now()),
		Tokens: 95, ExpiresAt: time.Now().Add(-time.Second)}
	if _, err := models.ReserveQuota(ctx, env.DB.DB, crashed, 100); err != nil {
		t.Fatal(err)
	}
	if res := chat(env.Client(), s.Key, `{"messages":[{"role":"user","content":"hi"}],"max_tokens":20}`); res.StatusCode != 200 {
		t.Errorf("after an expired hold: %d %s", res.StatusCode, res.Body)
	}
}

// Calls refused before any key is known write no audit row each: 150 of
// them add at most a handful of rows, and all are counted in the metric.
func TestGatewayRefusedAnonymousAreSampled(t *testing.T) {
	env, _ := gatewayEnv(t, apptest.Databases(t)[0], nil, apptest.WithEnv("GATEWAY_RATE_LIMIT_PER_MINUTE", "1000"))
	before := metricValue(t, "parapet_gateway_refused_anonymous_total")
	c := env.Client()
	for i := range 150 {
		if res := chat(c, fmt.Sprintf("ppk_wrong%d", i), `{"messages":[{"role":"user","content":"x"}]}`); res.StatusCode != 401 {
			t.Fatalf("bad key: %d", res.StatusCode)
		}
	}
	if n := len(gatewayEvents(t, env)); n > 10 {
		t.Errorf("150 refused anonymous calls wrote %d audit rows", n)
	}
	if d := metricValue(t, "parapet_gateway_refused_anonymous_total") - before; d < 150 {
		t.Errorf("the metric counted %v refusals", d)
	}
}

// A stalled upstream ends every kind of call within its deadline, with a
// clear error (JSON before a stream, an error event inside one), audited.
func TestGatewayStalledUpstream(t *testing.T) {
	var mid atomic.Bool // stall after the first event, not before it
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		if mid.Load() {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-test\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":3,\"output_tokens\":0}}}\n\n")
			w.(http.Flusher).Flush()
		}
		<-r.Context().Done()
	})
	const deadline = 400 * time.Millisecond
	env, s := gatewayEnv(t, apptest.Databases(t)[0], up, apptest.WithEnv("GATEWAY_TIMEOUT", deadline.String()),
		apptest.WithEnv("GATEWAY_FIRST_BYTE_TIMEOUT", deadline.String()), apptest.WithEnv("GATEWAY_STREAM_IDLE_TIMEOUT", deadline.String()))
	c := env.Client()
	calls := 0
	for _, path := range []string{"/gateway/v1/chat", "/gateway/v1/messages"} {
		for _, tc := range []struct {
			stream, mid bool
		}{{false, false}, {true, false}, {true, true}} {
			mid.Store(tc.mid)
			body := fmt.Sprintf(`{"model":"claude-test","max_tokens":10,"stream":%t,"messages":[{"role":"user","content":"x"}]}`, tc.stream)
			start := time.Now()
			res := c.PostJSON(path, body, "Authorization", "Bearer "+s.Key)
			calls++
			if d := time.Since(start); d > deadline+2*time.Second {
				t.Errorf("%s %+v took %s", path, tc, d)
			}
			switch {
			case tc.mid:
				if res.StatusCode != 200 || !strings.Contains(res.Body, "event: error") || !strings.Contains(res.Body, `"code":"upstream_timeout"`) {
					t.Errorf("%s stalled mid-stream: %d %s", path, res.StatusCode, res.Body)
				}
			default:
				if res.StatusCode != 504 || !strings.Contains(res.Body, `"code":"upstream_timeout"`) {
					t.Errorf("%s %+v: %d %s", path, tc, res.StatusCode, res.Body)
				}
			}
		}
	}
	evs := gatewayEvents(t, env)
	for _, e := range evs {
		if *e.Status != 504 || *e.ErrorCode != "upstream_timeout" {
			t.Errorf("record %+v", e)
		}
	}
	if len(evs) != calls {
		t.Errorf("%d records for %d calls", len(evs), calls)
	}
}

// The upstream is not trusted: impossible usage is clamped and flagged,
// runs of its key are scrubbed from what the client gets, and control
// characters in recorded fields are refused before it is called.
func TestGatewayDistrustsUpstream(t *testing.T) {
	var mode atomic.Value
	mode.Store("usage")
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		if mode.Load() == "leak" {
			w.WriteHeader(400)
			fmt.Fprint(w, `{"type":"error","error":{"type":"invalid_request_error","message":"bad request for key upstream-sec…"}}`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":2.5,"output_tokens":3.5}}`)
	})
	env, s := gatewayEnv(t, apptest.Databases(t)[0], up)
	c := env.Client()
	if res := chat(c, s.Key, `{"messages":[{"role":"user","content":"x"}]}`); res.StatusCode != 200 || !strings.Contains(res.Body, `"usage":{"input_tokens":3,"output_tokens":4}`) {
		t.Errorf("clamped usage: %d %s", res.StatusCode, res.Body)
	}
	mode.Store("leak")
	if res := chat(c, s.Key, `{"messages":[{"role":"user","content":"x"}]}`); res.StatusCode != 502 || strings.Contains(res.Body, "upstream-sec") {
		t.Errorf("a run of the upstream key was forwarded: %s", res.Body)
	}
	up.mu.Lock()
	calls := len(up.bodies)
	up.mu.Unlock()
	for _, body := range []string{
		`{"model":"claude\u0000test","messages":[{"role":"user","content":"x"}]}`,
		`{"messages":[{"role":"user","content":"x"}],"metadata":{"user_id":"u\u001b[31m"}}`,
		// Format characters and line separators, which unicode.IsControl
		// misses, are refused the same.
		`{"model":"claude\u202etset","messages":[{"role":"user","content":"x"}]}`,
		`{"messages":[{"role":"user","content":"x"}],"metadata":{"user_id":"u\u200b1"}}`,
		`{"messages":[{"role":"user","content":"x"}],"metadata":{"user_id":"u\u2028FAKE LINE"}}`,
	} {
		// A NUL is refused by the JSON check of every API, other control
		// characters by the gateway's own.
		if res := chat(c, s.Key, body); res.StatusCode != 400 || !(strings.Contains(res.Body, "control characters") || strings.Contains(res.Body, "NUL character")) {
			t.Errorf("control characters: %d %s", res.StatusCode, res.Body)
		}
	}
	up.mu.Lock()
	if len(up.bodies) != calls {
		t.Error("a request with control characters reached the upstream")
	}
	up.mu.Unlock()
	evs := gatewayEvents(t, env)
	if evs[0].UsageFlag == nil || *evs[0].UsageFlag != "clamped" || *evs[0].InputTokens != 3 || *evs[0].OutputTokens != 4 {
		t.Errorf("clamped record %+v", evs[0])
	}
	for _, e := range evs {
		if e.Model != nil && strings.ContainsRune(*e.Model, 0) {
			t.Errorf("a NUL reached the audit record: %q", *e.Model)
		}
	}
}

// POST /gateway/v1/chat/completions speaks OpenAI's Chat Completions.
func TestGatewayChatCompletions(t *testing.T) {
	env, s := gatewayEnv(t, apptest.Databases(t)[0], nil)
	c := env.Client()
	res := c.PostJSON("/gateway/v1/chat/completions", `{"model":"parapet-demo","max_completion_tokens":5,"messages":[{"role":"system","content":"be brief"},{"role":"user","content":[{"type":"text","text":"hi"}]}]}`, bearer(s.Key)...)
	var cc struct {
		Object  string
		Choices []struct {
			Message      struct{ Role, Content string }
			FinishReason string `json:"finish_reason"`
		}
		Usage struct{ PromptTokens, CompletionTokens, TotalTokens int } `json:"usage"`
	}
	res.JSON(t, &cc)
	if res.StatusCode != 200 || cc.Object != "chat.completion" || cc.Choices[0].Message.Role != "assistant" || cc.Choices[0].FinishReason != "length" ||
		!strings.Contains(res.Body, `"completion_tokens":5`) || !strings.Contains(res.Header.Get("Server-Timing"), "upstream;dur=") {
		t.Errorf("completion: %d %s %v", res.StatusCode, res.Body, res.Header)
	}
	res = c.PostJSON("/gateway/v1/chat/completions", `{"model":"parapet-demo","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`, bearer(s.Key)...)
	if !strings.Contains(res.Body, `"object":"chat.completion.chunk"`) || !strings.Contains(res.Body, `"finish_reason":"stop"`) ||
		!strings.Contains(res.Body, `"prompt_tokens":1`) || !strings.HasSuffix(strings.TrimSpace(res.Body), "data: [DONE]") ||
		!strings.HasPrefix(res.Header.Get("Server-Timing"), "gateway;dur=") || res.Header.Get("X-Quota-Remaining") == "" {
		t.Errorf("stream: %s %v", res.Body, res.Header)
	}
	res = c.PostJSON("/gateway/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"x"}]}`, bearer("ppk_wrong")...)
	if res.StatusCode != 401 || !strings.Contains(res.Body, `"type":"authentication_error"`) || !strings.Contains(res.Body, `"code":"invalid_api_key"`) ||
		!strings.Contains(res.Body, `"request_id":"req_`) {
		t.Errorf("bad key: %d %s", res.StatusCode, res.Body)
	}
	res = c.PostJSON("/gateway/v1/chat/completions", `{"model":"m","tools":[{"type":"custom","custom":{"name":"f"}}],"messages":[{"role":"user","content":"x"}]}`, bearer(s.Key)...)
	if res.StatusCode != 400 || !strings.Contains(res.Body, `tools[0].type \"custom\" is not supported`) || !strings.Contains(res.Body, `"type":"invalid_request_error"`) {
		t.Errorf("tools: %d %s", res.StatusCode, res.Body)
	}
}

// count_tokens forwards to a Messages upstream and is never billed; the
// model list has both SDKs' fields.
func TestGatewayCountTokensAndModels(t *testing.T) {
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		if r.URL.Path == "/v1/messages/count_tokens" && r.Header.Get("Anthropic-Beta") == "b1" {
			w.Header().Set("Content-Type", "application/json")
			// A format's schema and thinking are input the provider
			// counts: they must reach it.
			oc, _ := body["output_config"].(map[string]any)
			th, _ := body["thinking"].(map[string]any)
			if oc["format"] != nil && th["type"] != nil {
				io.WriteString(w, `{"input_tokens":99}`)
				return
			}
			io.WriteString(w, `{"input_tokens":42}`)
			return
		}
		http.Error(w, "no", 404)
	})
	env, s := gatewayEnv(t, apptest.Databases(t)[0], up)
	c := env.Client()
	res := c.PostJSON("/gateway/v1/messages/count_tokens", `{"model":"claude-test","messages":[{"role":"user","content":"hello"}]}`, "X-Api-Key", s.Key, "Anthropic-Beta", "b1")
	if res.StatusCode != 200 || res.Body != `{"input_tokens":42}`+"\n" || res.Header.Get("X-Token-Count") != "upstream" {
		t.Errorf("count_tokens: %d %q %v", res.StatusCode, res.Body, res.Header.Get("X-Token-Count"))
	}
	res = c.PostJSON("/gateway/v1/messages/count_tokens", `{"model":"claude-test","messages":[{"role":"user","content":"hello"}],`+
		`"thinking":{"type":"enabled","budget_tokens":2048},"output_config":{"format":{"type":"json_schema","schema":{"type":"object"}}}}`, "X-Api-Key", s.Key, "Anthropic-Beta", "b1")
	if res.StatusCode != 200 || res.Body != `{"input_tokens":99}`+"\n" {
		t.Errorf("count_tokens with a format and thinking: %d %q", res.StatusCode, res.Body)
	}
	res = c.PostJSON("/gateway/v1/messages/count_tokens", `{"model":"claude-test","messages":[{"role":"user","content":"hello"}]}`, "X-Api-Key", s.Key)
	if res.StatusCode != 200 || res.Header.Get("X-Token-Count") != "estimated" {
		t.Errorf("estimated count_tokens: %d %s", res.StatusCode, res.Body)
	}
	if n := len(gatewayEvents(t, env)); n != 0 {
		t.Errorf("counting wrote %d gateway.call records", n)
	}
	res = c.Get("/gateway/v1/models", "X-Api-Key", s.Key)
	for _, want := range []string{`"object":"list"`, `"id":"claude-test"`, `"type":"model"`, `"object":"model"`, `"display_name":"claude-test"`, `"has_more":false`, `"first_id":"claude-test"`, `"last_id":"claude-test"`, `"created_at":"`} {
		if !strings.Contains(res.Body, want) {
			t.Errorf("models lacks %s: %s", want, res.Body)
		}
	}
	// One model, as the list has it; any other is 404 in Anthropic's shape.
	var list struct{ Data []json.RawMessage }
	res.JSON(t, &list)
	if res := c.Get("/gateway/v1/models/claude-test", "X-Api-Key", s.Key); res.StatusCode != 200 || strings.TrimSpace(res.Body) != string(list.Data[0]) {
		t.Errorf("models/claude-test: %d %s, want %s", res.StatusCode, res.Body, list.Data[0])
	}
	for _, id := range []string{"other", "claude-test%2Fx", "claude%20test"} {
		res := c.Get("/gateway/v1/models/"+id, "X-Api-Key", s.Key)
		if res.StatusCode != 404 || !strings.Contains(res.Body, `"type":"not_found_error"`) || res.Header.Get("Request-Id") == "" {
			t.Errorf("models/%s: %d %s", id, res.StatusCode, res.Body)
		}
	}
	if res := c.Get("/gateway/v1/models/claude-test"); res.StatusCode != 401 {
		t.Errorf("models/claude-test without a key: %d", res.StatusCode)
	}
}

// metricValue reads a series without labels as /metrics would serve it.
func metricValue(t *testing.T, name string) float64 {
	mfs, err := metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name {
			m := mf.GetMetric()[0]
			return m.GetCounter().GetValue() + m.GetGauge().GetValue()
		}
	}
	t.Fatalf("%s is not registered", name)
	return 0
}

// waitGauge waits until a gauge reaches want.
func waitGauge(t *testing.T, name string, want float64) {
	t.Helper()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for deadline := time.Now().Add(5 * time.Second); metricValue(t, name) < want; <-tick.C {
		if time.Now().After(deadline) {
			t.Fatalf("%s stayed at %v, below %v", name, metricValue(t, name), want)
		}
	}
}

// An upstream whose message_start claims 10^12 input tokens, then fails:
// the client is told the checked count, the record has it flagged, and
// the month's counter stays small, so the next call is not refused for
// quota.
func TestGatewayChecksStartUsage(t *testing.T) {
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		if body["stream"] != true {
			messagesJSON(w, "ok", 3, 1)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-test\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":1e12,\"output_tokens\":1}}}\n\n")
		fmt.Fprint(w, "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n")
	})
	env, s := gatewayEnv(t, apptest.Databases(t)[0], up)
	c := env.Client()
	res := c.PostJSON("/gateway/v1/messages", `{"model":"claude-test","max_tokens":100,"stream":true,"messages":[{"role":"user","content":"Hello"}]}`, "X-Api-Key", s.Key)
	if res.StatusCode != 200 || strings.Contains(res.Body, "2147483647") || !strings.Contains(res.Body, `"input_tokens":6,`) {
		t.Errorf("the client was told: %d %s", res.StatusCode, res.Body)
	}
	evs := waitEvents(t, env, 1)
	if len(evs) != 1 || *evs[0].InputTokens != 6 || evs[0].UsageFlag == nil || *evs[0].UsageFlag != "clamped" {
		t.Fatalf("records %+v", evs)
	}
	a, err := models.AllowanceOf(context.Background(), env.DB.DB, s.OrgID, models.GatewayProductID, models.Period(models.Now()))
	if err != nil {
		t.Fatal(err)
	}
	if a.UsedTokens != 7 {
		t.Errorf("the month's counter is at %d, want 7 (6 in, 1 out)", a.UsedTokens)
	}
	if res := chat(c, s.Key, `{"messages":[{"role":"user","content":"x"}],"max_tokens":10}`); res.StatusCode != 200 {
		t.Errorf("the next call: %d %s", res.StatusCode, res.Body)
	}
}

// An upstream that names its model with a NUL, escapes and a newline, or
// with 100,000 characters: the client gets, and the record keeps, a safe
// name of at most 256 characters, and every call is recorded and metered
// on every database (Postgres refused the NUL, and the record and its
// usage were skipped).
func TestGatewayCleansUpstreamModelNames(t *testing.T) {
	for _, d := range apptest.Databases(t) {
		t.Run(d.Name, func(t *testing.T) {
			var model atomic.Value
			up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
				m, _ := json.Marshal(model.Load().(string)) // Go's %q is not JSON
				if body["stream"] != true {
					w.Header().Set("Content-Type", "application/json")
					fmt.Fprintf(w, `{"id":"msg_\u0000x","type":"message","role":"assistant","model":%s,"content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":2}}`, m)
					return
				}
				w.Header().Set("Content-Type", "text/event-stream")
				fmt.Fprintf(w, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"model\":%s,\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}\n\n", m)
				for _, ev := range []string{
					`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
					`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}`,
					`{"type":"content_block_stop","index":0}`,
					`{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":2}}`,
					`{"type":"message_stop"}`,
				} {
					var typ struct{ Type string }
					_ = json.Unmarshal([]byte(ev), &typ)
					fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ.Type, ev)
				}
			})
			env, s := gatewayEnv(t, d, up)
			c := env.Client()
			calls := 0
			for _, m := range []string{"evil\u0000\u001b[31mRED\u001b[0m\nFAKE LOG LINE", strings.Repeat("m", 100_000)} {
				model.Store(m)
				for _, stream := range []bool{false, true} {
					res := c.PostJSON("/gateway/v1/messages", fmt.Sprintf(`{"model":"claude-test","max_tokens":10,"stream":%t,"messages":[{"role":"user","content":"x"}]}`, stream), "X-Api-Key", s.Key)
					calls++
					if res.StatusCode != 200 || strings.Contains(res.Body, `\u0000`) || strings.Contains(res.Body, `\u001b`) || strings.Contains(res.Body, "m\\nFAKE") || len(res.Body) > 4000 {
						t.Errorf("stream %t: %d %.300s", stream, res.StatusCode, res.Body)
					}
				}
			}
			evs := waitEvents(t, env, calls)
			var sum int64
			for _, e := range evs {
				sum += *e.InputTokens + *e.OutputTokens
				if e.Model == nil || utf8.RuneCountInString(*e.Model) > 256 || strings.ContainsAny(*e.Model, "\x00\x1b\n") {
					t.Errorf("recorded model %.80q", *e.Model)
				}
			}
			a, err := models.AllowanceOf(context.Background(), env.DB.DB, s.OrgID, models.GatewayProductID, models.Period(models.Now()))
			if err != nil {
				t.Fatal(err)
			}
			if len(evs) != calls || a.UsedTokens != sum || sum != int64(calls*5) {
				t.Errorf("%d records for %d calls; the month's counter %d, the records %d", len(evs), calls, a.UsedTokens, sum)
			}
		})
	}
}

// Answers without usage are not free: no usage, null or negative counts,
// an OpenAI-style answer or stream without a usage chunk are metered at
// the input estimate and, from the text delivered, the output's, flagged
// "estimated"; the client is told those counts.
func TestGatewayEstimatesUnreportedUsage(t *testing.T) {
	var style atomic.Value
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		switch st := style.Load().(string); {
		case st == "openai" && body["stream"] == true:
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, `data: {"id":"c","object":"chat.completion.chunk","model":"gpt","choices":[{"index":0,"delta":{"role":"assistant","content":"lots of text "},"finish_reason":null}]}`+"\n\n")
			fmt.Fprint(w, `data: {"id":"c","object":"chat.completion.chunk","model":"gpt","choices":[{"index":0,"delta":{"content":"that cost tokens"},"finish_reason":"stop"}]}`+"\n\n")
			fmt.Fprint(w, "data: [DONE]\n\n")
		case st == "openai":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"id":"c","object":"chat.completion","model":"gpt","choices":[{"index":0,"message":{"role":"assistant","content":"lots of text that cost tokens"},"finish_reason":"stop"}]}`)
		default:
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"id":"m","type":"message","role":"assistant","model":"claude-test","content":[{"type":"text","text":"lots of text that cost tokens"}],"stop_reason":"end_turn","stop_sequence":null%s}`, st)
		}
	})
	// "lots of text that cost tokens": 29 bytes, 10 tokens; the prompt
	// "Hello": 6.
	for _, tc := range []struct{ name, upstream, style, path, body, told string }{
		{"no usage", "", "messages", "/gateway/v1/chat", `{"messages":[{"role":"user","content":"Hello"}]}`, `"usage":{"input_tokens":6,"output_tokens":10}`},
		{"null counts", `,"usage":{"input_tokens":null,"output_tokens":null}`, "messages", "/gateway/v1/chat", `{"messages":[{"role":"user","content":"Hello"}]}`, `"usage":{"input_tokens":6,"output_tokens":10}`},
		{"negative counts", `,"usage":{"input_tokens":-5,"output_tokens":-7}`, "messages", "/gateway/v1/chat", `{"messages":[{"role":"user","content":"Hello"}]}`, `"usage":{"input_tokens":6,"output_tokens":10}`},
		{"openai answer", "openai", "openai", "/gateway/v1/chat/completions", `{"messages":[{"role":"user","content":"Hello"}]}`, `"prompt_tokens":6,"completion_tokens":10`},
		{"openai stream", "openai", "openai", "/gateway/v1/chat/completions", `{"stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"Hello"}]}`, `"prompt_tokens":6,"completion_tokens":10`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			style.Store(tc.upstream)
			env, s := gatewayEnv(t, apptest.Databases(t)[0], up, apptest.WithEnv("GATEWAY_UPSTREAM_STYLE", tc.style))
			res := env.Client().PostJSON(tc.path, tc.body, bearer(s.Key)...)
			if res.StatusCode != 200 || !strings.Contains(res.Body, tc.told) {
				t.Errorf("the client was told: %d %s", res.StatusCode, res.Body)
			}
			evs := waitEvents(t, env, 1)
			if len(evs) != 1 || *evs[0].InputTokens != 6 || *evs[0].OutputTokens != 10 || evs[0].UsageFlag == nil || *evs[0].UsageFlag != "estimated" {
				t.Fatalf("records %+v", evs)
			}
			a, err := models.AllowanceOf(context.Background(), env.DB.DB, s.OrgID, models.GatewayProductID, models.Period(models.Now()))
			if err != nil || a.UsedTokens != 16 {
				t.Errorf("the month's counter is at %d (%v), want 16", a.UsedTokens, err)
			}
		})
	}
}

// An upstream that streams its key in deltas of 4 bytes, each of which
// passes the scrubber alone: joined, the text a client receives holds
// [redacted] where the key was, in the Messages and Chat Completions
// dialects, and the audit keeps the same.
func TestGatewayScrubsAKeySplitAcrossDeltas(t *testing.T) {
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		text := "leaked sk-upstream-secret there"
		var parts []string
		for ; text != ""; text = text[min(4, len(text)):] {
			parts = append(parts, text[:min(4, len(text))])
		}
		messagesSSE(w, parts)
	})
	env, s := gatewayEnv(t, apptest.Databases(t)[0], up, apptest.WithEnv("GATEWAY_LOG_CONTENT", "true"))
	c := env.Client()
	for _, path := range []string{"/gateway/v1/messages", "/gateway/v1/chat/completions"} {
		res := c.PostJSON(path, `{"model":"claude-test","max_tokens":100,"stream":true,"messages":[{"role":"user","content":"x"}]}`, bearer(s.Key)...)
		var text strings.Builder
		deltas := 0
		for _, line := range strings.Split(res.Body, "\n") {
			data, ok := strings.CutPrefix(line, "data: ")
			if !ok || data == "[DONE]" {
				continue
			}
			var ev struct {
				Delta   struct{ Text string }
				Choices []struct{ Delta struct{ Content *string } }
			}
			if err := json.Unmarshal([]byte(data), &ev); err != nil {
				t.Fatalf("%s: %v in %s", path, err, data)
			}
			text.WriteString(ev.Delta.Text)
			if len(ev.Choices) > 0 && ev.Choices[0].Delta.Content != nil {
				text.WriteString(*ev.Choices[0].Delta.Content)
			}
			if strings.Contains(data, `"text_delta"`) {
				deltas++
			}
		}
		if text.String() != "leaked [redacted] there" || strings.Contains(res.Body, "secr") {
			t.Errorf("%s: the client got %q\n%s", path, text.String(), res.Body)
		}
		if path == "/gateway/v1/messages" && (deltas < 8 || deltas > 9) {
			t.Errorf("%d deltas for the upstream's 8", deltas)
		}
	}
	for _, e := range waitEvents(t, env, 2) {
		if e.Detail == nil || strings.Contains(*e.Detail, "secret") || !strings.Contains(*e.Detail, "leaked [redacted] there") {
			t.Errorf("recorded content %v", e.Detail)
		}
	}
}

// A stream that fails after 9 text deltas, its client still there, is
// metered by what was delivered ("d0 " to "d8 ": 9 tokens), not by
// message_start's single output token, flagged "estimated"; when the
// upstream had reported more, its report stands, unflagged.
func TestGatewayMetersFailedStreamsByWhatWasDelivered(t *testing.T) {
	for _, startOutput := range []int{1, 50} {
		t.Run(fmt.Sprintf("message_start output %d", startOutput), func(t *testing.T) {
			up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
				w.Header().Set("Content-Type", "text/event-stream")
				send := func(ev, data string) { fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev, data) }
				send("message_start", fmt.Sprintf(`{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":7,"output_tokens":%d}}}`, startOutput))
				send("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
				for i := range 9 {
					send("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"d%d "}}`, i))
				}
				send("error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
			})
			env, s := gatewayEnv(t, apptest.Databases(t)[0], up)
			res := env.Client().PostJSON("/gateway/v1/messages", `{"model":"claude-test","max_tokens":100,"stream":true,"messages":[{"role":"user","content":"x"}]}`, "X-Api-Key", s.Key)
			if !strings.Contains(res.Body, `"text":"d8 "`) || !strings.Contains(res.Body, "event: error") {
				t.Fatalf("stream: %s", res.Body)
			}
			evs := waitEvents(t, env, 1)
			e := evs[0]
			wantOut, flagged := int64(9), true
			if startOutput > 9 {
				wantOut, flagged = int64(startOutput), false
			}
			if len(evs) != 1 || *e.Status != 503 || *e.InputTokens != 7 || *e.OutputTokens != wantOut || (e.UsageFlag != nil) != flagged ||
				(flagged && *e.UsageFlag != "estimated") {
				t.Errorf("record %+v (flag %v), want output %d, flagged %t", e, e.UsageFlag, wantOut, flagged)
			}
		})
	}
}

// A call's record is dated when the call ends, not when the recorder's
// batch reaches the database (up to its linger later): the request log
// and its CSV show when each call happened.
func TestGatewayRecordIsDatedByTheCall(t *testing.T) {
	env, s := gatewayEnv(t, apptest.Databases(t)[0], nil)
	c := env.Client()
	var spans [][2]time.Time
	for range 3 {
		t0 := time.Now()
		if r := chat(c, s.Key, `{"messages":[{"role":"user","content":"hi"}]}`); r.StatusCode != 200 {
			t.Fatalf("%d %s", r.StatusCode, r.Body)
		}
		spans = append(spans, [2]time.Time{t0, time.Now()})
	}
	evs := gatewayEvents(t, env)
	if len(evs) != 3 {
		t.Fatalf("%d records", len(evs))
	}
	// The record is made just after the answer is sent: a little after the
	// client has it, far less than the recorder's linger (20 ms).
	for i, e := range evs {
		if e.CreatedAt.Before(spans[i][0].Add(-time.Millisecond)) || e.CreatedAt.After(spans[i][1].Add(10*time.Millisecond)) {
			t.Errorf("record %d dated %s, the call ran %s to %s", i, e.CreatedAt.Format(time.RFC3339Nano),
				spans[i][0].UTC().Format(time.RFC3339Nano), spans[i][1].UTC().Format(time.RFC3339Nano))
		}
	}
}

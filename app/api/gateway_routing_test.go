package api_test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"parapet/app/apptest"
	"parapet/app/gateway"
	"parapet/models"
)

// provider is a fake LLM provider whose behaviour a test switches: it
// counts the calls it receives.
type provider struct {
	*httptest.Server
	calls atomic.Int32
	mu    sync.Mutex
	mode  string
}

func (p *provider) set(mode string) {
	p.mu.Lock()
	p.mode = mode
	p.mu.Unlock()
}

func (p *provider) current() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.mode
}

// newProvider is a provider of style "messages" or "openai": "ok" answers
// (JSON or SSE as asked), "503" fails, "503-retry-after" fails asking for
// a second's pause, "400" refuses the request, "stall" sends nothing,
// "midstream" starts a stream, sends one word and drops the connection,
// and "blockflood" opens block after block (and pings) without content.
func newProvider(t *testing.T, style, mode string) *provider {
	p := &provider{mode: mode}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.calls.Add(1)
		var body struct {
			Stream bool `json:"stream"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		switch p.current() {
		case "503":
			http.Error(w, `{"type":"error","error":{"type":"api_error","message":"down"}}`, http.StatusServiceUnavailable)
		case "503-retry-after":
			w.Header().Set("Retry-After", "1")
			http.Error(w, `{"type":"error","error":{"type":"api_error","message":"down"}}`, http.StatusServiceUnavailable)
		case "400":
			http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long"}}`, http.StatusBadRequest)
		case "stall":
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		case "usage40":
			messagesJSON(w, "forty tokens", 10, 40)
		case "midstream":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"model\":\"claude-sonnet-4-5\",\"content\":[],\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\n"+
				"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"+
				"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"partial\"}}\n\n")
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler) // the connection drops
		case "blockflood":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"model\":\"claude-sonnet-4-5\",\"content\":[],\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\n")
			for i := 0; r.Context().Err() == nil; i++ { // until the gateway hangs up
				fmt.Fprintf(w, "event: ping\ndata: {\"type\":\"ping\"}\n\nevent: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":%d,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n", i)
			}
		default:
			p.answer(w, style, body.Stream)
		}
	}))
	t.Cleanup(p.Close)
	return p
}

func (p *provider) answer(w http.ResponseWriter, style string, stream bool) {
	switch {
	case style == "messages" && !stream:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"msg_p","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"from primary"}],"stop_reason":"end_turn","usage":{"input_tokens":10,"output_tokens":3}}`)
	case style == "messages":
		messagesSSE(w, []string{"from ", "primary"})
	case !stream:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"chatcmpl-1","object":"chat.completion","model":"gpt-4.1","choices":[{"index":0,"message":{"role":"assistant","content":"from backup"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":3,"total_tokens":13}}`)
	default:
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := func(s string) { fmt.Fprintf(w, "data: %s\n\n", s) }
		chunk(`{"id":"c1","object":"chat.completion.chunk","model":"gpt-4.1","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`)
		chunk(`{"id":"c1","object":"chat.completion.chunk","model":"gpt-4.1","choices":[{"index":0,"delta":{"content":"from "},"finish_reason":null}]}`)
		chunk(`{"id":"c1","object":"chat.completion.chunk","model":"gpt-4.1","choices":[{"index":0,"delta":{"content":"backup"},"finish_reason":null}]}`)
		chunk(`{"id":"c1","object":"chat.completion.chunk","model":"gpt-4.1","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`)
		chunk(`{"id":"c1","object":"chat.completion.chunk","model":"gpt-4.1","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":3,"total_tokens":13}}`)
		chunk(`[DONE]`)
	}
}

// routingConfig routes "smart" to primary (Messages style), then backup
// (OpenAI style), and "cheap" to backup alone.
func routingConfig(primaryURL, backupURL string) string {
	return fmt.Sprintf(`providers:
  - {name: primary, style: messages, url: %s, key: "${PRIMARY_KEY}"}
  - {name: backup, style: openai, url: %s, key: "${BACKUP_KEY}"}
models:
  - name: smart
    targets:
      - {provider: primary, model: claude-sonnet-4-5}
      - {provider: backup, model: gpt-4.1}
  - name: cheap
    targets: [{provider: backup, model: gpt-4.1-mini}]
  - name: mystery
    targets: [{provider: backup, model: ft-unpriced}]
default_model: smart
`, primaryURL, backupURL)
}

func routingOptions(primaryURL, backupURL string) []apptest.Option {
	return []apptest.Option{apptest.WithEnv("GATEWAY_CONFIG", routingConfig(primaryURL, backupURL)),
		apptest.WithEnv("PRIMARY_KEY", "sk-primary-secret"), apptest.WithEnv("BACKUP_KEY", "sk-backup-secret"),
		apptest.WithEnv("GATEWAY_FIRST_BYTE_TIMEOUT", "300ms"), apptest.WithEnv("GATEWAY_DEMO_WORD_DELAY", "0s"),
		apptest.WithEnv("GATEWAY_RATE_LIMIT_PER_MINUTE", "1000")} // the tests poll
}

// routedCall is one call in one dialect, streamed or not.
type routedCall struct {
	path   string
	stream bool
}

var routedCalls = []routedCall{
	{"/gateway/v1/chat", false}, {"/gateway/v1/messages", false}, {"/gateway/v1/chat/completions", false},
	{"/gateway/v1/chat", true}, {"/gateway/v1/messages", true}, {"/gateway/v1/chat/completions", true},
}

func (rc routedCall) do(c *apptest.Client, key, model string) *apptest.Response {
	body := fmt.Sprintf(`{"model":%q,"max_tokens":50,"stream":%t,"messages":[{"role":"user","content":"Hello"}]}`, model, rc.stream)
	return c.PostJSON(rc.path, body, "Authorization", "Bearer "+key)
}

// openings counts the opening events a client saw: message_start in the
// Messages dialects, the chunk that names the role in Chat Completions.
func openings(rc routedCall, body string) int {
	if rc.path == "/gateway/v1/chat/completions" {
		return strings.Count(body, `"role":"assistant"`)
	}
	return strings.Count(body, "event: message_start")
}

// With the primary failing — 503, refusing connections, stalling before
// its first byte — every call, streamed or not, in all three dialects, is
// answered by the backup (another provider style) in the client's own
// dialect, with one opening. After five failures in a row the primary's
// breaker opens and the sixth call does not reach it.
func TestGatewayFallsBackToTheNextProvider(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + closed.Addr().String()
	closed.Close()
	for _, mode := range []string{"503", "refused", "stall"} {
		t.Run(mode, func(t *testing.T) {
			primary, backup := newProvider(t, "messages", mode), newProvider(t, "openai", "ok")
			primaryURL := primary.URL
			if mode == "refused" {
				primaryURL = refused
			}
			env := apptest.New(t, apptest.Databases(t)[0], routingOptions(primaryURL, backup.URL)...)
			s := env.Seed(t, "route@example.com")
			c := env.Client()
			for i, rc := range routedCalls {
				r := rc.do(c, s.Key, "smart")
				body := string(r.Body)
				if r.StatusCode != 200 || !strings.Contains(body, "backup") {
					t.Fatalf("%s stream=%t: %d %s", rc.path, rc.stream, r.StatusCode, body)
				}
				if rc.stream && openings(rc, body) != 1 {
					t.Errorf("%s stream: %d openings, want 1:\n%s", rc.path, openings(rc, body), body)
				}
				wantAttempts := "2"
				if i >= 5 {
					wantAttempts = "1" // the breaker opened after five failures
				}
				if h := r.Header; h.Get("X-Parapet-Provider") != "backup" || h.Get("X-Parapet-Model") != "gpt-4.1" || h.Get("X-Parapet-Attempts") != wantAttempts {
					t.Errorf("%s stream=%t: provider %q model %q attempts %q, want backup gpt-4.1 %s", rc.path, rc.stream,
						h.Get("X-Parapet-Provider"), h.Get("X-Parapet-Model"), h.Get("X-Parapet-Attempts"), wantAttempts)
				}
			}
			if mode != "refused" && primary.calls.Load() != 5 {
				t.Errorf("the primary got %d calls, want 5: its breaker opens after five failures in a row", primary.calls.Load())
			}
			evs := waitEvents(t, env, len(routedCalls))
			var tries []gateway.Attempt
			if err := json.Unmarshal([]byte(deref(evs[0].Attempts)), &tries); err != nil || len(tries) != 2 ||
				tries[0].Provider != "primary" || tries[0].Status < 500 || tries[1].Provider != "backup" || tries[1].Status != 200 {
				t.Errorf("first record's attempts %s (%v)", deref(evs[0].Attempts), err)
			}
			// gpt-4.1 is $2 in, $8 out per million: 10 in and 3 out.
			if e := evs[0]; deref(e.Provider) != "backup" || e.CostMicros == nil || *e.CostMicros != 10*2+3*8 || deref(e.PriceVersion) != gateway.PriceTableVersion {
				t.Errorf("first record: provider %q cost %v version %q", deref(e.Provider), e.CostMicros, deref(e.PriceVersion))
			}
		})
	}
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// A 400 from the primary is the caller's error: answered as is, never
// retried elsewhere, and its breaker does not count it.
func TestGatewayDoesNotFallBackOnTheCallersError(t *testing.T) {
	primary, backup := newProvider(t, "messages", "400"), newProvider(t, "openai", "ok")
	env := apptest.New(t, apptest.Databases(t)[0], routingOptions(primary.URL, backup.URL)...)
	s := env.Seed(t, "route400@example.com")
	c := env.Client()
	for _, rc := range routedCalls {
		r := rc.do(c, s.Key, "smart")
		if r.StatusCode != 502 || !strings.Contains(string(r.Body), "prompt is too long") || r.Header.Get("X-Parapet-Attempts") != "1" {
			t.Errorf("%s stream=%t: %d attempts %q %s", rc.path, rc.stream, r.StatusCode, r.Header.Get("X-Parapet-Attempts"), r.Body)
		}
	}
	if backup.calls.Load() != 0 || primary.calls.Load() != int32(len(routedCalls)) {
		t.Errorf("primary %d calls, backup %d: a caller's error must not fall back nor open the breaker", primary.calls.Load(), backup.calls.Load())
	}
}

// A primary that fails mid-stream after content ends the stream with an
// error event: the backup's answer is never spliced onto it.
func TestGatewayNeverSplicesAStream(t *testing.T) {
	primary, backup := newProvider(t, "messages", "midstream"), newProvider(t, "openai", "ok")
	env := apptest.New(t, apptest.Databases(t)[0], routingOptions(primary.URL, backup.URL)...)
	s := env.Seed(t, "splice@example.com")
	r := routedCall{"/gateway/v1/messages", true}.do(env.Client(), s.Key, "smart")
	body := string(r.Body)
	if r.StatusCode != 200 || !strings.Contains(body, "partial") || !strings.Contains(body, "event: error") || strings.Contains(body, "backup") {
		t.Errorf("%d %s", r.StatusCode, body)
	}
	if backup.calls.Load() != 0 || r.Header.Get("X-Parapet-Provider") != "primary" {
		t.Errorf("backup got %d calls; provider %q", backup.calls.Load(), r.Header.Get("X-Parapet-Provider"))
	}
}

// A primary whose stream opens block after block without any content is
// not waited on holding its events (which grew without bound): past a few
// held blocks it has failed, and the backup answers with one opening.
func TestGatewayFallsBackFromAStreamWithoutContent(t *testing.T) {
	primary, backup := newProvider(t, "messages", "blockflood"), newProvider(t, "openai", "ok")
	// Held without bound, the flood ran until the stream's longest
	// duration, then failed the call.
	env := apptest.New(t, apptest.Databases(t)[0], append(routingOptions(primary.URL, backup.URL),
		apptest.WithEnv("GATEWAY_STREAM_MAX_DURATION", "3s"))...)
	s := env.Seed(t, "flood@example.com")
	rc := routedCall{"/gateway/v1/messages", true}
	r := rc.do(env.Client(), s.Key, "smart")
	body := string(r.Body)
	if r.StatusCode != 200 || !strings.Contains(body, "backup") || openings(rc, body) != 1 || strings.Count(body, "event: content_block_start") != 1 {
		t.Errorf("%d %s", r.StatusCode, body)
	}
	if r.Header.Get("X-Parapet-Provider") != "backup" || r.Header.Get("X-Parapet-Attempts") != "2" {
		t.Errorf("provider %q attempts %q", r.Header.Get("X-Parapet-Provider"), r.Header.Get("X-Parapet-Attempts"))
	}
}

// A model the configuration does not list is 404 model_not_found in each
// dialect's shape; the model list is the configuration's.
func TestGatewayUnknownModel(t *testing.T) {
	primary, backup := newProvider(t, "messages", "ok"), newProvider(t, "openai", "ok")
	env := apptest.New(t, apptest.Databases(t)[0], routingOptions(primary.URL, backup.URL)...)
	s := env.Seed(t, "unknown@example.com")
	c := env.Client()
	for _, rc := range routedCalls[:3] {
		r := rc.do(c, s.Key, "gpt-9")
		if r.StatusCode != 404 || !strings.Contains(string(r.Body), `"code":"model_not_found"`) {
			t.Errorf("%s: %d %s", rc.path, r.StatusCode, r.Body)
		}
	}
	if r := (routedCall{"/gateway/v1/messages", false}).do(c, s.Key, "gpt-9"); !strings.Contains(string(r.Body), `"type":"not_found_error"`) {
		t.Errorf("messages dialect: %s", r.Body)
	}
	if r := (routedCall{"/gateway/v1/chat/completions", false}).do(c, s.Key, "gpt-9"); !strings.Contains(string(r.Body), `"param"`) {
		t.Errorf("openai dialect: %s", r.Body)
	}
	var list struct{ Data []struct{ ID string } }
	c.Get("/gateway/v1/models", "Authorization", "Bearer "+s.Key).JSON(t, &list)
	if len(list.Data) != 3 || list.Data[0].ID != "smart" || list.Data[1].ID != "cheap" {
		t.Errorf("models %+v", list.Data)
	}
	if primary.calls.Load()+backup.calls.Load() != 0 {
		t.Error("an unknown model reached a provider")
	}
}

// Two instances share the breakers through Redis: once one instance has
// opened the primary's, neither sends it a call until the cooldown (the
// provider's Retry-After) ends; then a probe closes it.
func TestGatewayBreakersAreShared(t *testing.T) {
	pg, rd := os.Getenv("TEST_DATABASE_URL"), os.Getenv("TEST_REDIS_URL")
	if pg == "" || rd == "" {
		t.Skip("needs TEST_DATABASE_URL and TEST_REDIS_URL")
	}
	primary, backup := newProvider(t, "messages", "503-retry-after"), newProvider(t, "openai", "ok")
	dbURL := apptest.FreshDatabaseURL(t, apptest.Database{Name: "postgres", URL: pg})
	cfg := apptest.Config(t, dbURL, append(routingOptions(primary.URL, backup.URL), apptest.WithEnv("REDIS_URL", rd))...)
	a, b := apptest.Start(t, cfg), apptest.Start(t, cfg)
	s := a.Seed(t, "shared@example.com")
	call := func(env *apptest.Env) *apptest.Response {
		return routedCall{"/gateway/v1/chat", false}.do(env.Client(), s.Key, "smart")
	}
	// One 503 with Retry-After opens the breaker at once, for a second.
	if r := call(a); r.Header.Get("X-Parapet-Attempts") != "2" || primary.calls.Load() != 1 {
		t.Fatalf("first call: attempts %q, primary %d calls", r.Header.Get("X-Parapet-Attempts"), primary.calls.Load())
	}
	opened := time.Now()
	// b sees it within its view's refresh: wait for that, bounded.
	for call(b).Header.Get("X-Parapet-Attempts") != "1" {
		if time.Since(opened) > 900*time.Millisecond {
			t.Fatal("the other instance did not see the open breaker")
		}
	}
	seen := primary.calls.Load()
	for i := 0; i < 10 && time.Since(opened) < 900*time.Millisecond; i++ {
		for _, env := range []*apptest.Env{a, b} {
			if r := call(env); r.StatusCode != 200 || r.Header.Get("X-Parapet-Provider") != "backup" {
				t.Fatalf("%d %q", r.StatusCode, r.Header.Get("X-Parapet-Provider"))
			}
		}
	}
	if time.Since(opened) < 900*time.Millisecond && primary.calls.Load() != seen {
		t.Errorf("the primary got %d calls while its breaker was open", primary.calls.Load()-seen)
	}
	// The provider recovers; after the cooldown one probe reaches it and
	// closes the breaker for both instances.
	primary.set("ok")
	deadline := time.Now().Add(5 * time.Second)
	for call(b).Header.Get("X-Parapet-Provider") != "primary" {
		if time.Now().After(deadline) {
			t.Fatal("the breaker never closed after its cooldown")
		}
		time.Sleep(50 * time.Millisecond) // polling for the cooldown's end, bounded above
	}
	waitFor(t, func() bool { return call(a).Header.Get("X-Parapet-Provider") == "primary" })
}

// waitFor polls cond for up to two seconds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in 2 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Forty parallel calls on two instances sharing Redis against a $0.01
// budget: the calls that got through spent at most the budget plus one
// call's reserved cost, the rest were refused with budget_exceeded, and
// the month's spend is the records' sum. A key's own budget is enforced
// the same way; a model without a price is refused while a budget applies.
func TestGatewayBudgetHoldsUnderConcurrency(t *testing.T) {
	pg, rd := os.Getenv("TEST_DATABASE_URL"), os.Getenv("TEST_REDIS_URL")
	if pg == "" || rd == "" {
		t.Skip("needs TEST_DATABASE_URL and TEST_REDIS_URL")
	}
	primary, backup := newProvider(t, "messages", "usage40"), newProvider(t, "openai", "ok")
	dbURL := apptest.FreshDatabaseURL(t, apptest.Database{Name: "postgres", URL: pg})
	// Every call is the primary's: under CI's load a primary slower than
	// the routing tests' 300 ms to its first byte fell back to the backup,
	// whose call costs 44 µ$, not 630.
	cfg := apptest.Config(t, dbURL, append(routingOptions(primary.URL, backup.URL), apptest.WithEnv("REDIS_URL", rd),
		apptest.WithEnv("GATEWAY_FIRST_BYTE_TIMEOUT", "10s"))...)
	a, b := apptest.Start(t, cfg), apptest.Start(t, cfg)
	s := a.Seed(t, "budget@example.com")
	if err := models.SetBudget(a.DB.DB, s.OrgID, "", 10_000); err != nil { // $0.01
		t.Fatal(err)
	}
	// smart's dearest target is claude-sonnet-4-5, $3 in ($3.75 to write
	// the cache) and $15 out: a call of "Hello" (21 tokens at most) and
	// max_tokens 50 reserves 21×3.75 + 50×15 = 829 µ$ (rounded up), and
	// costs 10×3 + 40×15 = 630 µ$.
	const reserved = 829
	counts := statusesOf(40, []*apptest.Env{a, b}, func(env *apptest.Env) int {
		r := routedCall{"/gateway/v1/messages", false}.do(env.Client(), s.Key, "smart")
		if r.StatusCode == 429 && (!strings.Contains(string(r.Body), "budget_exceeded") || r.Header.Get("X-Should-Retry") != "false") {
			t.Errorf("429 %s", r.Body)
		}
		return r.StatusCode
	})
	a.App.FlushAudit()
	b.App.FlushAudit()
	var spent, counter int64
	if err := a.DB.Raw(`SELECT COALESCE(SUM(cost_micros), 0) FROM audit_events WHERE action = ? AND status = 200`, models.ActionGatewayCall).Scan(&spent).Error; err != nil {
		t.Fatal(err)
	}
	if err := a.DB.Raw(`SELECT spent_micros FROM budget_counters WHERE org_id = ? AND key_id = ''`, s.OrgID).Scan(&counter).Error; err != nil {
		t.Fatal(err)
	}
	if counts[200] == 0 || counts[429] == 0 || counts[200]+counts[429] != 40 || spent > 10_000+reserved || spent != int64(counts[200])*630 || counter != spent {
		t.Errorf("answers %v, spent %d µ$ (counter %d), budget 10000 + one reservation %d", counts, spent, counter, reserved)
	}

	// A key's own budget: smaller than one call's worst case.
	if err := models.SetBudget(a.DB.DB, s.OrgID, "", 1_000_000); err != nil {
		t.Fatal(err)
	}
	if err := models.SetBudget(a.DB.DB, s.OrgID, s.KeyID, 500); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool {
		r := routedCall{"/gateway/v1/chat", false}.do(a.Client(), s.Key, "smart")
		return r.StatusCode == 429 && strings.Contains(string(r.Body), "this key has")
	})
}

// Without Redis the database holds the reservations: parallel calls on
// each database overspend by at most one reservation, every hold is
// released, and a model without a price is refused while a budget applies.
func TestGatewayBudgetInTheDatabase(t *testing.T) {
	for _, d := range apptest.Databases(t) {
		t.Run(d.Name, func(t *testing.T) {
			primary, backup := newProvider(t, "messages", "usage40"), newProvider(t, "openai", "ok")
			env := apptest.New(t, d, routingOptions(primary.URL, backup.URL)...)
			s := env.Seed(t, "dbbudget@example.com")
			if r := (routedCall{"/gateway/v1/chat", false}).do(env.Client(), s.Key, "mystery"); r.StatusCode != 200 || r.Header.Get("X-Parapet-Model") != "ft-unpriced" {
				t.Fatalf("no budget: an unpriced model is served: %d %s", r.StatusCode, r.Body)
			}
			if err := models.SetBudget(env.DB.DB, s.OrgID, "", 5_000); err != nil {
				t.Fatal(err)
			}
			waitFor(t, func() bool {
				r := routedCall{"/gateway/v1/chat", false}.do(env.Client(), s.Key, "mystery")
				return r.StatusCode == 403 && strings.Contains(string(r.Body), "price_unknown")
			})
			ok := statusesOf(20, []*apptest.Env{env}, func(env *apptest.Env) int {
				return routedCall{"/gateway/v1/messages", false}.do(env.Client(), s.Key, "smart").StatusCode
			})[200]
			env.App.FlushAudit()
			var c struct{ Spent, Reserved int64 }
			if err := env.DB.Raw(`SELECT spent_micros AS spent, reserved_micros AS reserved FROM budget_counters WHERE org_id = ? AND key_id = ''`, s.OrgID).Scan(&c).Error; err != nil {
				t.Fatal(err)
			}
			if ok == 0 || ok == 20 || c.Spent != int64(ok)*630 || c.Spent > 5_000+829 || c.Reserved != 0 {
				t.Errorf("%d of 20 answered; spent %d reserved %d", ok, c.Spent, c.Reserved)
			}
		})
	}
}

// An organization's model policy and a key's own subset: any other model
// is 403 model_not_allowed, and the model list shows only what the key
// may call. The operator sets them with the CLI.
func TestGatewayModelPolicies(t *testing.T) {
	primary, backup := newProvider(t, "messages", "ok"), newProvider(t, "openai", "ok")
	env := apptest.New(t, apptest.Databases(t)[0], routingOptions(primary.URL, backup.URL)...)
	s := env.Seed(t, "policy@example.com")
	c := env.Client()
	listed := func() []string {
		var list struct{ Data []struct{ ID string } }
		c.Get("/gateway/v1/models", "Authorization", "Bearer "+s.Key).JSON(t, &list)
		var ids []string
		for _, m := range list.Data {
			ids = append(ids, m.ID)
		}
		return ids
	}
	if err := models.SetModelPolicy(env.DB.DB, s.OrgID, "", []string{"smart", "cheap"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool {
		r := routedCall{"/gateway/v1/chat/completions", false}.do(c, s.Key, "mystery")
		return r.StatusCode == 403 && strings.Contains(string(r.Body), `"code":"model_not_allowed"`)
	})
	if got := strings.Join(listed(), ","); got != "smart,cheap" {
		t.Errorf("organization's models listed %q", got)
	}
	if err := models.SetModelPolicy(env.DB.DB, s.OrgID, s.KeyID, []string{"cheap"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool {
		r := routedCall{"/gateway/v1/messages", false}.do(c, s.Key, "smart")
		return r.StatusCode == 403 && strings.Contains(string(r.Body), "this key")
	})
	if r := (routedCall{"/gateway/v1/chat", false}).do(c, s.Key, "cheap"); r.StatusCode != 200 {
		t.Errorf("an allowed model: %d %s", r.StatusCode, r.Body)
	}
	if got := strings.Join(listed(), ","); got != "cheap" {
		t.Errorf("key's models listed %q", got)
	}
	if r := c.Get("/gateway/v1/models/smart", "Authorization", "Bearer "+s.Key); r.StatusCode != 404 {
		t.Errorf("a model the key may not call is retrieved: %d", r.StatusCode)
	}
	// Counting tokens asks the provider with its key: refused alike.
	count := func(model string) *apptest.Response {
		return c.PostJSON("/gateway/v1/messages/count_tokens", `{"model":"`+model+`","messages":[{"role":"user","content":"Hi"}]}`, "Authorization", "Bearer "+s.Key)
	}
	if r := count("smart"); r.StatusCode != 403 || !strings.Contains(r.Body, `"type":"permission_error"`) && !strings.Contains(r.Body, "model_not_allowed") {
		t.Errorf("counting a model the key may not call: %d %s", r.StatusCode, r.Body)
	}
	if r := count("cheap"); r.StatusCode != 200 {
		t.Errorf("counting an allowed model: %d %s", r.StatusCode, r.Body)
	}
}

// statusesOf makes n calls at once, spread over envs in turn (the instances
// sharing a budget), and counts the statuses call returns.
func statusesOf(n int, envs []*apptest.Env, call func(env *apptest.Env) int) map[int]int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	counts := map[int]int{}
	for i := range n {
		wg.Add(1)
		go func(env *apptest.Env) {
			defer wg.Done()
			st := call(env)
			mu.Lock()
			counts[st]++
			mu.Unlock()
		}(envs[i%len(envs)])
	}
	wg.Wait()
	return counts
}

// Where no provider embeds, an embeddings call for a model the
// configuration lacks is still 404 model_not_found, and one for a model
// outside the organization's list 403 model_not_allowed, as on every
// endpoint; only a model the caller may call learns that nothing embeds.
func TestGatewayEmbeddingsSayTheModelFirst(t *testing.T) {
	primary := newProvider(t, "messages", "ok")
	cfg := fmt.Sprintf("providers:\n  - {name: primary, style: messages, url: %s, key: \"${PRIMARY_KEY}\"}\nmodels:\n  - name: smart\n    targets: [{provider: primary, model: claude-sonnet-4-5}]\n  - name: other\n    targets: [{provider: primary, model: claude-haiku-4-5}]\n", primary.URL)
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("GATEWAY_CONFIG", cfg), apptest.WithEnv("PRIMARY_KEY", "k"))
	s := env.Seed(t, "embed@example.com")
	c := env.Client()
	embed := func(model string) *apptest.Response {
		return c.PostJSON("/gateway/v1/embeddings", `{"model":"`+model+`","input":"x"}`, "Authorization", "Bearer "+s.Key)
	}
	if r := embed("nope"); r.StatusCode != 404 || !strings.Contains(string(r.Body), `"code":"model_not_found"`) {
		t.Errorf("unknown model: %d %s", r.StatusCode, r.Body)
	}
	if r := embed("smart"); r.StatusCode != 400 || !strings.Contains(string(r.Body), `"code":"embeddings_not_supported"`) {
		t.Errorf("a model no provider embeds: %d %s", r.StatusCode, r.Body)
	}
	if err := models.SetModelPolicy(env.DB.DB, s.OrgID, "", []string{"other"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool {
		r := embed("smart")
		return r.StatusCode == 403 && strings.Contains(string(r.Body), `"code":"model_not_allowed"`)
	})
	if primary.calls.Load() != 0 {
		t.Errorf("the provider got %d calls", primary.calls.Load())
	}
}

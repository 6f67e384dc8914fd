package meter

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/gateway"
	"parapet/app/httpx"
	"parapet/app/metrics"
)

// AnonymousRowsPerMinute bounds the audit rows of calls refused before any
// key or session was known (no key, a bad key), per client IP: anyone can
// make such calls, so one row each would let anyone flood the audit table.
// The rest are counted in parapet_gateway_refused_anonymous_total only.
const AnonymousRowsPerMinute = 5

// Refused records a gateway call that was refused before Serve ran (by the
// API guard's key check or rate limit, or a route's sign-in check): one
// audit event when the caller is known, else the anonymous-refusal metric
// and, for the first few per minute and source, an audit event and a log
// line.
func (s *Service) Refused(c echo.Context, who Caller, err error) {
	if Served(c) {
		return
	}
	if who.KeyID == "" && who.UserID == "" {
		metrics.GatewayRefusedAnonymous.Inc()
		if !s.anon.allow(httpx.ClientNetwork(c), time.Now()) {
			return
		}
		s.log.Info("gateway call refused before a key or session was known (sampled)", "ip", c.RealIP(),
			"request_id", httpx.RequestID(c), "code", apierr.From(err).Code,
			"per_minute_recorded", AnonymousRowsPerMinute)
	}
	e := s.event(c, who, err)
	e.Target = who.target("gateway")
	s.add(modelsRecord(e, who))
}

// sampler lets through at most n events per window and source.
type sampler struct {
	n      int
	window time.Duration
	mu     sync.Mutex
	seen   map[string]*sampleWindow
}

type sampleWindow struct {
	start time.Time
	count int
}

func newSampler(n int, window time.Duration) *sampler {
	return &sampler{n: n, window: window, seen: map[string]*sampleWindow{}}
}

func (s *sampler) allow(source string, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	w, ok := s.seen[source]
	if !ok || now.Sub(w.start) >= s.window || now.Before(w.start) {
		if len(s.seen) >= 100_000 {
			clear(s.seen) // bounded memory under a flood from many sources
		}
		w = &sampleWindow{start: now}
		s.seen[source] = w
	}
	w.count++
	return w.count <= s.n
}

// content is the prompt and reply kept with GATEWAY_LOG_CONTENT: each
// turn's text, and the tool calls and results an agent's turns are made
// of (their text alone is often empty).
func content(req *gateway.Request, reply *gateway.Message) *string {
	msgs := make([]map[string]any, 0, len(req.Messages))
	for _, m := range req.Messages {
		turn := map[string]any{"role": m.Role, "content": m.Content}
		addTools(turn, m.Blocks)
		msgs = append(msgs, turn)
	}
	c := map[string]any{"system": req.System, "messages": msgs}
	if reply != nil {
		c["reply"] = reply.Text()
		addTools(c, reply.Content)
	}
	b, _ := json.Marshal(c)
	return ptr(string(b))
}

// addTools adds blocks' tool calls (id, name, input) and tool results (id,
// text) to a kept turn, as tool_calls and tool_results.
func addTools(turn map[string]any, blocks []gateway.ContentBlock) {
	var calls, results []map[string]any
	for _, b := range blocks {
		switch b.Type {
		case gateway.BlockToolUse:
			var input any = b.Input
			if !json.Valid(b.Input) {
				input = string(b.Input) // a streamed input cut short by max_tokens
			}
			calls = append(calls, map[string]any{"id": b.ID, "name": b.Name, "input": input})
		case gateway.BlockToolResult:
			results = append(results, map[string]any{"id": b.ToolUseID, "content": gateway.TextOf(b.Content), "is_error": b.IsError})
		}
	}
	if calls != nil {
		turn["tool_calls"] = calls
	}
	if results != nil {
		turn["tool_results"] = results
	}
}

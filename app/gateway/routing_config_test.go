package gateway

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const goodRouting = `providers:
  - name: anthropic
    style: messages
    url: https://api.anthropic.com
    key: ${ANTHROPIC_API_KEY}
  - name: openai
    style: openai
    url: https://api.openai.com/
    key: ${OPENAI_API_KEY}
models:
  - name: smart
    strategy: fallback
    targets:
      - {provider: anthropic, model: claude-sonnet-4-5}
      - {provider: openai, model: gpt-4.1}
    price: {input: 3, output: 15, cache_read: 0.3, cache_write: 3.75}
  - name: split
    strategy: weighted
    targets:
      - {provider: anthropic, model: claude-haiku-4-5, weight: 3}
      - {provider: openai, model: gpt-4.1-mini}
default_model: smart
`

func env(name string) string {
	return map[string]string{"ANTHROPIC_API_KEY": "sk-ant-secret-value", "OPENAI_API_KEY": "sk-oai-secret-value"}[name]
}

func TestParseRouting(t *testing.T) {
	r, err := ParseRouting([]byte(goodRouting), env)
	if err != nil {
		t.Fatal(err)
	}
	if r.Providers[0].Key != "sk-ant-secret-value" || r.Providers[1].URL != "https://api.openai.com" || r.DefaultModel != "smart" ||
		r.Models[1].Targets[0].Weight != 3 || r.Models[1].Targets[1].Weight != 1 || r.Models[0].Price.Output != 15 {
		t.Errorf("parsed %+v", r)
	}
	masked := r.Masked()
	if strings.Contains(masked, "secret-value") || !strings.Contains(masked, "${ANTHROPIC_API_KEY} (set, hidden)") {
		t.Errorf("masked:\n%s", masked)
	}
	// The file form reads the same.
	path := filepath.Join(t.TempDir(), "gateway.yaml")
	if err := os.WriteFile(path, []byte(goodRouting), 0o600); err != nil {
		t.Fatal(err)
	}
	if r2, err := LoadRouting(path, env); err != nil || len(r2.Models) != 2 {
		t.Errorf("from a file: %v", err)
	}
}

// Every mistake stops start-up with a message naming its line.
func TestParseRoutingErrorsNameTheLine(t *testing.T) {
	for _, tc := range []struct{ change, want string }{
		{"    key: ${ANTHROPIC_API_KEY}\n  - name: openai", "line 5: provider \"anthropic\": key must be ${ENV_NAME}"},
		{"    style: messages", "line 3: provider \"anthropic\": style must be"},
		{"    strategy: fallback", "line 12: unknown field \"stratgey\""},
		{"      - {provider: openai, model: gpt-4.1}", "line 15: model \"smart\": no provider is named \"opneai\""},
		{"default_model: smart", "line 22: default_model \"dumb\" is not one of the models"},
		{"    key: ${OPENAI_API_KEY}", "line 9: provider \"openai\": key: the environment variable NOPE is not set"},
		{"  - name: split", "line 17: model \"smart\" is named twice"},
		{"      - {provider: openai, model: gpt-4.1-mini}", "line 22: model \"split\": target openai/gpt-4.1-mini is listed twice"},
	} {
		bad := map[string]string{
			"    key: ${ANTHROPIC_API_KEY}\n  - name: openai": "    key: sk-ant-literal\n  - name: openai",
			"    style: messages":                             "    style: gemini",
			"    strategy: fallback":                          "    stratgey: fallback",
			"      - {provider: openai, model: gpt-4.1}":      "      - {provider: opneai, model: gpt-4.1}",
			"default_model: smart":                            "default_model: dumb",
			"    key: ${OPENAI_API_KEY}":                      "    key: ${NOPE}",
			"  - name: split":                                 "  - name: smart",
			"      - {provider: openai, model: gpt-4.1-mini}": "      - {provider: openai, model: gpt-4.1-mini}\n      - {provider: openai, model: gpt-4.1-mini}",
		}[tc.change]
		src := strings.Replace(goodRouting, tc.change, bad, 1)
		_, err := ParseRouting([]byte(src), env)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", bad, err, tc.want)
		}
	}
	if _, err := ParseRouting([]byte("providers: [\n"), env); err == nil || !strings.Contains(err.Error(), "line") {
		t.Errorf("bad YAML: %v", err)
	}
}

// The weighted strategy draws its first target by weight, then falls
// back to the others in order.
func TestWeightedOrder(t *testing.T) {
	r, err := ParseRouting([]byte(goodRouting), env)
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(Config{Routing: r})
	if err != nil {
		t.Fatal(err)
	}
	rt := p.routes["split"]
	first := map[string]int{}
	for i := 0; i < 4000; i++ {
		o := rt.order(p.weights["split"])
		if len(o) != 2 || o[0] == o[1] {
			t.Fatal("each target once")
		}
		first[o[0].model]++
	}
	if n := first["claude-haiku-4-5"]; n < 2800 || n > 3200 {
		t.Errorf("weight 3 of 4 drawn first %d of 4000 times", n)
	}
	if got := p.ModelNames(); len(got) != 2 || got[0] != "smart" {
		t.Errorf("names %v", got)
	}
	info, err := p.Route("smart")
	if err != nil || info.Price == nil || info.Price.Output != 15 {
		t.Errorf("route %+v %v", info, err)
	}
	if _, err := p.Route("nope"); err == nil {
		t.Error("an unknown model routed")
	}
}

// What an attempt holds back before its first content is bounded: pings
// collapse to one, a second message_start or too many opened blocks fail
// the attempt as the provider's fault (so the call falls back).
func TestHoldBackIsBounded(t *testing.T) {
	var forwarded []Event
	h := &holdBack{hold: true, forward: func(ev Event) error { forwarded = append(forwarded, ev); return nil }}
	if err := h.emit(Event{Type: EventMessageStart, Message: &Message{}}); err != nil {
		t.Fatal(err)
	}
	for range 10_000 {
		if err := h.emit(Event{Type: EventPing}); err != nil {
			t.Fatal(err)
		}
	}
	if len(h.held) != 2 {
		t.Errorf("held %d events after 10,000 pings, want message_start and one ping", len(h.held))
	}
	err := h.emit(Event{Type: EventMessageStart, Message: &Message{}})
	if err == nil || !providerFailed(err.(*Error)) {
		t.Errorf("a second message_start: %v", err)
	}
	h = &holdBack{hold: true, forward: h.forward}
	for i := range maxHeldBlocks + 1 {
		err = h.emit(Event{Type: EventContentBlockStart, Index: i, Block: &ContentBlock{Type: BlockText}})
	}
	if err == nil || !providerFailed(err.(*Error)) {
		t.Errorf("block %d: %v", maxHeldBlocks+1, err)
	}
	if len(forwarded) != 0 {
		t.Errorf("forwarded %d events before any content", len(forwarded))
	}
}

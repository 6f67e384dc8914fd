package gateway

import "testing"

// A call costs each usage bucket at its price, rounded up to a
// micro-dollar; a dated snapshot costs what its family does.
func TestBuiltinPriceCost(t *testing.T) {
	u := Usage{InputTokens: 1000, OutputTokens: 200, CacheReadInputTokens: 10_000, CacheCreationInputTokens: 500}
	for model, want := range map[string]int64{
		"claude-opus-4-7":            1000*5 + 200*25 + 10_000*0.5 + 500*6.25,
		"claude-sonnet-4-5-20250929": 1000*3 + 200*15 + 10_000*0.3 + 500*3.75,
		"claude-sonnet-5-5":          1000*2 + 200*10 + 10_000*0.1 + 500*2.5,
		"gpt-5.5":                    1000*5 + 200*30 + 10_000*0.5 + 500*5,
	} {
		p, ok := BuiltinPrice(model)
		if got := p.Micros(u); !ok || got != want {
			t.Errorf("%s: %d micro-dollars (priced %v), want %d", model, got, ok, want)
		}
	}
	if _, ok := BuiltinPrice("claude-unknown-9"); ok {
		t.Error("an unknown model has a price")
	}
}

// Claude Haiku 5.5 bills a call whose prompt (input and cache together)
// is above 100,000 tokens at its long-prompt band, every token of it; a
// route's worst price reserves that band for a prompt that may be long.
func TestLongPromptBand(t *testing.T) {
	p, _ := BuiltinPrice("claude-haiku-5-5")
	short := Usage{InputTokens: 60_000, CacheReadInputTokens: 40_000, OutputTokens: 1000}
	long := Usage{InputTokens: 60_000, CacheReadInputTokens: 40_001, OutputTokens: 1000}
	if got, want := p.Micros(short), int64(60_000*0.1+40_000*0.01+1000*0.5); got != want {
		t.Errorf("a 100,000-token prompt: %d, want %d", got, want)
	}
	// 30,000 + 2,000.05 + 2,500, rounded up.
	if got, want := p.Micros(long), int64(34_501); got != want {
		t.Errorf("a 100,001-token prompt: %d, want %d", got, want)
	}
	if got, want := p.WorstMicros(200_000, 1000, false), int64(200_000*0.625+1000*2.5); got != want {
		t.Errorf("worst of a 200,000-token bound: %d, want %d", got, want)
	}
	// A route of Haiku 5.5 and Opus 4.5 (one band): the dearer of each band.
	opus, _ := BuiltinPrice("claude-opus-4-5")
	worst := dearer(opus, p)
	if got, want := worst.WorstMicros(1000, 100, false), int64(1000*6.25+100*25); got != want {
		t.Errorf("route, short bound: %d, want %d", got, want)
	}
	if worst.Long == nil || worst.Long.Above != 100_000 || worst.band(200_000).Input != 5 {
		t.Errorf("route, long band: %+v", worst.Long)
	}
	// Sonnet 4.5's 1M context costs more above 200,000 tokens.
	sonnet, _ := BuiltinPrice("claude-sonnet-4-5")
	if got, want := sonnet.Micros(Usage{InputTokens: 300_000, OutputTokens: 1000}), int64(300_000*6+1000*22.5); got != want {
		t.Errorf("Sonnet 4.5, a 300,000-token prompt: %d, want %d", got, want)
	}
}

// A write to Anthropic's one-hour cache costs twice the input price (its
// five-minute write 1.25 times): the usage's breakdown says how many of
// the written tokens were for an hour, and a request that asks for an
// hour-long breakpoint reserves at that price.
func TestOneHourCacheWrites(t *testing.T) {
	var m Message
	answer := `{"id":"m","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":"end_turn",` +
		`"usage":{"input_tokens":10,"output_tokens":5,"cache_creation_input_tokens":30000,"cache_creation":{"ephemeral_5m_input_tokens":10000,"ephemeral_1h_input_tokens":20000}}}`
	if err := decodeUpstream([]byte(answer), &m); err != nil {
		t.Fatal(err)
	}
	if m.Usage.CacheWrite1hTokens != 20_000 {
		t.Fatalf("one-hour writes read as %d", m.Usage.CacheWrite1hTokens)
	}
	p, _ := BuiltinPrice("claude-sonnet-4-5")
	if got, want := p.Micros(m.Usage), int64(10*3+5*15+10_000*3.75+20_000*6); got != want {
		t.Errorf("cost %d, want %d", got, want)
	}
	req, err := ParseMessagesRequest([]byte(`{"model":"m","max_tokens":5,"system":[{"type":"text","text":"x","cache_control":{"type":"ephemeral","ttl":"1h"}}],"messages":[{"role":"user","content":"x"}]}`), testDefaults)
	if err != nil || !req.LongCache() {
		t.Fatalf("a one-hour breakpoint: %v, long %v", err, req != nil && req.LongCache())
	}
	if got, want := p.WorstMicros(1000, 10, true), int64(1000*6+10*15); got != want {
		t.Errorf("worst with a one-hour breakpoint: %d, want %d", got, want)
	}
	if got, want := p.WorstMicros(1000, 10, false), int64(1000*3.75+10*15); got != want {
		t.Errorf("worst without: %d, want %d", got, want)
	}
	// A breakdown above its whole is cut to it, and flagged.
	odd := `{"input_tokens":1,"output_tokens":1,"cache_creation_input_tokens":5,"cache_creation":{"ephemeral_1h_input_tokens":9}}`
	var u Usage
	if err := u.UnmarshalJSON([]byte(odd)); err != nil || u.CacheWrite1hTokens != 5 || !u.odd {
		t.Errorf("one-hour writes above the whole: %+v, %v", u, err)
	}
}

package gateway

import (
	"math"
	"regexp"
)

// Price is a model's price in USD per million tokens. A token at $1 per
// million costs one micro-dollar, so a call's cost in micro-dollars is its
// tokens times these numbers.
type Price struct {
	Input      float64 `yaml:"input" json:"input"`
	Output     float64 `yaml:"output" json:"output"`
	CacheRead  float64 `yaml:"cache_read" json:"cache_read"`
	CacheWrite float64 `yaml:"cache_write" json:"cache_write"`
	// Long, when set, is the price of a call whose prompt is long: every
	// token of it, output included (Claude Haiku 5.5's two bands).
	// Built-in prices only.
	Long *LongPrompt `yaml:"-" json:"long_prompt,omitempty"`
}

// LongPrompt is a model's price for calls whose prompt (input, cache
// reads and cache writes together) is above Above tokens.
type LongPrompt struct {
	Above int   `json:"above"`
	Price Price `json:"price"`
}

// PriceTableVersion names the built-in table below: its date and sources.
// Each call's record carries it with its cost, so a cost can be traced to
// the prices it was computed with.
const PriceTableVersion = "2026-11-29 anthropic.com/pricing openai.com/api/pricing"

// ConfigPriceVersion is the version recorded for a cost computed from a
// price set in GATEWAY_CONFIG.
const ConfigPriceVersion = "config"

// builtinPrices are the list prices of current Anthropic and OpenAI models
// (standard tier; cache_write is Anthropic's 5-minute write), USD per
// million tokens. OpenAI charges nothing extra to write its cache:
// cache_write is input.
var builtinPrices = map[string]Price{
	"claude-fable-5-1":  usd(10, 50, 0.25, 12.5),
	"claude-mythos-5-1": usd(10, 50, 0.25, 12.5),
	"claude-fable-5":    usd(10, 50, 1, 12.5),
	"claude-mythos-5":   usd(10, 50, 1, 12.5),
	"claude-opus-5-5":   usd(4, 20, 0.2, 5),
	"claude-opus-5":     usd(5, 25, 0.5, 6.25),
	"claude-opus-4-8":   usd(5, 25, 0.5, 6.25),
	"claude-opus-4-7":   usd(5, 25, 0.5, 6.25),
	"claude-opus-4-6":   usd(5, 25, 0.5, 6.25),
	"claude-sonnet-5-5": usd(2, 10, 0.1, 2.5),
	"claude-sonnet-5":   usd(2, 10, 0.2, 2.5),
	"claude-sonnet-4-6": usd(3, 15, 0.3, 3.75),
	"claude-haiku-5-5":  usd(0.1, 0.5, 0.01, 0.125).above(100_000, usd(0.5, 2.5, 0.05, 0.625)),
	"claude-opus-4-5":   usd(5, 25, 0.5, 6.25),
	"claude-opus-4-1":   usd(15, 75, 1.5, 18.75),
	"claude-opus-4-0":   usd(15, 75, 1.5, 18.75),
	"claude-opus-4":     usd(15, 75, 1.5, 18.75),
	"claude-sonnet-4-5": usd(3, 15, 0.3, 3.75).above(200_000, usd(6, 22.5, 0.6, 7.5)),
	"claude-sonnet-4-0": usd(3, 15, 0.3, 3.75).above(200_000, usd(6, 22.5, 0.6, 7.5)),
	"claude-sonnet-4":   usd(3, 15, 0.3, 3.75).above(200_000, usd(6, 22.5, 0.6, 7.5)),
	"claude-3-7-sonnet": usd(3, 15, 0.3, 3.75),
	"claude-haiku-4-5":  usd(1, 5, 0.1, 1.25),
	"claude-3-5-haiku":  usd(0.8, 4, 0.08, 1),
	"claude-3-haiku":    usd(0.25, 1.25, 0.03, 0.3),

	"gpt-5.5":                usd(5, 30, 0.5, 5),
	"gpt-5.5-pro":            usd(30, 180, 30, 30),
	"gpt-5.4":                usd(2.5, 15, 0.25, 2.5),
	"gpt-5.4-mini":           usd(0.75, 4.5, 0.075, 0.75),
	"gpt-5.4-nano":           usd(0.2, 1.25, 0.02, 0.2),
	"gpt-5.4-pro":            usd(30, 180, 30, 30),
	"gpt-5.1":                usd(1.25, 10, 0.125, 1.25),
	"gpt-5":                  usd(1.25, 10, 0.125, 1.25),
	"gpt-5-mini":             usd(0.25, 2, 0.025, 0.25),
	"gpt-5-nano":             usd(0.05, 0.4, 0.005, 0.05),
	"gpt-4.1":                usd(2, 8, 0.5, 2),
	"gpt-4.1-mini":           usd(0.4, 1.6, 0.1, 0.4),
	"gpt-4.1-nano":           usd(0.1, 0.4, 0.025, 0.1),
	"gpt-4o":                 usd(2.5, 10, 1.25, 2.5),
	"gpt-4o-mini":            usd(0.15, 0.6, 0.075, 0.15),
	"o3":                     usd(2, 8, 0.5, 2),
	"o4-mini":                usd(1.1, 4.4, 0.275, 1.1),
	"text-embedding-3-small": usd(0.02, 0, 0, 0.02),
	"text-embedding-3-large": usd(0.13, 0, 0, 0.13),
}

// usd is a price: input, output, cache read, cache write.
func usd(input, output, cacheRead, cacheWrite float64) Price {
	return Price{Input: input, Output: output, CacheRead: cacheRead, CacheWrite: cacheWrite}
}

// above gives p a long-prompt band: calls whose prompt is above tokens
// cost long.
func (p Price) above(tokens int, long Price) Price {
	p.Long = &LongPrompt{Above: tokens, Price: long}
	return p
}

// dated is a model name's date suffix: claude-sonnet-4-5-20250929,
// gpt-4o-2024-08-06. A dated snapshot costs what its family does.
var dated = regexp.MustCompile(`-(\d{8}|\d{4}-\d{2}-\d{2})$`)

// BuiltinPrice is the built-in price of a provider's model, and whether
// the table has one.
func BuiltinPrice(model string) (Price, bool) {
	if p, ok := builtinPrices[model]; ok {
		return p, true
	}
	p, ok := builtinPrices[dated.ReplaceAllString(model, "")]
	return p, ok
}

// Micros is what usage costs at p, in micro-dollars, rounded up: each
// bucket at its own price (reasoning tokens are output tokens).
func (p Price) Micros(u Usage) int64 {
	p = p.band(u.AllInput())
	write5m := u.CacheCreationInputTokens - u.CacheWrite1hTokens
	return int64(math.Ceil(float64(u.InputTokens)*p.Input + float64(write5m)*p.CacheWrite + float64(u.CacheWrite1hTokens)*p.cacheWrite1h() +
		float64(u.CacheReadInputTokens)*p.CacheRead + float64(u.OutputTokens)*p.Output))
}

// cacheWrite1h is the price of a write to Anthropic's one-hour cache:
// twice the input's, for every model (CacheWrite is the five-minute
// write's, 1.25 times). No other provider has one.
func (p Price) cacheWrite1h() float64 { return max(2*p.Input, p.CacheWrite) }

// longAbove is the prompt length above which the long-prompt band
// applies (none: never).
func (p Price) longAbove() int {
	if p.Long == nil {
		return math.MaxInt
	}
	return p.Long.Above
}

// band is the price of a call whose prompt holds prompt tokens.
func (p Price) band(prompt int) Price {
	if p.Long != nil && prompt > p.Long.Above {
		return p.Long.Price
	}
	return p
}

// WorstMicros is the most a call can cost at p: inputBound input tokens,
// each at the dearest input bucket's price (a cache write costs more than
// plain input at Anthropic, a one-hour write more still, when the request
// asks for one: longCache), and maxTokens of output.
func (p Price) WorstMicros(inputBound, maxTokens int, longCache bool) int64 {
	p = p.band(inputBound)
	in := max(p.Input, p.CacheWrite, p.CacheRead)
	if longCache {
		in = max(in, p.cacheWrite1h())
	}
	return int64(math.Ceil(float64(inputBound)*in + float64(maxTokens)*p.Output))
}

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
}

// PriceTableVersion names the built-in table below: its date and sources.
// Each call's record carries it with its cost, so a cost can be traced to
// the prices it was computed with.
const PriceTableVersion = "2025-11-24 anthropic.com/pricing openai.com/api/pricing"

// ConfigPriceVersion is the version recorded for a cost computed from a
// price set in GATEWAY_CONFIG.
const ConfigPriceVersion = "config"

// builtinPrices are the list prices of current Anthropic and OpenAI models
// (standard tier, prompts up to 200k tokens), USD per million tokens.
// OpenAI charges nothing extra to write its cache: cache_write is input.
var builtinPrices = map[string]Price{
	"claude-opus-4-5":   {5, 25, 0.5, 6.25},
	"claude-opus-4-1":   {15, 75, 1.5, 18.75},
	"claude-opus-4-0":   {15, 75, 1.5, 18.75},
	"claude-opus-4":     {15, 75, 1.5, 18.75},
	"claude-sonnet-4-5": {3, 15, 0.3, 3.75},
	"claude-sonnet-4-0": {3, 15, 0.3, 3.75},
	"claude-sonnet-4":   {3, 15, 0.3, 3.75},
	"claude-3-7-sonnet": {3, 15, 0.3, 3.75},
	"claude-haiku-4-5":  {1, 5, 0.1, 1.25},
	"claude-3-5-haiku":  {0.8, 4, 0.08, 1},
	"claude-3-haiku":    {0.25, 1.25, 0.03, 0.3},

	"gpt-5.1":                {1.25, 10, 0.125, 1.25},
	"gpt-5":                  {1.25, 10, 0.125, 1.25},
	"gpt-5-mini":             {0.25, 2, 0.025, 0.25},
	"gpt-5-nano":             {0.05, 0.4, 0.005, 0.05},
	"gpt-4.1":                {2, 8, 0.5, 2},
	"gpt-4.1-mini":           {0.4, 1.6, 0.1, 0.4},
	"gpt-4.1-nano":           {0.1, 0.4, 0.025, 0.1},
	"gpt-4o":                 {2.5, 10, 1.25, 2.5},
	"gpt-4o-mini":            {0.15, 0.6, 0.075, 0.15},
	"o3":                     {2, 8, 0.5, 2},
	"o4-mini":                {1.1, 4.4, 0.275, 1.1},
	"text-embedding-3-small": {0.02, 0, 0, 0.02},
	"text-embedding-3-large": {0.13, 0, 0, 0.13},
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
	return int64(math.Ceil(float64(u.InputTokens)*p.Input + float64(u.CacheCreationInputTokens)*p.CacheWrite +
		float64(u.CacheReadInputTokens)*p.CacheRead + float64(u.OutputTokens)*p.Output))
}

// WorstMicros is the most a call can cost at p: inputBound input tokens,
// each at the dearest input bucket's price (a cache write costs more than
// plain input at Anthropic), and maxTokens of output.
func (p Price) WorstMicros(inputBound, maxTokens int) int64 {
	return int64(math.Ceil(float64(inputBound)*max(p.Input, p.CacheWrite, p.CacheRead) + float64(maxTokens)*p.Output))
}

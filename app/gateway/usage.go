package gateway

import (
	"math"

	jsonv2 "github.com/go-json-experiment/json"
)

// Usage flags, as Report.UsageFlag and the audit record carry them.
const (
	UsageClamped = "clamped" // the upstream's counts were impossible and were corrected
	// UsageEstimated: the counts are, at least in part, ours: the upstream
	// reported none, or the stream did not finish.
	UsageEstimated = "estimated"
)

// MaxInputTokens bounds a believable input count: no model reads more. A
// larger count from an upstream is replaced by our estimate.
const MaxInputTokens = 2_000_000

// EstimateBytesPerToken is the estimate's ratio of text to tokens: about 4
// bytes of English per token for common tokenizers, rounded down so the
// estimate errs high.
const EstimateBytesPerToken = 3

// EstimateInputTokens estimates a request's input tokens before the call:
// its text at EstimateBytesPerToken bytes a token, plus a few tokens of
// framing per message. count_tokens (when the upstream cannot count) and
// the usage of a call the upstream did not report use it; it is no
// bound (emoji take about a token a byte), so the quota reserves
// InputTokensBound instead.
func EstimateInputTokens(req *Request) int {
	n := len(req.System)
	for _, m := range req.Messages {
		n += len(m.Content) + 4*EstimateBytesPerToken
	}
	return (n + EstimateBytesPerToken - 1) / EstimateBytesPerToken
}

// estimateOutputTokens estimates the output of text sent in deltas
// pieces: at least one token per piece and one per EstimateBytesPerToken
// bytes, rounded up.
func estimateOutputTokens(bytes, deltas int) int {
	return max(deltas, (bytes+EstimateBytesPerToken-1)/EstimateBytesPerToken)
}

// fillUnreported estimates the counts an upstream did not report (no
// usage, null counts, an OpenAI-style answer or stream without usage), so
// that no such answer is free. No call reads no input, so an input of 0 is
// unreported; an output of 0 is, when text was delivered (bytes in
// deltas pieces). estimated says whether either count is now ours.
func fillUnreported(u Usage, req *Request, bytes, deltas int) (_ Usage, estimated bool) {
	if u.InputTokens == 0 {
		u.InputTokens, estimated = EstimateInputTokens(req), true
	}
	if u.OutputTokens == 0 && bytes > 0 {
		u.OutputTokens, estimated = estimateOutputTokens(bytes, deltas), true
	}
	return u, estimated
}

// FramingTokensBound bounds the tokens a message's framing (its role and
// the separators around it) adds to its text; InputTokensBound counts it
// once more for the system prompt and the answer's start.
const FramingTokensBound = 8

// InputTokensBound is an upper bound of a request's input tokens, which
// the quota reserves: byte-level BPE tokenizers (Claude's, GPT's, Llama's)
// never make a token of less than a byte, so text has at most as many
// tokens as bytes, and framing adds at most FramingTokensBound per
// message.
func InputTokensBound(req *Request) int {
	n := len(req.System) + FramingTokensBound*(len(req.Messages)+1)
	for _, m := range req.Messages {
		n += len(m.Content)
	}
	return n
}

// Usage counts tokens as the upstream reported them, after checkUsage.
type Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	// odd is set when the upstream sent a count that is not a whole
	// non-negative number; checkUsage flags it.
	odd bool
}

// UnmarshalJSON reads counts leniently: a fraction, a negative number or a
// huge one is kept in range here and flagged, never refused, since the
// answer itself may be fine.
func (u *Usage) UnmarshalJSON(b []byte) error {
	var w usageWire
	if err := jsonv2.Unmarshal(b, &w); err != nil {
		return err
	}
	*u = lenientUsage(w.InputTokens, w.OutputTokens)
	return nil
}

// usageWire is usage as an upstream sends it, any number.
type usageWire struct {
	InputTokens  *float64 `json:"input_tokens"`
	OutputTokens *float64 `json:"output_tokens"`
}

// lenientUsage makes a Usage of counts as an upstream sent them (nil when
// absent), in range, marked odd when any was not a whole non-negative
// number.
func lenientUsage(in, out *float64) Usage {
	var u Usage
	read := func(f *float64) int {
		if f == nil {
			return 0
		}
		v := *f
		if v < 0 || v != math.Trunc(v) || v > math.MaxInt32 {
			u.odd = true
		}
		return int(math.Ceil(min(max(v, 0), math.MaxInt32)))
	}
	u.InputTokens, u.OutputTokens = read(in), read(out)
	return u
}

// checkUsage never lets an upstream's impossible counts through: negative
// counts are 0 and fractions round up (already on reading), an input above
// MaxInputTokens is replaced by the estimate, and an output above the
// request's max_tokens is max_tokens. Then the call never counts more than
// it reserved (InputTokensBound plus max_tokens): an input that makes the
// total exceed it is cut to what is left of it, which is never less than
// the bound. The flag says whether anything was corrected.
func checkUsage(u Usage, req *Request) (Usage, string) {
	flag := ""
	if u.odd {
		flag = UsageClamped
	}
	if u.InputTokens > MaxInputTokens {
		u.InputTokens, flag = EstimateInputTokens(req), UsageClamped
	}
	if req.MaxTokens > 0 && u.OutputTokens > req.MaxTokens {
		u.OutputTokens, flag = req.MaxTokens, UsageClamped
	}
	if req.MaxTokens > 0 {
		// No text holds more tokens than its bound: an upstream that
		// claims 100,000 for "Hello" would otherwise spend the month's
		// quota, however little the call reserved.
		if reserved := InputTokensBound(req) + req.MaxTokens; u.InputTokens+u.OutputTokens > reserved {
			u.InputTokens, flag = reserved-u.OutputTokens, UsageClamped
		}
	}
	u.odd = false
	return u, flag
}

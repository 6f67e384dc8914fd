package gateway

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
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
// framing per message, and its images' and documents' bounds.
// count_tokens (when the upstream cannot count) and the usage of a call
// the upstream did not report use it; it is no bound (emoji take about a
// token a byte), so the quota reserves InputTokensBound instead.
func EstimateInputTokens(req *Request) int {
	s := sizeOf(req)
	n := s.text + 4*EstimateBytesPerToken*len(req.Messages)
	return (n+EstimateBytesPerToken-1)/EstimateBytesPerToken + s.media
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
	if u.AllInput() == 0 {
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
// never make a token of less than a byte, so text (tool definitions,
// calls and results, thinking and its signature included) has at most as
// many tokens as bytes; framing adds at most FramingTokensBound per
// message, block and tool; an image or a document adds its own bound
// (media.go).
func InputTokensBound(req *Request) int {
	s := sizeOf(req)
	return s.text + s.media + FramingTokensBound*(len(req.Messages)+s.parts+1)
}

// size is what a request holds, as the estimates and the bound count it.
type size struct {
	text  int // bytes of text, JSON and signatures
	media int // the images' and documents' token bounds
	parts int // blocks and tools, each with its framing
}

func sizeOf(req *Request) size {
	s := size{text: len(req.System)}
	for _, m := range req.Messages {
		if m.Blocks == nil {
			s.text += len(m.Content)
			continue
		}
		s.addBlocks(m.Blocks)
	}
	for _, t := range req.Tools {
		s.text += len(t.Name) + len(t.Description) + len(t.InputSchema)
		s.parts++
	}
	if f := req.Format; f != nil {
		// A forced tool on a messages-style provider: its name and schema.
		s.text += len(formatToolName) + len(f.Name) + len(f.Description) + len(f.Schema)
		s.parts++
	}
	return s
}

func (s *size) addBlocks(blocks []ContentBlock) {
	for _, b := range blocks {
		s.parts++
		switch b.Type {
		case BlockImage, BlockDocument:
			s.media += b.bound
			s.text += len(b.Title) + len(b.Context)
		case BlockToolResult:
			s.text += len(b.ToolUseID)
			s.addBlocks(b.Content)
		case BlockToolUse:
			s.text += len(b.ID) + len(b.Name) + len(b.Input)
		case BlockThinking:
			s.text += len(b.Thinking) + len(b.Signature)
		case BlockRedactedThinking:
			s.text += len(b.Data)
		default:
			s.text += len(b.Text)
		}
	}
}

// Usage counts tokens as the upstream reported them, after checkUsage, in
// buckets that never overlap: InputTokens is the input read neither from
// nor into the cache, CacheCreationInputTokens what was written to it,
// CacheReadInputTokens what was read from it (Anthropic reports them
// beside each other; OpenAI counts its cached tokens inside
// prompt_tokens, and the openai adapter takes them out). OutputTokens
// includes ReasoningTokens, which are kept apart as well (not a bucket
// of their own in a sum). Total is what a call costs the quota.
type Usage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens,omitempty"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens,omitempty"`
	ReasoningTokens          int `json:"-"`
	// CacheWrite1hTokens are those of CacheCreationInputTokens written to
	// the one-hour cache (Anthropic's cache_creation
	// .ephemeral_1h_input_tokens), which cost more (Price.Micros).
	CacheWrite1hTokens int `json:"-"`
	// odd is set when the upstream sent a count that is not a whole
	// non-negative number; checkUsage flags it.
	odd bool
}

// LongCache reports whether the request asks for a one-hour cache
// breakpoint anywhere (cache_control's ttl "1h"), whose writes cost more:
// a budget reserves them at their price (Price.WorstMicros).
func (r *Request) LongCache() bool {
	long := func(cc json.RawMessage) bool { return bytes.Contains(cc, []byte(`"1h"`)) }
	for _, t := range r.Tools {
		if long(t.CacheControl) {
			return true
		}
	}
	for _, b := range r.SystemBlocks {
		if long(b.CacheControl) {
			return true
		}
	}
	for _, m := range r.Messages {
		for _, b := range m.Blocks {
			if long(b.CacheControl) {
				return true
			}
		}
	}
	return false
}

// Total is the call's tokens, every bucket once.
func (u Usage) Total() int {
	return u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens + u.OutputTokens
}

// AllInput is the input of every bucket.
func (u Usage) AllInput() int {
	return u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
}

// UnmarshalJSON reads counts leniently: a fraction, a negative number or a
// huge one is kept in range here and flagged, never refused, since the
// answer itself may be fine.
func (u *Usage) UnmarshalJSON(b []byte) error { return jsonv2.Unmarshal(b, u) }

// UnmarshalJSONFrom is UnmarshalJSON where usage stands in an answer: read
// token by token (each count as v2 reads a *float64), not read out and
// parsed a second time.
func (u *Usage) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	var w usageWire
	err := readObject(dec, "usage", func(name []byte) error {
		switch string(name) {
		case "input_tokens":
			return readNumber(dec, &w.InputTokens)
		case "output_tokens":
			return readNumber(dec, &w.OutputTokens)
		case "cache_creation_input_tokens":
			return readNumber(dec, &w.CacheCreationInputTokens)
		case "cache_read_input_tokens":
			return readNumber(dec, &w.CacheReadInputTokens)
		case "cache_creation":
			if dec.PeekKind() == 'n' {
				return dec.SkipValue()
			}
			return readObject(dec, "usage.cache_creation", func(name []byte) error {
				if string(name) == "ephemeral_1h_input_tokens" {
					return readNumber(dec, &w.CacheWrite1h)
				}
				return dec.SkipValue()
			})
		}
		return dec.SkipValue()
	})
	if err != nil {
		return err
	}
	*u = lenientUsage(w.InputTokens, w.OutputTokens)
	u.CacheCreationInputTokens = u.read(w.CacheCreationInputTokens)
	u.CacheReadInputTokens = u.read(w.CacheReadInputTokens)
	if u.CacheWrite1hTokens = u.read(w.CacheWrite1h); u.CacheWrite1hTokens > u.CacheCreationInputTokens {
		u.CacheWrite1hTokens, u.odd = u.CacheCreationInputTokens, true // a part above its whole
	}
	return nil
}

// readNumber reads a JSON number into a new *f, or null as nil, as v2
// reads a *float64: a number beyond float64's range is an error.
func readNumber(dec *jsontext.Decoder, f **float64) error {
	v, err := dec.ReadValue()
	if err != nil {
		return err
	}
	switch v.Kind() {
	case 'n':
		*f = nil
	case '0':
		n, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			return err
		}
		*f = &n
	default:
		return fmt.Errorf("expected a number, not %v", v.Kind())
	}
	return nil
}

// usageWire is usage as an upstream sends it, any number.
type usageWire struct {
	InputTokens              *float64 `json:"input_tokens"`
	OutputTokens             *float64 `json:"output_tokens"`
	CacheCreationInputTokens *float64 `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     *float64 `json:"cache_read_input_tokens"`
	CacheWrite1h             *float64 `json:"-"` // cache_creation.ephemeral_1h_input_tokens
}

// lenientUsage makes a Usage of counts as an upstream sent them (nil when
// absent), in range, marked odd when any was not a whole non-negative
// number.
func lenientUsage(in, out *float64) Usage {
	var u Usage
	u.InputTokens, u.OutputTokens = u.read(in), u.read(out)
	return u
}

// read takes one count as an upstream sent it (nil when absent), in
// range, marking u odd when it was not a whole non-negative number.
func (u *Usage) read(f *float64) int {
	if f == nil {
		return 0
	}
	v := *f
	if v < 0 || v != math.Trunc(v) || v > math.MaxInt32 {
		u.odd = true
	}
	return int(math.Ceil(min(max(v, 0), math.MaxInt32)))
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
	if u.AllInput() > MaxInputTokens {
		u.InputTokens, flag = EstimateInputTokens(req), UsageClamped
		u.CacheCreationInputTokens, u.CacheReadInputTokens, u.CacheWrite1hTokens = 0, 0, 0
	}
	if req.MaxTokens > 0 && u.OutputTokens > req.MaxTokens {
		u.OutputTokens, flag = req.MaxTokens, UsageClamped
	}
	if u.ReasoningTokens > u.OutputTokens {
		u.ReasoningTokens, flag = u.OutputTokens, UsageClamped
	}
	if req.MaxTokens > 0 {
		// No text holds more tokens than its bound: an upstream that
		// claims 100,000 for "Hello" would otherwise spend the month's
		// quota, however little the call reserved. The input buckets are
		// cut, the uncached first.
		if over := u.Total() - (InputTokensBound(req) + req.MaxTokens); over > 0 {
			flag = UsageClamped
			for _, b := range []*int{&u.InputTokens, &u.CacheCreationInputTokens, &u.CacheReadInputTokens} {
				cut := min(over, *b)
				*b, over = *b-cut, over-cut
			}
			u.CacheWrite1hTokens = min(u.CacheWrite1hTokens, u.CacheCreationInputTokens)
		}
	}
	u.odd = false
	return u, flag
}

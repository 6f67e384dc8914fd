package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode"
)

// Demo is an in-process upstream for development and the playground when no
// provider is configured. It runs no model: it answers deterministically with
// a description of the request, one word per token, streamed word by word,
// honouring max_tokens and stop_sequences and reporting usage (input tokens
// are the words of the prompt). To the Proxy it is just another Upstream.
type Demo struct {
	// WordDelay is the pause before each word, streamed or not, so the demo
	// feels (and times out) like a real model. Zero in tests.
	WordDelay time.Duration
}

// demoQuoteLen is how much of the last user message the answer quotes.
const demoQuoteLen = 200

// demoAnswers are answers the demo gives to the prompts it recognises,
// registered by the packages that write those prompts (the tools' AI
// help), so that their features show something meaningful without a
// model. Registered at init, read only afterwards.
var demoAnswers []func(*Request) (string, bool)

// RegisterDemoAnswer adds an answer the demo gives instead of its
// description of the request when f recognises the request. Call it from
// an init function.
func RegisterDemoAnswer(f func(*Request) (string, bool)) { demoAnswers = append(demoAnswers, f) }

// demoAnswer is the demo's answer to one request: its text split into
// tokens (words with their leading space) and why it stopped.
type demoAnswer struct {
	tokens       []string
	stopReason   string
	stopSequence *string
	inputTokens  int
}

func (d *Demo) Complete(ctx context.Context, req *Request) (*Message, error) {
	if call := demoToolCall(req); call != nil {
		return d.completeTool(ctx, req, call)
	}
	a := answerDemo(req)
	if err := sleep(ctx, time.Duration(len(a.tokens))*d.WordDelay); err != nil {
		return nil, err
	}
	return &Message{ID: newMessageID(), Model: req.Model,
		Content:    []ContentBlock{{Type: "text", Text: strings.Join(a.tokens, "")}},
		StopReason: a.stopReason, StopSequence: a.stopSequence,
		Usage: Usage{InputTokens: a.inputTokens, OutputTokens: len(a.tokens)}}, nil
}

func (d *Demo) Stream(ctx context.Context, req *Request, emit func(Event) error) error {
	if call := demoToolCall(req); call != nil {
		return d.streamTool(ctx, req, call, emit)
	}
	a := answerDemo(req)
	start := &Message{ID: newMessageID(), Model: req.Model, Usage: Usage{InputTokens: a.inputTokens}}
	for _, ev := range []Event{
		{Type: EventMessageStart, Message: start},
		{Type: EventContentBlockStart, Block: &ContentBlock{Type: "text"}},
		{Type: EventPing}, // Anthropic sends one here too; clients must cope
	} {
		if err := emit(ev); err != nil {
			return err
		}
	}
	for _, tok := range a.tokens {
		if err := sleep(ctx, d.WordDelay); err != nil {
			return err
		}
		if err := emit(Event{Type: EventContentBlockDelta, Text: tok}); err != nil {
			return err
		}
	}
	for _, ev := range []Event{
		{Type: EventContentBlockStop},
		{Type: EventMessageDelta, StopReason: a.stopReason, StopSequence: a.stopSequence,
			Usage: &Usage{OutputTokens: len(a.tokens)}},
		{Type: EventMessageStop},
	} {
		if err := emit(ev); err != nil {
			return err
		}
	}
	return nil
}

// answerDemo computes the whole answer up front, as a model would generate
// it token by token: the text stops at max_tokens words, or just before the
// first stop sequence if that comes earlier (the sequence is not part of the
// answer, as with a real model).
func answerDemo(req *Request) demoAnswer {
	full := demoText(req)
	for _, f := range demoAnswers {
		if text, ok := f(req); ok {
			full = text
			break
		}
	}
	all := splitTokens(full)
	a := demoAnswer{tokens: all, stopReason: StopEndTurn, inputTokens: countWords(req.System)}
	for _, m := range req.Messages {
		a.inputTokens += countWords(m.Content)
	}
	limit := len(full)
	if len(all) > req.MaxTokens {
		limit = len(strings.Join(all[:req.MaxTokens], ""))
		a.tokens, a.stopReason = all[:req.MaxTokens], StopMaxTokens
	}
	at, seq := len(full), ""
	for _, s := range req.StopSequences {
		if i := strings.Index(full, s); i >= 0 && (i < at || i == at && len(s) > len(seq)) {
			at, seq = i, s
		}
	}
	if seq != "" && at+len(seq) <= limit {
		a.tokens, a.stopReason, a.stopSequence = splitTokens(full[:at]), StopStopSequence, &seq
	}
	return a
}

// demoText says what the demo is and describes the request (and the
// tools' results it was given); asked for a response_format, it is JSON
// made from the schema.
func demoText(req *Request) string {
	if f := req.Format; f != nil {
		out, _ := json.Marshal(sampleOf(f.Schema))
		return string(out)
	}
	var b strings.Builder
	if n := len(req.Messages); n > 0 {
		for _, blk := range req.Messages[n-1].Blocks {
			if blk.Type == BlockToolResult {
				fmt.Fprintf(&b, "The tool call %s returned %q. ", blk.ToolUseID, quote(toolResultText(blk)))
			}
		}
	}
	b.WriteString("Hello from Parapet's demo upstream. No real model is behind it, so this answer only describes your request. ")
	fmt.Fprintf(&b, "It has %d %s", len(req.Messages), plural(len(req.Messages), "message", "messages"))
	last := ""
	for _, m := range req.Messages {
		if m.Role == "user" {
			last = m.Content
		}
	}
	if last != "" {
		fmt.Fprintf(&b, "; the last user message is %q. ", quote(last))
	} else {
		b.WriteString(" and none from the user. ")
	}
	if req.System != "" {
		fmt.Fprintf(&b, "The system prompt is %q. ", quote(req.System))
	} else {
		b.WriteString("There is no system prompt. ")
	}
	fmt.Fprintf(&b, "Model: %s, max_tokens: %d.", req.Model, req.MaxTokens)
	return b.String()
}

// quote flattens whitespace and shortens s for the demo's answer.
func quote(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > demoQuoteLen {
		s = strings.TrimRightFunc(string(r[:demoQuoteLen]), unicode.IsSpace) + "…"
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// splitTokens cuts s before the spaces that precede each word after the
// first, so every token but the first is " word" (trailing spaces stay with
// the last), as models stream, and the tokens join back to exactly s.
func splitTokens(s string) []string {
	var tokens []string
	start, inWord := 0, false
	for i, r := range s {
		space := unicode.IsSpace(r)
		if space && inWord && strings.TrimSpace(s[start:i]) != "" {
			tokens = append(tokens, s[start:i])
			start = i
		}
		inWord = !space
	}
	switch rest := s[start:]; {
	case rest == "":
	case strings.TrimSpace(rest) == "" && len(tokens) > 0:
		tokens[len(tokens)-1] += rest
	default:
		tokens = append(tokens, rest)
	}
	return tokens
}

func countWords(s string) int {
	return len(strings.Fields(s))
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

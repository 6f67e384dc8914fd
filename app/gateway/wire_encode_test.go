package gateway

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// The hand-written encoders write byte for byte what encoding/json writes
// for the same values: a string, a kept JSON value, usage, a block of
// every type (against the struct encoding/json was given before), a
// whole Messages request.

// wireStrings are strings with everything encoding/json escapes.
var wireStrings = []string{"", "Hi", `say "hi" \ back`, "<b>&amp;</b>", "tab\tnew\nline\rcr\bbs\fff",
	"\x00\x01\x1f\x7f", "bad \xff\xfe utf-8 \xe2\x82", "line\u2028para\u2029", "é 日本 🙂", "a\u00a0b"}

func TestAppendStringIsEncodingJSONs(t *testing.T) {
	for _, s := range wireStrings {
		want, _ := json.Marshal(s)
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range wireStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendString([]byte("x"), s); !bytes.Equal(got[1:], want) {
			t.Errorf("%q: got %s, want %s", s, got[1:], want)
		}
	})
}

// wireRaws are kept JSON values: compact or not, with what must be
// escaped, and invalid ones.
var wireRaws = []string{`{}`, `{"type":"ephemeral"}`, "{ \"type\" :\n\t\"ephemeral\" }", `{"html":"<a href='x'>&</a>"}`,
	`["\u2028", "` + "\u2028\u2029" + `"]`, `[1, 2.5e3, -0, true, false, null]`, `{"a":{"b":[{"c":"d"}]}}`,
	`{`, `{"a":}`, `nul`, ``}

func TestAppendRawIsEncodingJSONs(t *testing.T) {
	for _, raw := range wireRaws {
		want, wantErr := json.Marshal(json.RawMessage(raw))
		got, err := appendRaw([]byte("x"), json.RawMessage(raw))
		if raw == "" {
			// An absent value is never appended (omitempty); nil writes null.
			got, err = appendRaw(nil, nil)
			want, wantErr = []byte("null"), nil
		} else if err == nil {
			got = got[1:]
		}
		if (err != nil) != (wantErr != nil) || err == nil && !bytes.Equal(got, want) {
			t.Errorf("%q: got %s (%v), want %s (%v)", raw, got, err, want, wantErr)
		}
	}
}

// blockWireOf is the struct a block was given to encoding/json as.
func blockWireOf(b ContentBlock) blockWire {
	w := blockWire{Type: b.Type, CacheControl: b.CacheControl}
	switch b.Type {
	case BlockText:
		w.Text = &b.Text
	case BlockToolUse:
		w.ID, w.Name, w.Input = b.ID, b.Name, b.Input
		if len(w.Input) == 0 {
			w.Input = json.RawMessage(`{}`)
		}
	case BlockToolResult:
		w.ToolUseID, w.IsError = b.ToolUseID, b.IsError
		switch {
		case b.contentString:
			w.Content = toolResultText(b)
			if len(b.Content) == 0 {
				w.Content = nil
			}
		case b.Content != nil:
			w.Content = b.Content
		}
	case BlockImage, BlockDocument:
		w.Source, w.Title, w.Context, w.Citations = b.Source, b.Title, b.Context, b.Citations
	case BlockThinking:
		w.Thinking = &b.Thinking
		if b.Signature != "" {
			w.Signature = &b.Signature
		}
	case BlockRedactedThinking:
		w.Data = b.Data
	}
	return w
}

// randomBlock is a block of any type with random fields, set or not.
func randomBlock(r *rand.Rand, depth int) ContentBlock {
	str := func() string {
		if r.IntN(3) == 0 {
			return ""
		}
		return wireStrings[r.IntN(len(wireStrings))]
	}
	raw := func() json.RawMessage {
		if r.IntN(3) == 0 {
			return nil
		}
		return json.RawMessage(wireRaws[r.IntN(7)]) // the valid ones
	}
	types := []string{BlockText, BlockImage, BlockDocument, BlockToolUse, BlockToolResult, BlockThinking, BlockRedactedThinking}
	b := ContentBlock{Type: types[r.IntN(len(types))], Text: str(), ID: str(), Name: str(), Input: raw(), ToolUseID: str(),
		Title: str(), Context: str(), Citations: raw(), Thinking: str(), Signature: str(), Data: str(), CacheControl: raw(),
		contentString: r.IntN(2) == 0}
	if r.IntN(2) == 0 {
		b.IsError = new(r.IntN(2) == 0)
	}
	if r.IntN(2) == 0 {
		b.Source = &Source{Type: str(), MediaType: str(), Data: str(), URL: str()}
	}
	if depth == 0 && r.IntN(2) == 0 {
		b.Content = []ContentBlock{}
		for range r.IntN(3) {
			b.Content = append(b.Content, randomBlock(r, 1))
		}
	}
	return b
}

func TestAppendBlockIsEncodingJSONs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		b := randomBlock(r, 0)
		want, err := json.Marshal(blockWireOf(b))
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendBlock(nil, &b)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%+v:\n got %s (%v)\nwant %s", b, got, err, want)
		}
	}
	if _, err := appendBlock(nil, &ContentBlock{Type: "server_tool_use"}); err == nil {
		t.Error("a block of an unknown type was encoded")
	}
}

// A turn is compared with encoding/json given the turn's own shape, its
// blocks as the structs they were encoded from, so that the request test
// (whose encoding/json calls ChatMessage.MarshalJSON) does not compare
// appendTurn with itself.
func TestAppendTurnIsEncodingJSONs(t *testing.T) {
	type turnWire struct {
		Role    string `json:"role"`
		Content any    `json:"content"`
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		m := ChatMessage{Role: wireStrings[r.IntN(len(wireStrings))], Content: wireStrings[r.IntN(len(wireStrings))]}
		w := turnWire{Role: m.Role, Content: m.Content}
		if r.IntN(2) == 0 {
			m.Blocks = []ContentBlock{}
			var blocks []blockWire
			for range r.IntN(3) {
				b := randomBlock(r, 1) // no nested content: blockWire would encode it with appendBlock
				m.Blocks = append(m.Blocks, b)
				blocks = append(blocks, blockWireOf(b))
			}
			w.Content = append([]blockWire{}, blocks...)
		}
		want, err := json.Marshal(w)
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendTurn(nil, &m)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%+v:\n got %s (%v)\nwant %s", m, got, err, want)
		}
	}
}

func TestAppendUsageIsEncodingJSONs(t *testing.T) {
	for _, u := range []Usage{{}, {InputTokens: 3, OutputTokens: 1}, {InputTokens: 1, OutputTokens: 2, CacheCreationInputTokens: 3, CacheReadInputTokens: 4, ReasoningTokens: 5},
		{CacheReadInputTokens: 7}, {InputTokens: -1, OutputTokens: 1 << 40}} {
		want, _ := json.Marshal(u)
		if got := appendUsage(nil, u); !bytes.Equal(got, want) {
			t.Errorf("%+v: got %s, want %s", u, got, want)
		}
	}
}

func TestMessagesRequestAppendIsEncodingJSONs(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pick := func(s ...string) string { return s[r.IntN(len(s))] }
	for range 2000 {
		req := messagesRequest{Model: pick("claude-sonnet-4-5", "<m>"), MaxTokens: r.IntN(100000), Stream: r.IntN(2) == 0}
		switch r.IntN(3) {
		case 1:
			req.System = pick(wireStrings...)
		case 2:
			req.System = []ContentBlock{{Type: BlockText, Text: pick(wireStrings...), CacheControl: json.RawMessage(`{"type":"ephemeral"}`)}}
		}
		if r.IntN(10) > 0 {
			req.Messages = []ChatMessage{}
			for range r.IntN(4) {
				m := ChatMessage{Role: pick("user", "assistant"), Content: pick(wireStrings...)}
				if r.IntN(2) == 0 {
					m.Blocks = []ContentBlock{randomBlock(r, 0), randomBlock(r, 0)}
				}
				req.Messages = append(req.Messages, m)
			}
		}
		for range r.IntN(3) {
			tool := Tool{Name: pick(wireStrings...), Description: pick(wireStrings...), InputSchema: json.RawMessage(pick(wireRaws[:7]...))}
			if r.IntN(2) == 0 {
				tool.Strict = new(r.IntN(2) == 0)
				tool.CacheControl = json.RawMessage(`{"type":"ephemeral"}`)
			}
			if r.IntN(3) == 0 {
				tool.EagerInputStreaming = new(r.IntN(2) == 0)
			}
			if r.IntN(5) == 0 {
				tool.InputSchema = nil
			}
			req.Tools = append(req.Tools, tool)
		}
		if r.IntN(2) == 0 {
			req.ToolChoice = &messagesChoice{Type: pick("auto", "any", "tool", "none"), Name: pick("", "f"), DisableParallelToolUse: r.IntN(2) == 0}
		}
		if r.IntN(2) == 0 {
			req.Thinking = &messagesThinking{Type: "enabled", BudgetTokens: r.IntN(5000)}
		}
		if r.IntN(2) == 0 {
			req.Temperature, req.TopP, req.TopK = new(r.Float64()), new(float64(r.IntN(3))/2), new(r.IntN(50))
		}
		if r.IntN(2) == 0 {
			req.StopSequences = []string{pick(wireStrings...), "\n\nHuman:"}
		}
		if r.IntN(2) == 0 {
			req.Metadata = &messagesMetadata{UserID: pick(wireStrings...)}
		}
		want, wantErr := json.Marshal(req)
		got, err := req.appendJSON(nil)
		if (err != nil) != (wantErr != nil) || !bytes.Equal(got, want) {
			t.Fatalf("got  %s (%v)\nwant %s (%v)", got, err, want, wantErr)
		}
	}
}

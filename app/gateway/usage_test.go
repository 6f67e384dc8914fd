package gateway

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCheckUsage(t *testing.T) {
	req := &Request{MaxTokens: 100, Messages: []ChatMessage{{Role: "user", Content: "Hello there"}}}
	tests := []struct {
		name, json string
		want       Usage
		flag       string
	}{
		{"as reported", `{"input_tokens":12,"output_tokens":34}`, Usage{InputTokens: 12, OutputTokens: 34}, ""},
		{"negative", `{"input_tokens":-5,"output_tokens":3}`, Usage{InputTokens: 0, OutputTokens: 3}, UsageClamped},
		{"fraction rounds up", `{"input_tokens":2,"output_tokens":3.2}`, Usage{InputTokens: 2, OutputTokens: 4}, UsageClamped},
		{"absurd input is the estimate", `{"input_tokens":1e12,"output_tokens":1}`, Usage{InputTokens: EstimateInputTokens(req), OutputTokens: 1}, UsageClamped},
		{"input beyond the reservation", `{"input_tokens":100000,"output_tokens":1}`, Usage{InputTokens: InputTokensBound(req) + 99, OutputTokens: 1}, UsageClamped},
		{"input beyond the bound, within the reservation", `{"input_tokens":60,"output_tokens":10}`, Usage{InputTokens: 60, OutputTokens: 10}, ""},
		{"input at the bound, output at max_tokens", `{"input_tokens":27,"output_tokens":100}`, Usage{InputTokens: 27, OutputTokens: 100}, ""},
		{"input beyond the bound, output at max_tokens", `{"input_tokens":28,"output_tokens":100}`, Usage{InputTokens: 27, OutputTokens: 100}, UsageClamped},
		{"output above max_tokens", `{"input_tokens":1,"output_tokens":5000}`, Usage{InputTokens: 1, OutputTokens: 100}, UsageClamped},
		{"absent counts", `{}`, Usage{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var u Usage
			if err := json.Unmarshal([]byte(tt.json), &u); err != nil {
				t.Fatal(err)
			}
			got, flag := checkUsage(u, req)
			if got != tt.want || flag != tt.flag {
				t.Errorf("got %+v %q, want %+v %q", got, flag, tt.want, tt.flag)
			}
		})
	}
}

func TestScrub(t *testing.T) {
	sc := newScrubber("sk-ant-api03-ABCDEFGHIJKLMNOP")
	tests := map[string]string{
		"no key here":                               "no key here",
		"full sk-ant-api03-ABCDEFGHIJKLMNOP key":    "full [redacted] key",
		"a run ABCDEFGH of 8":                       "a run [redacted] of 8",
		"7 only: ABCDEFG, fine":                     "7 only: ABCDEFG, fine",
		"two runs api03-ABC and KLMNOP…":            "two runs [redacted] and KLMNOP…",
		"adjacent sk-ant-apiFGHIJKLMN end":          "adjacent [redacted][redacted] end",
		"at the end: 3-ABCDEFGHIJ":                  "at the end: [redacted]",
		"overlapping ABCDEFGHIJKLMNOP is one match": "overlapping [redacted] is one match",
	}
	for in, want := range tests {
		if got := sc.scrub(in); got != want {
			t.Errorf("scrub(%q) = %q, want %q", in, got, want)
		}
	}
	if got := newScrubber("short").scrub("a short key"); got != "a [redacted] key" {
		t.Errorf("short key: %q", got)
	}
	if got := newScrubber("").scrub("anything"); got != "anything" {
		t.Errorf("no key: %q", got)
	}
}

// scrubByStrings is the scrubber written with the key's 8-character
// substrings as strings: the integer windows must agree with it.
func scrubByStrings(key, text string) string {
	grams := map[string]bool{}
	for i := 0; i+MinScrubRun <= len(key); i++ {
		grams[key[i:i+MinScrubRun]] = true
	}
	var b strings.Builder
	done := 0
	for i := 0; i+MinScrubRun <= len(text); i++ {
		if !grams[text[i:i+MinScrubRun]] {
			continue
		}
		end := i + MinScrubRun
		for end < len(text) && grams[text[end-MinScrubRun+1:end+1]] {
			end++
		}
		if i > done {
			b.WriteString(text[done:i])
		}
		if i >= done {
			b.WriteString("[redacted]")
		}
		done, i = end, end-1
	}
	if done == 0 {
		return text
	}
	b.WriteString(text[done:])
	return b.String()
}

func FuzzScrub(f *testing.F) {
	const key = "sk-ant-api03-ABCDEFGHIJKLMNOP"
	f.Add("full sk-ant-api03-ABCDEFGHIJKLMNOP key and ABCDEFGH, ABCDEFG, sk-ant-apiFGHIJKLMN")
	f.Add("")
	sc := newScrubber(key)
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := sc.scrub(text), scrubByStrings(key, text); got != want {
			t.Errorf("scrub(%q) = %q, want %q", text, got, want)
		}
	})
}

// scrubPieces scrubs text cut into pieces at the given lengths, as a
// stream's deltas are, and returns what the client is sent, piece by
// piece, what was held back last.
func scrubPieces(sc *scrubber, text string, cuts []byte) []string {
	var out []string
	var p pieces
	for len(text) > 0 {
		n := len(text)
		if len(cuts) > 0 {
			n, cuts = min(n, int(cuts[0])%12+1), cuts[1:]
		}
		out, text = append(out, sc.scrubPiece(&p, text[:n])), text[n:]
	}
	return append(out, sc.endPieces(&p))
}

func TestScrubPieces(t *testing.T) {
	const key = "sk-ant-api03-ABCDEFGHIJKLMNOP"
	sc := newScrubber(key)
	// The key in pieces of 4 bytes: each passes alone, joined they are
	// the key. The client gets what the whole text scrubbed is.
	got := scrubPieces(sc, "leaked "+key+" there", []byte{3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3})
	if joined := strings.Join(got, ""); joined != "leaked [redacted] there" || len(got) != 11+1 { // 42 bytes: 11 pieces, and the end
		t.Errorf("pieces %q", got)
	}
	// Text with nothing of the key goes out as it comes.
	if got := scrubPieces(sc, "Hello, world", []byte{4, 6}); strings.Join(got, "|") != "Hello|, world|" {
		t.Errorf("pieces %q", got)
	}
	// What is held starts a character.
	var p pieces
	if send := newScrubber("\xa9-key-1234").scrubPiece(&p, "caf\u00e9"); send != "caf" || p.held != "\u00e9" {
		t.Errorf("held %q after %q", p.held, send)
	}
	// A key shorter than MinScrubRun is replaced whole, even in pieces.
	if got := scrubPieces(newScrubber("short"), "a short key, shor", []byte{2, 1}); strings.Join(got, "") != "a [redacted] key, shor" {
		t.Errorf("short key: %q", got)
	}
}

// FuzzScrubPieces: however a text is cut into pieces, they join into
// what scrub makes of the whole text, so no run of MinScrubRun characters
// of the key reaches the client; each piece gets one piece out.
func FuzzScrubPieces(f *testing.F) {
	f.Add("full sk-ant-api03-ABCDEFGHIJKLMNOP key and ABCDEFGH, ABCDEFG, sk-ant-apiFGHIJKLMN", []byte{3, 1, 7, 0, 11}, false)
	f.Add("ABCDEFGHIJKLMNOP", []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, false)
	f.Add("aaaa shortshortshor", []byte{0, 2, 0, 1}, true)
	long, short := newScrubber("sk-ant-api03-ABCDEFGHIJKLMNOP"), newScrubber("short")
	f.Fuzz(func(t *testing.T, text string, cuts []byte, shortKey bool) {
		sc := long
		if shortKey {
			sc = short
		}
		got := scrubPieces(sc, text, cuts)
		if joined, want := strings.Join(got, ""), sc.scrub(text); joined != want {
			t.Errorf("%q cut %v reached the client as %q, want %q", text, cuts, got, want)
		}
	})
}

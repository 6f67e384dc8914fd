package gateway

import (
	"context"
	"strings"
	"unicode/utf8"
)

// MinScrubRun is the shortest run of the upstream key that is scrubbed: an
// upstream error may quote part of the key it was sent ("sk-ant-…abcd"),
// and any 8 characters of it are too many to hand out.
const MinScrubRun = 8

// scrubber removes every run of MinScrubRun or more characters of the
// upstream key from text that may reach a client or a log. It indexes the
// key's substrings of that length once, as 8-byte integers, with a bit
// filter in front of the set: scrubbing is one pass over the text, and a
// position that cannot start a run (nearly all of them) costs a multiply
// and a bit test, not a map look-up. Replies are scrubbed whole.
type scrubber struct {
	key    string
	grams  map[uint64]struct{}
	filter *[1 << 10]uint64 // 65,536 bits, set for the grams' hashes
}

func newScrubber(key string) *scrubber {
	s := &scrubber{key: key, grams: map[uint64]struct{}{}, filter: new([1 << 10]uint64)}
	for i := 0; i+MinScrubRun <= len(key); i++ {
		w := window(key, i)
		s.grams[w] = struct{}{}
		h := filterBit(w)
		s.filter[h>>6] |= 1 << (h & 63)
	}
	return s
}

// filterBit hashes a window to one of the filter's bits (Fibonacci hashing).
func filterBit(w uint64) uint64 { return (w * 0x9E3779B97F4A7C15) >> 48 }

// window is text[i:i+8] as an integer (MinScrubRun is 8).
func window(text string, i int) uint64 {
	var w uint64
	for k := MinScrubRun - 1; k >= 0; k-- {
		w = w<<8 | uint64(text[i+k])
	}
	return w
}

func (s *scrubber) isKeyRun(text string, i int) bool { return s.isGram(window(text, i)) }

func (s *scrubber) isGram(w uint64) bool {
	if h := filterBit(w); s.filter[h>>6]&(1<<(h&63)) == 0 {
		return false
	}
	_, ok := s.grams[w]
	return ok
}

// sparing is s for one call whose request holds the texts callerTexts
// gives: the runs of the key the caller wrote itself (every MinScrubRun
// characters of them) are its own text, not a leak, and are not redacted.
// Redacting them would tell the caller, through an upstream that quotes
// the request (a 404's "model: <name>", a model asked to repeat a text),
// whether its guess extends a run of the key: the key would fall a
// character at a time. The texts are only gathered when there is a key.
func (s *scrubber) sparing(callerTexts func() []string) *scrubber {
	if s == nil || s.key == "" {
		return s
	}
	texts := callerTexts()
	if len(s.key) < MinScrubRun {
		for _, t := range texts {
			if strings.Contains(t, s.key) {
				return nil // the caller wrote the whole key: nothing to hide
			}
		}
		return s
	}
	var own map[uint64]struct{}
	for _, t := range texts {
		var w uint64
		for i := 0; i < len(t); i++ {
			w = w>>8 | uint64(t[i])<<56 // the window ending at i
			if i >= MinScrubRun-1 && s.isGram(w) {
				if own == nil {
					own = map[uint64]struct{}{}
				}
				own[w] = struct{}{}
			}
		}
	}
	if own == nil {
		return s
	}
	grams := make(map[uint64]struct{}, len(s.grams))
	for w := range s.grams {
		if _, mine := own[w]; !mine {
			grams[w] = struct{}{}
		}
	}
	return &scrubber{key: s.key, grams: grams, filter: s.filter}
}

type scrubberKey struct{}

// withScrubber gives a call's upstream the call's scrubber (see sparing),
// for the errors it makes of the upstream's answers.
func withScrubber(ctx context.Context, s *scrubber) context.Context {
	return context.WithValue(ctx, scrubberKey{}, s)
}

// scrubberFrom is the call's scrubber, fallback outside a call.
func scrubberFrom(ctx context.Context, fallback *scrubber) *scrubber {
	if s, ok := ctx.Value(scrubberKey{}).(*scrubber); ok {
		return s
	}
	return fallback
}

// scrub returns text with each run of the key replaced by [redacted]. A
// key shorter than MinScrubRun is replaced whole.
func (s *scrubber) scrub(text string) string {
	if s == nil || s.key == "" {
		return text
	}
	if len(s.key) < MinScrubRun {
		return strings.ReplaceAll(text, s.key, "[redacted]")
	}
	if len(text) < MinScrubRun {
		return text
	}
	var b strings.Builder
	done := 0                 // text[:done] is written or redacted
	w := window(text, 0) << 8 // rolled forward a byte at the loop's top
	for i := 0; i+MinScrubRun <= len(text); i++ {
		w = w>>8 | uint64(text[i+MinScrubRun-1])<<56
		if !s.isGram(w) {
			continue
		}
		end := i + MinScrubRun
		// Extend over overlapping matches: one [redacted] per run.
		for end < len(text) && s.isKeyRun(text, end-MinScrubRun+1) {
			end++
		}
		if b.Len() == 0 {
			b.Grow(len(text))
		}
		if i > done {
			b.WriteString(text[done:i])
		}
		if i >= done {
			b.WriteString("[redacted]")
		}
		done = end
		i = end - 1
		if i+MinScrubRun < len(text) {
			w = window(text, i) // the window the loop rolls on from
		}
	}
	if done == 0 {
		return text
	}
	b.WriteString(text[done:])
	return b.String()
}

// pieces is what scrubbing a text that arrives in pieces (a stream's text
// deltas) carries from one piece to the next, so that the pieces the
// client is sent join into exactly what scrub makes of the whole text,
// however the upstream splits a run of the key (into pieces of 4 bytes,
// say, each of which passes alone).
type pieces struct {
	held  string // the raw end of the text so far that may still change
	inRun bool   // held ends a run already sent as [redacted]
}

// scrubPiece scrubs the next piece of a text and returns what may go out
// now, possibly less than it brought, even nothing: the longest end of
// the text so far that a later piece could make into a run (at most
// MinScrubRun-1 bytes, the end of a run being replaced) is held back.
func (s *scrubber) scrubPiece(p *pieces, text string) string {
	if s == nil || s.key == "" {
		return text
	}
	buf := p.held + text
	if len(s.key) < MinScrubRun {
		return s.shortKeyPiece(p, buf)
	}
	var out strings.Builder
	for {
		if p.inRun {
			// buf starts with the run's last MinScrubRun-1 bytes: extend
			// the run as scrub does, one byte per window of the key.
			j := 0
			for j+MinScrubRun <= len(buf) && s.isKeyRun(buf, j) {
				j++
			}
			if j+MinScrubRun > len(buf) {
				p.held = buf[j:] // the run may go on in the next piece
				return out.String()
			}
			p.inRun, buf = false, buf[j+MinScrubRun-1:]
		}
		i := s.firstRun(buf)
		if i < 0 {
			break
		}
		out.WriteString(buf[:i])
		out.WriteString("[redacted]")
		p.inRun, buf = true, buf[i+1:]
	}
	cut := len(buf) - s.keyTail(buf)
	out.WriteString(buf[:cut])
	p.held = buf[cut:]
	return out.String()
}

// endPieces returns what is held back once no piece follows.
func (s *scrubber) endPieces(p *pieces) string {
	rest := p.held
	if p.inRun {
		rest = "" // the end of a run already replaced
	}
	*p = pieces{}
	return rest
}

// firstRun is where the first run of the key in text starts, or -1.
func (s *scrubber) firstRun(text string) int {
	for i := 0; i+MinScrubRun <= len(text); i++ {
		if s.isKeyRun(text, i) {
			return i
		}
	}
	return -1
}

// keyTail is how much of text's end a later piece could make into a run:
// its longest end shorter than MinScrubRun that is part of the key (no
// run can start before it), taken from a character's start.
func (s *scrubber) keyTail(text string) int {
	for n := min(MinScrubRun-1, len(text)); n > 0; n-- {
		if strings.Contains(s.key, text[len(text)-n:]) {
			for n < len(text) && !utf8.RuneStart(text[len(text)-n]) {
				n++
			}
			return n
		}
	}
	return 0
}

// shortKeyPiece is scrubPiece for a key shorter than MinScrubRun, which
// scrub replaces whole: what follows the last occurrence replaced and may
// begin the key is held back.
func (s *scrubber) shortKeyPiece(p *pieces, buf string) string {
	after := 0
	for {
		i := strings.Index(buf[after:], s.key)
		if i < 0 {
			break
		}
		after += i + len(s.key)
	}
	cut := len(buf)
	for n := min(len(s.key)-1, len(buf)-after); n > 0; n-- {
		if strings.HasPrefix(s.key, buf[len(buf)-n:]) {
			cut = len(buf) - n
			break
		}
	}
	p.held = buf[cut:]
	return strings.ReplaceAll(buf[:cut], s.key, "[redacted]")
}

package gateway

import "strings"

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

// scrub returns text with each run of the key replaced by [redacted]. A
// key shorter than MinScrubRun is replaced whole.
func (s *scrubber) scrub(text string) string {
	if s == nil || s.key == "" {
		return text
	}
	if len(s.grams) == 0 {
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

package gateway

import "strings"

// MinScrubRun is the shortest run of the upstream key that is scrubbed: an
// upstream error may quote part of the key it was sent ("sk-ant-…abcd"),
// and any 8 characters of it are too many to hand out.
const MinScrubRun = 8

// scrubber removes every run of MinScrubRun or more characters of the
// upstream key from text that may reach a client or a log. It indexes the
// key's substrings of that length once, so scrubbing is one pass over the
// text.
type scrubber struct {
	key   string
	grams map[string]struct{}
}

func newScrubber(key string) *scrubber {
	s := &scrubber{key: key, grams: map[string]struct{}{}}
	for i := 0; i+MinScrubRun <= len(key); i++ {
		s.grams[key[i:i+MinScrubRun]] = struct{}{}
	}
	return s
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
	var b strings.Builder
	done := 0 // text[:done] is written or redacted
	for i := 0; i+MinScrubRun <= len(text); i++ {
		if _, ok := s.grams[text[i:i+MinScrubRun]]; !ok {
			continue
		}
		end := i + MinScrubRun
		// Extend over overlapping matches: one [redacted] per run.
		for end < len(text) {
			if _, ok := s.grams[text[end-MinScrubRun+1:end+1]]; !ok {
				break
			}
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
	}
	if done == 0 {
		return text
	}
	b.WriteString(text[done:])
	return b.String()
}
